"""An activated virtual environment outside the project, in the sandbox ("Approvals and safety": a
confined command reads the system, toolchains and the project).

A venv's ``python`` reads ``pyvenv.cfg`` beside its bin folder and imports from the venv's ``lib/``
at start-up; with only the bin folder (a PATH entry) readable it died with "Permission denied:
…/pyvenv.cfg". The active environment is now readable, and stays read-only. These tests make a real
venv (``python -m venv --without-pip``) beside the project, activate it the way ``activate`` does
(its bin first on PATH, ``VIRTUAL_ENV`` set) and run its interpreter confined: through the kernel in
``auto`` mode, and directly through ``start_process`` to try writing into it.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from foya_desktop.core.events import ApprovalRequested
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.tools import exposure
from foya_desktop.tools.process import start_process
from foya_desktop.tools.sandbox import SandboxPolicy, active_environments
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_turns
from tests.security.test_confinement import needs_sandbox

PLANT = "import os; open(os.environ['VIRTUAL_ENV'] + '/planted.py', 'w').write('evil')"
"""Write into the active venv (no path in the command text: the policy asks for outside paths)."""


def _make_venv(where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=60)
    assert (where / "pyvenv.cfg").is_file()
    return where


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    """A real venv beside (outside) the project."""
    return _make_venv(tmp_path / "outside-venv")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "README.md").write_text("# demo\n")
    return root


@pytest.fixture
def activated(venv: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Foya's own environment as after ``source venv/bin/activate``."""
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    monkeypatch.setenv("PATH", f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    return venv


def test_the_active_environments_are_found(venv: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    path = f"{venv / 'bin'}{os.pathsep}/usr/bin"
    assert active_environments({"VIRTUAL_ENV": str(venv)}, home) == [venv]
    assert active_environments({"PATH": path}, home) == [venv]  # activated without VIRTUAL_ENV
    assert active_environments({"VIRTUAL_ENV": str(venv), "PATH": path}, home) == [venv]
    assert active_environments({"VIRTUAL_ENV": str(tmp_path), "PATH": "/usr/bin"}, home) == []  # no pyvenv.cfg
    assert active_environments({"VIRTUAL_ENV": "relative/venv"}, home) == []
    (home / "pyvenv.cfg").write_text("home = /usr/bin\n")
    for broad in (home, tmp_path):  # the home folder or one above it: everything in it readable
        (broad / "pyvenv.cfg").write_text("home = /usr/bin\n")
        assert active_environments({"VIRTUAL_ENV": str(broad)}, home) == []


@needs_sandbox
async def test_an_activated_venv_python_runs_confined_in_auto_mode(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, activated: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("run_command", {
                    "command": "python -c 'import sys; print(1, sys.prefix)'"})]),
                Reply(tool_calls=[ToolCallSpec("run_command", {"command": f'python -c "{PLANT}"'})]),
                Reply(text="done"))
    session = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(session.id, "check the interpreter")
    (done,) = await wait_turns(rec, session.id, 1, timeout=60)
    assert done.status == "completed"
    assert not rec.of(ApprovalRequested)  # ran unasked, so confined (auto mode)
    ran = fake.requests[1].body["messages"][-1]["content"]
    assert f"1 {activated}\n" in ran and "[exit code: 0]" in ran, ran  # the venv's own interpreter
    planted = fake.requests[2].body["messages"][-1]["content"]
    assert "[exit code: 1]" in planted and ("Read-only file system" in planted
                                           or "Permission denied" in planted), planted
    assert not (activated / "planted.py").exists()


@needs_sandbox
async def test_the_venv_stays_read_only_in_the_sandbox(project: Path, activated: Path, tmp_path: Path) -> None:
    policy = SandboxPolicy(writable=(project,), hidden=tuple(exposure.scan(project, tmp_path / "data").hidden))
    env = {"PATH": os.environ["PATH"], "VIRTUAL_ENV": str(activated)}
    config = (activated / "pyvenv.cfg").read_bytes()
    command = (f"python -I -S -c 'print(\"isolated\")'; python -c \"{PLANT}\"; "
               "echo x >> \"$VIRTUAL_ENV/pyvenv.cfg\"; mkdir \"$VIRTUAL_ENV/lib/new\"; "
               "python -c 'print(\"still\", 2)' > made.txt")
    handle = await start_process(command, project, env, tail=64 * 1024, sandbox=policy)
    async with asyncio.timeout(60):
        await handle.wait()
    out = handle.tail()
    assert "isolated" in out, out
    assert (project / "made.txt").read_text() == "still 2\n", out
    assert not (activated / "planted.py").exists() and not (activated / "lib" / "new").exists()
    assert (activated / "pyvenv.cfg").read_bytes() == config
