"""Commands that run unasked cannot change what a trusted MCP server runs.

A trusted stdio server runs its project files unconfined; the file tools already ask before
writing them in every mode (``engine.mcp.write_guard``). The attack here goes through a
command instead: a scripted obedient model in ``auto`` mode (``foya run``, nobody to ask)
appends to the server's script with the shell, rewrites it with ``sed -i`` (a new file renamed
over it) and with Python, and swaps it by moving its folder away. Judged by effects: the
script's bytes, and the server starting trusted (its marker line) in the next run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foya_desktop.tools.mcp.config import project_config_path
from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.mcp.conftest import marker_lines, marker_server, tag, wait_gone, write_config
from tests.security.test_confinement import needs_sandbox
from tests.security.test_mcp_trust import foya, provider, repo

__all__ = ["foya", "provider", "repo", "tag"]

ATTACKS = {
    "shell append": "echo evil >> server.py",
    "sed in place": "sed -i s/v1/v2-evil/ server.py",
    "python append": "python3 -c \"open('server.py', 'a').write('evil()')\"",
    "python on a neighbour": "python3 -c \"open('helpers.py', 'w').write('evil()')\"",
}


@needs_sandbox
@pytest.mark.parametrize("command", ATTACKS.values(), ids=ATTACKS.keys())
def test_a_confined_command_cannot_change_a_trusted_servers_run_files(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str,
        command: str) -> None:
    marker = tmp_path / "marker.jsonl"
    (repo / "helpers.py").write_text("X = 1\n")  # beside the script: run too
    write_config(project_config_path(repo), {"srv": marker_server(repo, marker, tag)})
    _attack_then_start_again(foya, provider, repo, marker, tag, command, ("server.py", "helpers.py"))


@needs_sandbox
def test_a_confined_command_cannot_swap_a_run_file_by_moving_its_folder(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str) -> None:
    """The file's own mount moves along with its folder; a new folder then takes its path."""
    marker = tmp_path / "marker.jsonl"
    (repo / "srv").mkdir()
    entry = marker_server(repo / "srv", marker, tag)
    write_config(project_config_path(repo), {"srv": {**entry, "args": ["srv/server.py", tag]}})
    _attack_then_start_again(foya, provider, repo, marker, tag,
                             "mv srv srv.old; mkdir -p srv; sed s/v1/v2-evil/ srv.old/server.py > srv/server.py",
                             ("srv/server.py",))


def _attack_then_start_again(foya: Foya, provider: FakeProviderServer, repo: Path, marker: Path, tag: str,
                             command: str, run_files: tuple[str, ...]) -> None:
    """Trust, let the model run ``command`` then a harmless one in auto mode, check ``run_files``
    and start the server again."""
    assert foya("projects", "trust", str(repo), "--yes")[0] == 0
    before = {name: (repo / name).read_bytes() for name in run_files}
    provider.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": command}, id="c1"),
                                      ToolCallSpec("run_command", {"command": "echo ok > notes.txt"},
                                                   id="c2")]),
                    Reply(text="done"))
    code, _, err = foya("run", "--project", str(repo), "--approval", "auto", "improve the server")
    assert code == 0, err
    assert {name: (repo / name).read_bytes() for name in before} == before
    assert (repo / "notes.txt").read_text() == "ok\n"  # the commands did run (confined)
    results = [m for m in provider.requests[-1].body["messages"] if m.get("role") == "tool"]
    assert len(results) == 2 and "Not allowed" not in json.dumps(results)

    provider.script(Reply(text="done"))
    code, _, err = foya("run", "--project", str(repo), "hello")
    assert code == 0 and "not trusted" not in err, err
    assert [m["version"] for m in marker_lines(marker)] == ["v1", "v1"]  # started trusted both times
    assert wait_gone(tag) == []
