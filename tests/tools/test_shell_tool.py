"""``run_command`` and the process primitive: timeouts kill the group, output is capped, env is clean."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from foya_desktop.core.errors import ToolError
from foya_desktop.tools import sandbox
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.process import OutputBuffer, start_process
from foya_desktop.tools.sandbox import SandboxPolicy
from foya_desktop.tools.shell import RunCommandTool, scrub_env, shell_env

TOOL = RunCommandTool()


def _pids_running(token: str) -> list[int]:
    """Host pids of processes whose command line contains ``token`` (commands live in their own
    PID namespace, so ``$!`` inside a command is not a host pid)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if token.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _all_gone_soon(token: str, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _pids_running(token):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(session_id="s", workdir=tmp_path, data_dir=tmp_path / "data",
                       env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})


async def test_exit_code_and_merged_output(ctx: ToolContext) -> None:
    out = await TOOL.run({"command": "echo out; echo err >&2; exit 3"}, ctx)
    assert "out" in out.content
    assert "err" in out.content
    assert out.content.endswith("[exit code: 3]")
    assert out.is_error


async def test_runs_in_workdir_without_stdin(ctx: ToolContext) -> None:
    out = await TOOL.run({"command": "pwd; cat"}, ctx)
    assert str(ctx.workdir) in out.content
    assert out.content.endswith("[exit code: 0]")


async def test_timeout_kills_the_whole_group(ctx: ToolContext) -> None:
    command = "sleep 301.25 & sleep 301.5"
    started = time.monotonic()
    out = await TOOL.run({"command": command, "timeout_s": 1}, ctx)
    assert time.monotonic() - started < 10
    assert out.is_error
    assert "timed out after 1 s" in out.content
    assert _all_gone_soon("301.25") and _all_gone_soon("301.5")


async def test_background_leftovers_are_stopped_when_command_ends(ctx: ToolContext) -> None:
    out = await TOOL.run({"command": "sleep 302.25 & echo done"}, ctx)
    assert "done" in out.content
    assert _all_gone_soon("302.25")


async def test_cancelling_the_run_kills_the_group(ctx: ToolContext) -> None:
    task = asyncio.create_task(TOOL.run({"command": "setsid sleep 303.25 & sleep 303.5"}, ctx))
    for _ in range(200):
        if _pids_running("303.25"):
            break
        await asyncio.sleep(0.05)
    assert _pids_running("303.25")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _all_gone_soon("303.25") and _all_gone_soon("303.5")


async def test_output_cap_keeps_head_and_tail(ctx: ToolContext) -> None:
    out = await TOOL.run({"command": "seq 1 200000"}, ctx)
    assert len(out.content) < 32_000
    assert out.content.startswith("1\n2\n3\n")
    assert "200000\n[exit code: 0]" in out.content
    assert "bytes truncated" in out.content


async def test_env_is_scrubbed(ctx: ToolContext) -> None:
    env = {**ctx.env, "FOO_API_KEY": "canary-1", "GITHUB_TOKEN": "canary-2", "FOYA_SECRET_DIR": "canary-3",
           "DB_PASSWORD": "canary-4", "BASH_ENV": str(ctx.workdir / "evil.sh"), "KEEP_ME": "visible"}
    (ctx.workdir / "evil.sh").write_text("echo canary-5\n")
    scrubbed_ctx = ToolContext(session_id="s", workdir=ctx.workdir, data_dir=ctx.data_dir, env=env)
    out = await TOOL.run({"command": "env"}, scrubbed_ctx)
    assert "KEEP_ME=visible" in out.content
    for canary in ("canary-1", "canary-2", "canary-3", "canary-4", "canary-5"):
        assert canary not in out.content


def test_scrub_env_rules() -> None:
    env = {"OPENAI_API_KEY": "x", "ANTHROPIC_APIKEY": "x", "AWS_SECRET_ACCESS_KEY": "x", "NPM_TOKEN": "x",
           "MY_PASSWORD": "x", "FOYA_HOME": "x", "BASH_FUNC_ls%%": "() { rm; }", "SSH_AUTH_SOCK": "x",
           "DATABASE_URL": "postgres://u:pw@host/db", "STRIPE_KEY": "x", "CDPATH": "/", "IFS": "x",
           "HOME": "/home/me", "LANG": "C.UTF-8", "PATH": "/usr/bin::.:bin:/bin", "KEYBOARD": "us"}
    assert scrub_env(env) == {"HOME": "/home/me", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin",
                              "KEYBOARD": "us"}
    assert shell_env({})["GIT_TERMINAL_PROMPT"] == "0"


def test_plan_uses_the_command_policy(ctx: ToolContext) -> None:
    plain = TOOL.plan({"command": "ls -la"}, ctx)
    assert plain.kind == "exec"
    assert plain.auto_allow
    assert not plain.network
    fetch = TOOL.plan({"command": "curl https://example.com", "description": "fetch"}, ctx)
    assert fetch.network
    assert not fetch.auto_allow
    assert fetch.summary == "fetch"
    model_says_safe = TOOL.plan({"command": "touch x", "safe": True, "requires_approval": False}, ctx)
    assert not model_says_safe.auto_allow


def test_plan_refuses_denied_commands(ctx: ToolContext) -> None:
    with pytest.raises(ToolError, match="Refused"):
        TOOL.plan({"command": "rm -rf /"}, ctx)


@pytest.mark.parametrize("args", [{}, {"command": ""}, {"command": 5}, {"command": "ls", "timeout_s": 0},
                                  {"command": "ls", "timeout_s": 10_000}])
def test_plan_rejects_bad_arguments(ctx: ToolContext, args: dict[str, object]) -> None:
    with pytest.raises(ToolError):
        TOOL.plan(args, ctx)


async def test_run_refuses_denied_commands_too(ctx: ToolContext) -> None:
    out = await TOOL.run({"command": "sudo true"}, ctx)
    assert out.is_error
    assert "Refused" in out.content


async def test_start_process_tail_and_cancel(tmp_path: Path) -> None:
    handle = await start_process("echo first; sleep 304.25", tmp_path, {"PATH": "/usr/bin:/bin"})
    for _ in range(100):
        if "first" in handle.tail():
            break
        await asyncio.sleep(0.02)
    assert "first" in handle.tail()
    assert handle.returncode is None
    await handle.cancel(grace=1.0)
    assert handle.returncode is not None
    assert _all_gone_soon("304.25")


def test_output_buffer_marker() -> None:
    buffer = OutputBuffer(head=4, tail=4)
    for chunk in (b"abcd", b"0123456789", b"wxyz"):
        buffer.feed(chunk)
    assert buffer.text() == "abcd\n[… 10 bytes truncated …]\nwxyz"
    small = OutputBuffer(head=10, tail=10)
    small.feed(b"hello")
    assert small.text() == "hello"


@pytest.mark.skipif(not sandbox.available(), reason="Landlock is not available here")
async def test_sandboxed_run_cannot_write_outside(tmp_path: Path) -> None:
    work = tmp_path / "proj"
    work.mkdir()
    outside = tmp_path / "outside.txt"
    repo_root = str(Path(__file__).resolve().parents[2])
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": repo_root}
    ctx = ToolContext(session_id="s", workdir=work, data_dir=tmp_path / "data", env=env,
                      sandbox=SandboxPolicy(writable=(work,)))
    command = f"echo ok > inside.txt; python3 -c \"open('{outside}', 'w')\"; echo code=$?"
    out = await TOOL.run({"command": command}, ctx)
    assert (work / "inside.txt").read_text() == "ok\n"
    assert "code=1" in out.content
    assert not outside.exists()
