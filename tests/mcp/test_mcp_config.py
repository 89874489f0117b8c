"""``.mcp.json`` and the user-level server list: Claude Code's format, read leniently.

Seed ids: Y-WORKDIR (the workdir is the root of MCP discovery; issue 13 "MCP client").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foya_desktop.tools.mcp.config import (
    configured_servers,
    expand,
    expand_server,
    project_config_path,
    tool_name_part,
    user_config_path,
)


def _write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


def test_stdio_http_and_sse_entries_in_claude_code_format(tmp_path: Path) -> None:
    """stdio (command/args/env), type http (streamable HTTP) and sse (url/headers) all load."""
    project = tmp_path / "repo"
    _write(project_config_path(project), {"mcpServers": {
        "files": {"command": "npx", "args": ["-y", "@scope/server", "/tmp"], "env": {"DEBUG": "1"}},
        "web": {"type": "http", "url": "https://example.test/mcp", "headers": {"X-Team": "a"}},
        "old": {"type": "sse", "url": "http://127.0.0.1:9/sse"},
    }})
    listing = configured_servers(tmp_path / "home", project)
    by_name = {s.name: s for s in listing.servers}
    assert listing.problems == ()
    assert by_name["files"].transport == "stdio" and by_name["files"].args == ("-y", "@scope/server", "/tmp")
    assert by_name["files"].env == (("DEBUG", "1"),) and by_name["files"].scope == "project"
    assert by_name["web"].transport == "http" and by_name["web"].headers == (("X-Team", "a"),)
    assert by_name["old"].transport == "sse"
    assert all(s.problem is None for s in listing.servers)
    assert by_name["files"].target() == "npx -y @scope/server /tmp"


def test_user_and_project_levels_are_kept_apart(tmp_path: Path) -> None:
    """The user-level file lives in the data folder; each server says where it came from."""
    home, project = tmp_path / "home", tmp_path / "repo"
    _write(user_config_path(home), {"mcpServers": {"notes": {"command": "notes-server"},
                                                   "same": {"command": "user-one"}}})
    _write(project_config_path(project), {"mcpServers": {"same": {"command": "project-one"}}})
    listing = configured_servers(home, project)
    assert [s.name for s in listing.of_scope("user")] == ["notes", "same"]
    assert [s.name for s in listing.of_scope("project")] == ["same"]
    assert listing.of_scope("user")[0].source == home / "mcp.json"
    assert listing.of_scope("project")[0].source == project / ".mcp.json"
    assert [(s.scope, s.command) for s in listing.effective()] == [("user", "notes-server"),
                                                                    ("project", "project-one")]


def test_variable_expansion_with_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``${VAR}`` and ``${VAR:-default}`` in command, args, env, url and headers."""
    monkeypatch.setenv("FOYA_T_DIR", "/data")
    monkeypatch.setenv("FOYA_T_TOKEN", "s3cret")
    monkeypatch.delenv("FOYA_T_UNSET", raising=False)
    assert expand("${FOYA_T_DIR}/x ${FOYA_T_UNSET:-fallback}", {"FOYA_T_DIR": "/data"}) == ("/data/x fallback", [])
    assert expand("${FOYA_T_UNSET}", {}) == ("", ["FOYA_T_UNSET"])
    assert expand("Bearer ${keyring:github}", {}) == ("Bearer ${keyring:github}", [])
    project = tmp_path / "repo"
    _write(project_config_path(project), {"mcpServers": {
        "a": {"command": "${FOYA_T_UNSET:-uvx}", "args": ["--root", "${FOYA_T_DIR}"],
              "env": {"TOKEN": "${FOYA_T_TOKEN}"}},
        "b": {"type": "http", "url": "http://${FOYA_T_HOST:-127.0.0.1}:8/mcp",
              "headers": {"Authorization": "Bearer ${FOYA_T_TOKEN}"}},
    }})
    a, b = configured_servers(None, project).servers
    assert a.problem is None and b.problem is None and b.warnings == ()
    ea, eb = expand_server(a), expand_server(b)
    assert (ea.command, ea.args, ea.env) == ("uvx", ("--root", "/data"), {"TOKEN": "s3cret"})
    assert eb.url == "http://127.0.0.1:8/mcp" and eb.headers == {"Authorization": "Bearer s3cret"}
    # what lists and prompts show is the entry as written: a variable's value never appears
    assert a.target() == "${FOYA_T_UNSET:-uvx} --root ${FOYA_T_DIR}"


