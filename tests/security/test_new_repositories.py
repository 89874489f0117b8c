"""New git repositories made by confined commands or file tools (issue 8, class 2, "nested repos").

Git obeys any repository it discovers: a ``.git`` entry, or a folder laid out
like one (``HEAD`` + ``objects/`` + ``refs/``). A confined command that makes
one has it quarantined when its PID namespace ends (``repo_guard``); a file
tool may not complete such a layout; unasked commands lose the variables that
would let a listed read take options or programs from elsewhere.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from foya_desktop.core.errors import ToolError
from foya_desktop.tools import repo_guard
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.common import confined
from foya_desktop.tools.shell import command_env
from tests.security.test_confinement import _policy, _run, needs_sandbox


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    (folder / "keep" / ".git").mkdir(parents=True)  # an existing nested repository stays as it is
    (folder / "notes.txt").write_text("hello\n")
    return folder


@needs_sandbox
async def test_a_repository_a_confined_command_creates_is_quarantined(proj: Path, tmp_path: Path) -> None:
    evil = tmp_path / "evil.sh"
    code, out = await _run(
        f"git init -q sub && git -C sub config core.fsmonitor {evil}; "
        "mkdir -p lay/objects lay/refs && echo 'ref: refs/heads/main' > lay/HEAD; "
        "mkdir -p dot && echo 'gitdir: /tmp' > dot/.git; mv keep kept; echo done",
        proj, _policy(proj, tmp_path / "data"))
    assert code == 0 and "done" in out, out
    found = sorted(repo_guard.find_repositories(proj)[0])
    assert found == [proj / ".git", proj / "kept" / ".git"], found  # moved, not new: kept as it is
    assert (proj / "sub" / ".git.quarantined-by-foya" / "HEAD.quarantined-by-foya").is_file()
    assert (proj / "lay" / "HEAD.quarantined-by-foya").is_file()
    assert (proj / "dot" / ".git.quarantined-by-foya").is_file()
    assert out.count("foya: quarantined the git repository this command created") == 3, out
    person = subprocess.run(["git", "status"], cwd=proj / "sub", capture_output=True, text=True, check=False,
                            env={**os.environ, "GIT_CEILING_DIRECTORIES": str(proj)})
    assert person.returncode != 0 and "not a git repository" in person.stderr


def test_file_tools_do_not_complete_a_repository_layout(proj: Path, tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workdir=proj, data_dir=tmp_path / "data")
    for path in ("lay/objects/x", "lay/refs/x"):
        confined(ctx, path, for_write=True)
        (proj / path).parent.mkdir(parents=True, exist_ok=True)
        (proj / path).write_text("x")
    with pytest.raises(ToolError, match="protected"):
        confined(ctx, "lay/HEAD", for_write=True)
    (proj / "lay" / "HEAD").write_text("ref: refs/heads/main\n")  # (made some other way)
    for path in ("lay/config", "lay/objects/y"):
        with pytest.raises(ToolError, match="protected"):
            confined(ctx, path, for_write=True)
    with pytest.raises(ToolError, match="protected"):
        confined(ctx, "sub/.git/config", for_write=True)


def test_unasked_commands_lose_variables_that_bring_programs_or_options(proj: Path, tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "RIPGREP_CONFIG_PATH": ".ripgreprc", "GREP_OPTIONS": "-R",
           "LESSOPEN": "|./x %s", "GCONV_PATH": ".", "LD_LIBRARY_PATH": "lib:/usr/lib", "HOME": str(tmp_path)}
    ctx = ToolContext(session_id="s", workdir=proj, data_dir=tmp_path / "data", env=env)
    unasked = command_env("cat notes.txt", ctx)
    assert not {"RIPGREP_CONFIG_PATH", "GREP_OPTIONS", "LESSOPEN", "GCONV_PATH"} & unasked.keys()
    assert unasked["LD_LIBRARY_PATH"] == "/usr/lib"
    approved = command_env("make all", ctx)
    assert approved["RIPGREP_CONFIG_PATH"] == ".ripgreprc"  # a command the person approves keeps them
