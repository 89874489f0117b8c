"""Which project files a stdio server runs (``tools.mcp.run_files``), what trust keeps of them,
what a changed one shows, and the environment a server starts with (``tools.mcp.environment``).

Real files in a temporary project: symbolic links out of it and hard links are made for real.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from foya_desktop.tools.mcp import run_files as rf
from foya_desktop.tools.mcp.config import configured_servers, project_config_path
from foya_desktop.tools.mcp.environment import server_environment
from foya_desktop.tools.mcp.trust_spec import (
    SPEC_VERSION,
    TrustSpec,
    change_lines,
    changes,
    describe,
    spec_of,
)


def _spec(project: Path, entry: dict[str, object]) -> TrustSpec:
    project_config_path(project).write_text(json.dumps({"mcpServers": {"s": entry}}), encoding="utf-8")
    (server,) = configured_servers(None, project).servers
    assert server.problem is None, server.problem
    return spec_of(server, project)


def _paths(spec: TrustSpec) -> dict[str, str]:
    return {f.path: f.state for f in spec.files}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    (folder / "dist").mkdir(parents=True)
    (folder / "server.py").write_text("import tools\n")
    (folder / "tools.py").write_text("X = 1\n")
    (folder / "README.md").write_text("not code\n")
    (folder / "dist" / "index.js").write_text("require('./chunk')\n")
    (folder / "dist" / "chunk.js").write_text("module.exports = 1\n")
    (folder / "run.sh").write_text("#!/bin/sh\nexec python3 server.py\n")
    (folder / "run.sh").chmod(0o755)
    return folder


def test_the_script_its_neighbours_and_an_executable_command(project: Path) -> None:
    assert _paths(_spec(project, {"command": "python3", "args": ["server.py"]})) == {
        "server.py": "file", "tools.py": "file"}  # a script imports its neighbours; README.md is not code
    assert _paths(_spec(project, {"command": "node", "args": ["./dist/index.js"]})) == {
        "dist/index.js": "file", "dist/chunk.js": "file"}
    assert "run.sh" in _paths(_spec(project, {"command": "./run.sh"}))
    assert "server.py" in _paths(_spec(project, {"command": "bash", "args": ["-c", "python3 server.py"]}))
    assert "server.py" in _paths(_spec(project, {"command": "uv", "args": ["run", "--script=server.py"]}))
    # a folder named by an argument is data (the filesystem server serves it, it does not run it)
    assert _paths(_spec(project, {"command": "npx", "args": ["-y", "@x/server-filesystem", "."]})) == {}


def test_python_module_and_a_module_that_appears_later(project: Path) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "srv.py").write_text("print(1)\n")
    assert {"pkg/__init__.py", "pkg/srv.py"} <= set(_paths(_spec(project, {"command": "python3",
                                                                           "args": ["-m", "pkg.srv"]})))
    before = _spec(project, {"command": "python3", "args": ["-m", "mcp_server_time"]})
    assert _paths(before) == {"mcp_server_time.py": "missing", "mcp_server_time/__init__.py": "missing"}
    (project / "mcp_server_time.py").write_text("evil = True\n")  # would shadow the installed module
    after = _spec(project, {"command": "python3", "args": ["-m", "mcp_server_time"]})
    assert after.fingerprint != before.fingerprint
    added = {c.name: c for c in changes(before, after) if c.what == "file"}["mcp_server_time.py"]
    assert added.before == "mcp_server_time.py (absent)" and "+evil = True" in added.diff


def test_folders_an_environment_value_names(project: Path) -> None:
    (project / "lib").mkdir()
    (project / "lib" / "sitecustomize.py").write_text("import os\n")
    (project / "lib" / "site.pth").write_text("import os\n")
    spec = _spec(project, {"command": "python3", "args": ["-c", "pass"],
                           "env": {"PYTHONPATH": f"lib{os.pathsep}/usr/lib/python3"}})
    assert {"lib/sitecustomize.py", "lib/site.pth"} <= set(_paths(spec))


def test_links_out_of_the_project_are_named_never_read(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "id_rsa"
    secret.parent.mkdir()
    secret.write_text("PRIVATE-KEY-CANARY\n")
    (project / "linked.py").symlink_to(secret)
    (project / "proc.py").symlink_to("/proc/self/environ")
    spec = _spec(project, {"command": "python3", "args": ["linked.py", "proc.py"]})
    states = {f.path: (f.state, f.note) for f in spec.files}
    assert states["linked.py"] == ("outside", str(secret)) and states["proc.py"][0] == "outside"
    assert "PRIVATE-KEY-CANARY" not in spec.to_json()
    assert any("outside the project: not checked" in line for line in describe(spec))
    # re-pointing the link is a change
    (project / "linked.py").unlink()
    (project / "linked.py").symlink_to(tmp_path / "outside" / "other")
    assert _spec(project, {"command": "python3", "args": ["linked.py", "proc.py"]}).fingerprint != spec.fingerprint


def test_hard_linked_and_secret_looking_files_are_hashed_but_never_kept(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("HARD-LINK-CANARY = 1\n")
    os.link(outside, project / "hard.py")
    (project / ".env").write_text("TOKEN=ENV-CANARY\n")
    spec = _spec(project, {"command": "python3", "args": ["hard.py", "--env-file", ".env"]})
    by_path = {f.path: f for f in spec.files}
    assert by_path["hard.py"].sha256 and by_path["hard.py"].text is None and "hard links" in by_path["hard.py"].note
    assert by_path[".env"].sha256 and by_path[".env"].text is None
    assert "CANARY" not in spec.to_json()
    outside.write_text("HARD-LINK-CANARY = 2\n")  # the same inode: still a change
    after = _spec(project, {"command": "python3", "args": ["hard.py", "--env-file", ".env"]})
    (changed,) = [c for c in changes(spec, after) if c.what == "file"]
    assert changed.name == "hard.py" and "no diff shown" in changed.diff and "CANARY" not in changed.diff


def test_the_diff_is_capped_and_the_spec_round_trips(project: Path) -> None:
    (project / "big.py").write_text("".join(f"line {i}\n" for i in range(3000)))
    before = _spec(project, {"command": "python3", "args": ["big.py"], "env": {"A": "${HOME}"},
                             "timeout": 5})
    (project / "big.py").write_text("".join(f"LINE {i}\n" for i in range(3000)))
    after = _spec(project, {"command": "python3", "args": ["big.py"], "env": {"A": "${HOME}"}})
    assert TrustSpec.from_json(before.to_json()) == before and TrustSpec.from_json("npx x") is None
    assert before.fingerprint.startswith(f"v{SPEC_VERSION}:")
    (changed,) = changes(before, after)
    assert changed.diff.count("\n") <= 201 and "diff cut at" in changed.diff
    assert change_lines(changed)[0].startswith("file big.py: big.py (sha256")
    assert before.variables() == ["HOME"] and "${HOME}" in " ".join(describe(before))


def test_many_files_are_counted_not_hashed(project: Path) -> None:
    for i in range(rf.MAX_FILES + 20):
        (project / f"m{i:03}.py").write_text("")
    spec = _spec(project, {"command": "python3", "args": ["server.py"]})
    assert len(spec.files) == rf.MAX_FILES and spec.more_files == 22
    assert "server.py" in _paths(spec)  # the named script is always among those checked


def test_a_servers_environment_is_the_base_plus_what_it_names() -> None:
    foya = {"PATH": "/x", "HOME": "/home/p", "LANG": "C.UTF-8", "LC_TIME": "de_DE", "USER": "p",
            "OPENAI_API_KEY": "sk-canary", "AWS_SECRET_ACCESS_KEY": "aws-canary", "DBUS_SESSION_BUS_ADDRESS": "x",
            "HTTPS_PROXY": "http://user:pw@proxy", "BASH_FUNC_x%%": "() { evil; }", "SHELL": "() { evil; }"}
    env = server_environment("/usr/bin:/bin", {"GITHUB_TOKEN": "named"}, foya)
    assert env == {"PATH": "/usr/bin:/bin", "HOME": "/home/p", "LANG": "C.UTF-8", "LC_TIME": "de_DE",
                   "USER": "p", "GITHUB_TOKEN": "named"}
    assert server_environment("/p", {"PATH": "/mine"}, foya)["PATH"] == "/mine"
