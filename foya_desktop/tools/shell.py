"""``run_command``: one shell command in the project folder, with a timeout and a scrubbed environment.

``plan`` asks ``classify_command`` (the one command policy) and refuses a
``deny`` outright; the approval policy decides the rest from
``Action.auto_allow`` and ``Action.network``. The environment never carries
API keys, tokens or Foya's own variables, nor the bash hooks (``BASH_ENV``,
exported functions) that could change what a plain ``ls`` does.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Collection, Mapping
from typing import Any

from foya_desktop.core.errors import ToolError
from foya_desktop.tools import git_safety
from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_int, arg_str
from foya_desktop.tools.paths import real_root
from foya_desktop.tools.process import start_process
from foya_desktop.tools.shell_policy import Verdict, classify_command

DEFAULT_TIMEOUT_S = 120
MAX_TIMEOUT_S = 600
OUTPUT_HEAD = 15_000
OUTPUT_TAIL = 15_000

_SECRET_NAME = re.compile(
    r"API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY|"
    r"(^|_)KEY$|(^|_)AUTH($|_)|COOKIE|SESSION_ID|(^|_)DSN$|(^|_)PAT$", re.IGNORECASE)
_DROP_NAMES = frozenset({
    "GIT_DIR", "GIT_WORK_TREE", "GIT_EXTERNAL_DIFF", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_EXEC_PATH",
    "BASH_ENV", "ENV", "CDPATH", "GLOBIGNORE", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "PS4", "IFS",
    "BASH_XTRACEFD", "EXECIGNORE", "LD_PRELOAD", "LD_AUDIT", "SSH_AUTH_SOCK", "GPG_AGENT_INFO",
    "DBUS_SESSION_BUS_ADDRESS",
})
_DROP_PREFIXES = ("FOYA_", "BASH_FUNC_", "GIT_CONFIG_")
_UNASKED_DROP = frozenset({"RIPGREP_CONFIG_PATH", "GREP_OPTIONS", "LESSOPEN", "LESSCLOSE", "MANPAGER",
                           "GCONV_PATH", "LOCPATH"})
"""Variables that make a listed read run a program or change its options from outside the command
line (an ``rg`` config may add ``--pre``/``--follow``; iconv loads modules from ``GCONV_PATH``):
removed for commands that run unasked, whose safety rests on the command line alone."""
_URL_WITH_PASSWORD = re.compile(r"://[^/\s:@]+:[^/\s@]+@")
_NON_INTERACTIVE = {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat", "GIT_EDITOR": "true"}

RUN_COMMAND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "description": "A bash command, run in the project folder."},
        "timeout_s": {"type": "integer", "minimum": 1, "maximum": MAX_TIMEOUT_S,
                      "description": f"Seconds before the command is killed (default {DEFAULT_TIMEOUT_S})."},
        "description": {"type": "string", "description": "What the command does, in a few words."},
    },
    "required": ["command"],
    "additionalProperties": False,
}


def _safe_path(value: str) -> str:
    """PATH without empty or relative entries, which would run programs from the project."""
    return os.pathsep.join(p for p in value.split(os.pathsep) if os.path.isabs(p))


def scrub_env(environ: Mapping[str, str], key_names: Collection[str] = (),
              key_values: Collection[str] = ()) -> dict[str, str]:
    """A copy of ``environ`` without secrets, Foya's variables and shell start-up hooks.

    ``key_names``/``key_values``: the connections' own key variables and keys, whatever the
    variables are called (``--api-key-env OPENAI_KEY_PROD``) and wherever else a key is copied.
    """
    clean: dict[str, str] = {}
    for name, value in environ.items():
        if (name in _DROP_NAMES or name.startswith(_DROP_PREFIXES) or _SECRET_NAME.search(name)
                or _URL_WITH_PASSWORD.search(value) or name in key_names
                or any(key in value for key in key_values)):
            continue
        clean[name] = _safe_path(value) if name in ("PATH", "LD_LIBRARY_PATH") else value
    return clean


def shell_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment a command runs with: scrubbed, and set up so nothing waits for a terminal."""
    return scrub_env(environ) | _NON_INTERACTIVE


def command_env(command: str, ctx: ToolContext) -> dict[str, str]:
    """The environment for ``command``: ``shell_env``, plus git's safe settings when the command
    policy lets it run unasked (see ``git_safety``; only listed reads are in such a command)."""
    env = shell_env(ctx.env or os.environ)
    if classify_command(command, ctx.workdir, ctx.data_dir).decision == "allow":
        env = {k: v for k, v in env.items() if k not in _UNASKED_DROP}
        env |= git_safety.safe_env(real_root(ctx.workdir))
    return env


def _report(output: str, code: int | None, timeout_s: int) -> ToolOutput:
    body = output.rstrip("\n") if output.strip() else "(no output)"
    if code is None:
        return ToolOutput(
            f"{body}\n[timed out after {timeout_s} s; the command and its children were killed]",
            is_error=True)
    return ToolOutput(f"{body}\n[exit code: {code}]", is_error=code != 0)


class RunCommandTool:
    """``run_command``: bash in the project folder; output capped; a timeout kills the process group."""

    name = "run_command"
    description = (
        "Run a bash command in the project folder (non-interactive: no stdin, no pager). Output "
        "(stdout and stderr together) is capped; the command is killed after timeout_s. Processes it "
        "leaves running in the background are stopped when it ends."
    )
    parameters = RUN_COMMAND_SCHEMA

    def _checked(self, args: dict[str, Any], ctx: ToolContext) -> tuple[str, int, Verdict]:
        command = arg_str(args, "command")
        timeout_s = arg_int(args, "timeout_s", default=DEFAULT_TIMEOUT_S, low=1, high=MAX_TIMEOUT_S)
        verdict = classify_command(command, ctx.workdir, ctx.data_dir)
        if verdict.decision == "deny":
            raise ToolError(f"Refused by the command policy: {verdict.reason}")
        return command, timeout_s, verdict

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Classify the command; a ``deny`` is refused here, before anyone is asked."""
        command, _, verdict = self._checked(args, ctx)
        summary = args.get("description") if isinstance(args.get("description"), str) else ""
        return Action(kind="exec", summary=summary or command[:200], command=command,
                      paths=(ctx.workdir,), network=verdict.network,
                      auto_allow=verdict.decision == "allow", outside=verdict.outside,
                      policy_reason=verdict.reason, policy_parts=verdict.reason_parts)

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Run it (confined when ``ctx.sandbox`` says so); a timeout or cancellation kills the group."""
        try:
            command, timeout_s, _ = self._checked(args, ctx)
        except ToolError as exc:
            return ToolOutput(str(exc), is_error=True)
        env = command_env(command, ctx)
        try:
            handle = await start_process(command, ctx.workdir, env, head=OUTPUT_HEAD, tail=OUTPUT_TAIL,
                                         sandbox=ctx.sandbox)
        except OSError as exc:
            return ToolOutput(f"could not start bash: {exc.strerror or exc}", is_error=True)
        try:
            async with asyncio.timeout(timeout_s):
                await handle.exited()
            code: int | None = await handle.wait()
        except TimeoutError:
            await handle.cancel()
            code = None
        except asyncio.CancelledError:
            await asyncio.shield(handle.cancel())
            raise
        return _report(handle.tail(), code, timeout_s)
