"""A repository cannot take over the person's own (user-level) MCP servers.

User-level servers (``mcp.json`` in Foya's data folder) need no trust, so they must run nothing
of the project. They used to start in the project folder, where ``npx`` runs a
``node_modules/.bin/<name>`` before the real package, ``python -m foo`` imports a ``foo.py``
before the installed module, and a relative ``PATH`` entry finds a project program. Each test
runs ``foya run`` (in-process) on a project laid out by an attacker, with the person's own
servers in the data folder; what the project planted writes a marker line when it runs. An
entry that names its ``cwd`` explicitly still starts there (the positive control).
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from foya_desktop.engine.kernel import Kernel
from foya_desktop.tools.mcp.config import user_config_path
from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply
from tests.mcp.conftest import ROOT, marker_lines, marker_server, stdio_entry, tag, wait_gone, write_config
from tests.security.test_mcp_trust import foya, provider, repo

__all__ = ["foya", "provider", "repo", "tag"]

needs_node = pytest.mark.skipif(shutil.which("npx") is None or subprocess.run(
    ["node", "--version"], capture_output=True, check=False).returncode != 0, reason="no Node.js")


def _program(path: Path, marker: Path, label: str, then: str = "exit 1") -> None:
    """An executable script that appends ``label`` to ``marker`` when it runs, then ``then``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho {label} >> '{marker}'\n{then}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _ran(marker: Path) -> list[str]:
    return marker.read_text().split() if marker.exists() else []


def _run(foya: Foya, provider: FakeProviderServer, repo: Path, servers: dict[str, object]) -> str:
    """Write the person's ``mcp.json`` (``FOYA_HOME`` of the ``foya`` fixture), run one ``foya run``
    in ``repo``; its stderr."""
    write_config(user_config_path(repo.parent / "home"), servers)
    provider.script(Reply(text="done"))
    code, _, err = foya("run", "--project", str(repo), "hello")
    assert code == 0, err
    return err


@needs_node
def test_npx_does_not_run_the_projects_node_modules_bin(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str) -> None:
    marker = tmp_path / "ran.txt"
    (repo / "package.json").write_text('{"name": "innocent", "version": "1.0.0"}\n')
    _program(repo / "node_modules" / ".bin" / "foya-probe-tool", marker, "project")
    own = tmp_path / "own-tools"  # the person's folder, named by the entry's "cwd"
    _program(own / "node_modules" / ".bin" / "foya-probe-tool", marker, "own",
             f"exec '{sys.executable}' -m tests.mcp.fake_server stdio {tag}")
    offline = {"npm_config_offline": "true", "PYTHONPATH": str(ROOT)}  # never the registry
    _run(foya, provider, repo, {
        "tool": {"command": "npx", "args": ["--no", "foya-probe-tool"], "env": offline},
        "mine": {"command": "npx", "args": ["--no", "foya-probe-tool"], "env": offline, "cwd": str(own)}})
    assert _ran(marker) == ["own"]
    assert wait_gone(tag) == []


def test_python_m_does_not_import_the_projects_module(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str) -> None:
    marker = tmp_path / "ran.txt"
    (repo / "foya_probe_mod.py").write_text(f"open({str(marker)!r}, 'a').write('project\\n')\n")
    own = tmp_path / "own-server"
    own.mkdir()
    starts = tmp_path / "starts.jsonl"
    entry = marker_server(own, starts, tag)
    _run(foya, provider, repo, {
        "shadowed": {"command": sys.executable, "args": ["-m", "foya_probe_mod"]},
        "mine": {**entry, "cwd": str(own)}})
    assert _ran(marker) == []
    assert [s["version"] for s in marker_lines(starts)] == ["v1"]  # its own folder, as named
    assert wait_gone(tag) == []


def test_path_entries_in_the_project_are_left_out(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``foya`` run from a terminal in the project, with ``bin`` (relative) and a project folder
    on ``PATH``: a user-level server's bare command is found on neither, nor is either passed on."""
    marker = tmp_path / "ran.txt"
    _program(repo / "bin" / "foya-probe-a", marker, "relative")
    _program(repo / "tools" / "foya-probe-b", marker, "inside")
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", f"bin:{repo / 'tools'}:{Path(sys.executable).parent}:/usr/bin:/bin")
    own = tmp_path / "own-server"
    own.mkdir()
    starts = tmp_path / "starts.jsonl"
    err = _run(foya, provider, repo, {"a": {"command": "foya-probe-a"}, "b": {"command": "foya-probe-b"},
                                      "mine": {**marker_server(own, starts, tag), "cwd": str(own)}})
    assert _ran(marker) == [], err
    (start,) = marker_lines(starts)
    env = start["env"]
    assert isinstance(env, dict)
    entries = str(env["PATH"]).split(":")
    assert "bin" not in entries and str(repo / "tools") not in entries and "/usr/bin" in entries
    assert wait_gone(tag) == []


async def test_a_cwd_that_does_not_exist_is_one_sentence(kernel: Kernel, tmp_path: Path, tag: str) -> None:
    gone = tmp_path / "gone"
    write_config(user_config_path(kernel.store.home.root), {"mine": {**stdio_entry(tag), "cwd": str(gone)}})
    project = tmp_path / "proj"
    project.mkdir()
    session = await kernel.sessions.create_session(title="t", workdir=str(project), connection="fake")
    assert kernel.svc.mcp is not None
    await kernel.svc.mcp.prepare(session)
    (status,) = await kernel.svc.mcp.overview(session.project_id, session.workdir)
    assert (status.state, status.error) == ("failed", f"The folder it starts in, {gone} (its \"cwd\"), does "
                                                      "not exist.")
