"""The person's own git, run by Foya for its worktree operations.

Foya's own git calls (listing worktrees, ``git worktree add``/``remove``,
deleting a branch, reading a diff) run the ``git`` on the person's ``PATH``
with the person's configuration, but with the programs a repository's config
could name switched off on the command line, exactly as for the agent's
unasked git reads (``tools.git_safety.SAFE_CONFIG``: fsmonitor, hooks, pagers,
ssh, credential helpers, gpg, editors). A ``post-checkout`` hook in a
repository therefore does not run when Foya adds a worktree. Only the merge
or rebase the person confirmed (*Merge back…*) runs with git as it is
(``programs=True``): that is the person's own command, hooks included.

Nothing here is ever interactive: no terminal prompt, no editor, no pager.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.tools.git_safety import SAFE_CONFIG

_INHERITED_GIT = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
                  "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES",
                  "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")
"""Variables of Foya's own environment that would point git at another repository or add settings."""
_CONFIG_PAIR = re.compile(r"^GIT_CONFIG_(KEY|VALUE)_\d+$")


@dataclass(frozen=True, slots=True)
class GitResult:
    """What one git command did."""

    code: int
    out: str
    err: str

    @property
    def ok(self) -> bool:
        """It exited 0."""
        return self.code == 0

    def sentence(self) -> str:
        """git's own last words, for a sentence that quotes them."""
        text = (self.err.strip() or self.out.strip()).splitlines()
        return text[-1].removeprefix("fatal: ").removeprefix("error: ") if text else f"exit code {self.code}"


def git_env(*, programs: bool) -> dict[str, str]:
    """The environment of Foya's own git: the person's, never interactive; program settings off
    unless ``programs`` (a merge the person confirmed)."""
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_GIT and not _CONFIG_PAIR.match(k)}
    env |= {"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "GIT_EDITOR": "true",
            "GIT_SEQUENCE_EDITOR": "true", "GIT_ASKPASS": "false",
            "SSH_ASKPASS": "false", "LC_ALL": "C", "LANGUAGE": ""}
    if not programs:
        env["GIT_CONFIG_COUNT"] = str(len(SAFE_CONFIG))
        for index, (key, value) in enumerate(SAFE_CONFIG):
            env[f"GIT_CONFIG_KEY_{index}"] = key
            env[f"GIT_CONFIG_VALUE_{index}"] = value
    return env


def run_git(cwd: Path, *args: str, programs: bool = False, timeout: float = 300) -> GitResult:
    """Run ``git args`` in ``cwd`` (blocking: call it off the event loop)."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, env=git_env(programs=programs), capture_output=True,
                              stdin=subprocess.DEVNULL, timeout=timeout, check=False)
    except FileNotFoundError:
        raise InvalidOperation("git is not installed (no 'git' program on the PATH), so Foya cannot "
                               "make or read worktrees.") from None
    except subprocess.TimeoutExpired:
        raise InvalidOperation(f"git {args[0]} did not finish within {int(timeout)} s in {cwd}.") from None
    except OSError as exc:
        raise InvalidOperation(f"git could not run in {cwd}: {exc.strerror or exc}.") from None
    return GitResult(done.returncode, done.stdout.decode("utf-8", "replace"),
                     done.stderr.decode("utf-8", "replace"))