def test_malformed_entries_are_reported_and_the_rest_load(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """Lenient parser: each bad entry is a sentence naming server and file; good ones load."""
    monkeypatch.delenv("FOYA_T_MISSING", raising=False)
    project = tmp_path / "repo"
    _write(project_config_path(project), {"mcpServers": {
        "good": {"command": "ok"},
        "nocmd": {"args": ["x"]},
        "weird": {"type": "websocket", "url": "ws://x"},
        "list": ["not", "an", "object"],
        "badargs": {"command": "x", "args": "one string"},
        "unset": {"command": "${FOYA_T_MISSING}"},
        "nourl": {"type": "http"},
        "ftp": {"type": "http", "url": "ftp://x"},
        "slow": {"command": "x", "timeout": -3},
        "literal": {"type": "http", "url": "https://x.test", "headers": {"Authorization": "Bearer abc"}},
    }})
    servers = {s.name: s for s in configured_servers(None, project).servers}
    assert servers["good"].problem is None
    for name, words in {"nocmd": "needs \"command\"", "weird": "unknown type 'websocket'",
                        "list": "should be an object", "badargs": "\"args\" should be a list",
                        "unset": "FOYA_T_MISSING is not set", "nourl": "needs \"url\"",
                        "ftp": "http:// or https://", "slow": "\"timeout\" should be"}.items():
        problem = servers[name].problem
        assert problem is not None and words in problem, (name, problem)
        assert f"server {name!r} in {project / '.mcp.json'}" in problem
    assert servers["literal"].problem is None
    assert "literal secret" in servers["literal"].warnings[0]


@pytest.mark.parametrize(("text", "words"), [
    ("{not json", "is not valid JSON (line 1"),
    ("[1, 2]", "should hold a JSON object"),
    ('{"mcpServers": 3}', "should be an object"),
    ('{"servers": {}}', "has no \"mcpServers\""),
])
def test_malformed_file_is_a_sentence_and_other_file_still_loads(tmp_path: Path, text: str,
                                                                 words: str) -> None:
    home, project = tmp_path / "home", tmp_path / "repo"
    _write(user_config_path(home), {"mcpServers": {"mine": {"command": "x"}}})
    _write(project_config_path(project), text)
    listing = configured_servers(home, project)
    assert [s.name for s in listing.servers] == ["mine"]
    assert len(listing.problems) == 1 and words in listing.problems[0]
    assert str(project / ".mcp.json") in listing.problems[0]


def test_no_files_no_servers(tmp_path: Path) -> None:
    listing = configured_servers(tmp_path / "home", tmp_path / "repo")
    assert listing.servers == () and listing.problems == () and listing.files == ()


def test_fingerprint_covers_the_entry_as_written(tmp_path: Path) -> None:
    """A changed command, argument, URL, env value or header value is a new fingerprint."""
    project = tmp_path / "repo"

    def server(entry: dict[str, object]) -> str:
        _write(project_config_path(project), {"mcpServers": {"s": entry}})
        return configured_servers(None, project).servers[0].fingerprint()

    base = server({"command": "x", "args": ["a"], "env": {"T": "1"}})
    assert server({"command": "x", "args": ["a"], "env": {"T": "2"}}) != base
    assert server({"command": "x", "args": ["b"], "env": {"T": "1"}}) != base
    assert server({"command": "y", "args": ["a"], "env": {"T": "1"}}) != base
    url = server({"type": "http", "url": "http://127.0.0.1:1/mcp"})
    assert server({"type": "http", "url": "http://127.0.0.1:2/mcp"}) != url
    tok = server({"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"A": "${T}"}})
    assert server({"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"A": "${U:-x}"}}) != tok


def test_tool_name_part_is_safe_for_every_provider() -> None:
    assert tool_name_part("my server.v2") == "my_server_v2"
    assert tool_name_part("ok-name_1") == "ok-name_1"


def test_the_sdk_is_not_imported_on_the_start_up_path() -> None:
    """The ``mcp`` SDK (pydantic, anyio, starlette) loads only when a server starts."""
    import subprocess
    import sys
    code = ("import sys, foya_desktop.cli.main, foya_desktop.engine.bootstrap, foya_desktop.engine.kernel; "
            "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'pydantic'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_commands_resolve_through_the_login_shell_path(tmp_path: Path) -> None:
    """A desktop launch lacks the login shell's PATH: ask ``$SHELL -lic`` once (cached, with a
    timeout) and say clearly when a command is on neither PATH."""
    from foya_desktop.tools.mcp.shell_path import (
        CommandNotFound,
        login_shell_path,
        resolve_command,
        search_path,
    )
    bin_dir = tmp_path / "nvm-bin"
    bin_dir.mkdir()
    tool = bin_dir / "npx-like"
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(0o755)
    shell = tmp_path / "fake-login-shell"
    shell.write_text(f"#!/bin/bash\necho 'noise from an rc file'\nPATH={bin_dir}:$PATH\nexec /bin/bash -c \"$2\"\n")
    shell.chmod(0o755)
    assert login_shell_path(str(shell)).startswith(str(bin_dir))
    path = search_path({"PATH": "/usr/bin:/bin"}, str(shell))
    assert path.split(":")[:2] == ["/usr/bin", "/bin"] and str(bin_dir) in path
    assert resolve_command("npx-like", path, tmp_path) == str(tool)
    with pytest.raises(CommandNotFound, match="'nowhere-xyz' was not found on Foya's PATH nor on your login"):
        resolve_command("nowhere-xyz", path, tmp_path)
    slow = tmp_path / "slow-shell"
    slow.write_text("#!/bin/bash\nsleep 30\n")
    slow.chmod(0o755)
    assert login_shell_path(str(slow), timeout=0.5) == ""


def test_cwd_is_read_in_the_user_level_file_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A user-level entry may say where it starts (``start_place``); a project's ``cwd`` is ignored
    with a warning (trust does not cover it); a ``cwd`` that is no string is a sentence."""
    monkeypatch.setenv("FOYA_TEST_TOOLS", "/opt/tools")
    home, project = tmp_path / "home", tmp_path / "repo"
    _write(user_config_path(home), {"mcpServers": {"mine": {"command": "srv", "cwd": "${FOYA_TEST_TOOLS}/a"},
                                                   "bad": {"command": "srv", "cwd": 3}}})
    _write(project_config_path(project), {"mcpServers": {"theirs": {"command": "srv", "cwd": "/tmp"}}})
    by_name = {s.name: s for s in configured_servers(home, project).servers}
    assert by_name["mine"].cwd == "${FOYA_TEST_TOOLS}/a" and expand_server(by_name["mine"]).cwd == "/opt/tools/a"
    assert by_name["theirs"].cwd == "" and by_name["theirs"].problem is None
    assert by_name["theirs"].warnings == (
        "\"cwd\" is ignored in a project's .mcp.json: its servers start in the project folder",)
    assert by_name["bad"].problem == f"\"cwd\" should be a folder's path (server 'bad' in {home / 'mcp.json'})."
