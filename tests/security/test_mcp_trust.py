"""MCP trust covers what a project server runs and sends, and keeps ``${VAR}`` unexpanded.

Attacks reproduced end to end (``foya run`` in-process with the fake provider, real stdio
servers, a real HTTP listener on 127.0.0.1), judged by effects: a marker file the server
writes when it starts, the bytes a listener received, the bytes of Foya's data folder.

- a trusted server's script edited after trust (a ``git pull``) does not start in the next
  session, even a read-only one; the listing shows the diff; trusting again starts it;
- a changed env value (``PYTHONPATH`` to a project folder with a ``sitecustomize.py``) or
  header value (``${SECRET}``) is a changed server: nothing starts, nothing is sent;
- the first trust lists headers and env as written;
- a trusted server's environment is minimal plus exactly what its entry names;
- ``write_file`` on a file a trusted server runs asks in auto mode (refused by ``foya run``);
- ``${VAR}`` is stored and listed unexpanded; older trusts never match.
"""

from __future__ import annotations

import http.server
import os
import shutil
import socketserver
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import ApprovalRequested
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.mcp import trust
from foya_desktop.engine.mcp.servers import McpServers
from foya_desktop.store.home import Home
from foya_desktop.store.store import Store
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.mcp.config import project_config_path
from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns
from tests.mcp.conftest import ROOT, marker_lines, marker_server, stdio_entry, tag, wait_gone, write_config
from tests.store.fixtures.make_fixture import fixture_dir

__all__ = ["tag"]


@pytest.fixture
def foya(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Foya:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    return Foya(capsys)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    return folder


@pytest.fixture
def provider(foya: Foya) -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as server:
        assert foya("connections", "add", "fake", "--kind", "openai", "--base-url", server.base_url,
                    "--model", "fake-model")[0] == 0
        yield server


def _run(foya: Foya, provider: FakeProviderServer, repo: Path, *flags: str) -> tuple[int, str, str]:
    provider.script(Reply(text="done"))
    return foya("run", "--project", str(repo), *flags, "hello")


def test_script_edited_after_trust_does_not_start_in_the_next_session(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str) -> None:
    """The attacker's report: a trusted server's script changed (a git pull) started unconfined in
    the next session, even a read-only one. Now its hash is part of the trust."""
    marker = tmp_path / "marker.jsonl"
    write_config(project_config_path(repo), {"srv": marker_server(repo, marker, tag)})
    code, out, err = foya("projects", "trust", str(repo), "--yes")
    assert code == 0, err
    assert "runs server.py (sha256 " in out
    code, _, err = _run(foya, provider, repo)
    assert code == 0, err
    assert [m["version"] for m in marker_lines(marker)] == ["v1"]
    assert wait_gone(tag) == []

    (repo / "server.py").write_text((repo / "server.py").read_text().replace("'v1'", "'v2-evil'"))
    code, _, err = _run(foya, provider, repo, "--approval", "read_only")
    assert code == 0, err
    assert [m["version"] for m in marker_lines(marker)] == ["v1"]  # the edited script never ran
    assert "not trusted" in err and "changed since you trusted it" in err
    code, out, _ = foya("mcp", "list", str(repo))
    assert "[changed, waiting for trust]" in out
    assert "-VERSION = 'v1'" in out and "+VERSION = 'v2-evil'" in out  # the diff of what changed

    code, out, err = foya("projects", "trust", str(repo), "--yes")  # the person reviewed it: trust again
    assert code == 0 and "+VERSION = 'v2-evil'" in out, err
    _run(foya, provider, repo)
    assert [m["version"] for m in marker_lines(marker)] == ["v1", "v2-evil"]
    assert wait_gone(tag) == []


def test_trusted_server_gets_a_minimal_environment_plus_what_it_names(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Foya's credential variables (a connection key, a cloud secret) never reach a server unless
    its entry names them; the base (PATH, HOME, the locale) does."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-openai-env-0001")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "canary-aws-0002")
    monkeypatch.setenv("FOYA_TEST_NAMED", "named-value")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    marker = tmp_path / "marker.jsonl"
    write_config(project_config_path(repo), {"srv": marker_server(
        repo, marker, tag, env={"FOYA_TEST_NAMED": "${FOYA_TEST_NAMED}", "LITERAL": "as-written"})})
    assert foya("projects", "trust", str(repo), "--yes")[0] == 0
    _run(foya, provider, repo)
    (start,) = marker_lines(marker)
    env = start["env"]
    assert isinstance(env, dict)
    assert "OPENAI_API_KEY" not in env and "AWS_SECRET_ACCESS_KEY" not in env
    assert env["FOYA_TEST_NAMED"] == "named-value" and env["LITERAL"] == "as-written"
    assert env["HOME"] == os.environ["HOME"] and env["PATH"] and env["LC_ALL"] == "C.UTF-8"
    allowed = {"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "TZ", "LANG", "LANGUAGE",
               "PYTHONPATH", "FOYA_TEST_MARKER", "FOYA_TEST_NAMED", "LITERAL"}
    assert {k for k in env if not k.startswith("LC_")} <= allowed, sorted(env)
    # named in the entry, a credential does reach it (and the person saw that name at trust)
    write_config(project_config_path(repo), {"srv": marker_server(
        repo, marker, tag, env={"OPENAI_API_KEY": "${OPENAI_API_KEY}"})})
    _, out, _ = foya("projects", "trust", str(repo), "--yes")
    assert "env OPENAI_API_KEY=${OPENAI_API_KEY}" in out and "sk-canary" not in out
    _run(foya, provider, repo)
    last = marker_lines(marker)[-1]["env"]
    assert isinstance(last, dict) and last["OPENAI_API_KEY"] == "sk-canary-openai-env-0001"
    assert wait_gone(tag) == []


def test_write_file_on_a_trusted_servers_script_asks_in_auto_mode(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str) -> None:
    """The model in an auto turn cannot rewrite what a trusted server runs: the write asks, and
    ``foya run`` (nobody to answer) refuses it. Other files are written as auto mode allows."""
    marker = tmp_path / "marker.jsonl"
    write_config(project_config_path(repo), {"srv": marker_server(repo, marker, tag)})
    assert foya("projects", "trust", str(repo), "--yes")[0] == 0
    before = (repo / "server.py").read_bytes()
    provider.script(Reply(tool_calls=[
        ToolCallSpec("write_file", {"path": "server.py", "content": "print('pwned')\n"}, id="w1"),
        ToolCallSpec("edit_file", {"path": "server.py", "old_string": "'v1'", "new_string": "'x'"}, id="w2"),
        ToolCallSpec("write_file", {"path": "notes.md", "content": "fine\n"}, id="w3")]), Reply(text="ok"))
    code, _, err = foya("run", "--project", str(repo), "--approval", "auto", "rewrite the server")
    assert code == 0, err
    assert (repo / "server.py").read_bytes() == before
    assert (repo / "notes.md").read_text() == "fine\n"
    results = [m for m in provider.requests[-1].body["messages"] if m.get("role") == "tool"]
    assert len(results) == 3 and "Wrote" not in str(results[0]) and "Edited" not in str(results[1])
    assert wait_gone(tag) == []


async def test_write_file_on_a_run_file_asks_the_person_in_auto_mode(
        kernel: Kernel, rec: Recorder, fake: FakeProviderServer, tmp_path: Path, tag: str) -> None:
    """The ask names the server, offers no standing rule, and a denial leaves the file as it was."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "helpers.py").write_text("X = 1\n")  # a neighbour of the script: run too
    write_config(project_config_path(repo), {"srv": marker_server(repo, tmp_path / "m.jsonl", tag)})
    session = await kernel.sessions.create_session(title="t", workdir=str(repo), connection="fake",
                                                   approval_mode=ApprovalMode.AUTO)
    await _trust_all(kernel, session)
    kernel.asks.set_interactive(True)
    fake.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "helpers.py", "content": "X = 2\n"})]),
                Reply(text="ok"))
    await kernel.turns.send(session.id, "change the helper")
    await wait_for(lambda: bool(rec.of(ApprovalRequested)))
    asked = rec.of(ApprovalRequested)[0]
    assert isinstance(asked, ApprovalRequested) and asked.reason_code == "runs_trusted_file"
    assert asked.reason_params == {"path": "helpers.py", "servers": "srv"} and not asked.can_always
    kernel.asks.answer_approval(asked.request_id, "deny", "no")
    await wait_turns(rec, session.id, 1)
    assert (repo / "helpers.py").read_text() == "X = 1\n"


async def test_changed_env_value_is_untrusted_and_nothing_starts(
        kernel: Kernel, tmp_path: Path, tag: str) -> None:
    """PYTHONPATH pointed at a project folder with a sitecustomize.py (only names were fingerprinted)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    marker = tmp_path / "site.txt"
    write_config(project_config_path(repo), {"fake": stdio_entry(tag)})
    session = await kernel.sessions.create_session(title="t", workdir=str(repo), connection="fake")
    assert session.project_id is not None
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    assert mcp.tools_for(session)
    (repo / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    entry = stdio_entry(tag)
    entry["env"] = {"PYTHONPATH": f"{repo}{os.pathsep}{ROOT}"}
    write_config(project_config_path(repo), {"fake": entry})
    await mcp.stop_project(session.project_id)  # as a next session would find it
    await mcp.prepare(session)
    assert mcp.tools_for(session) == {} and not marker.exists()
    (status,) = await mcp.overview(session.project_id, session.workdir)
    assert status.trust == "changed" and status.state == "waiting for trust"
    env, added = status.changes  # the value, and the file that folder now makes Python run
    assert (env.what, env.name, env.before, env.after) == ("env", "PYTHONPATH", str(ROOT),
                                                            f"{repo}{os.pathsep}{ROOT}")
    assert (added.what, added.name, added.before) == ("file", "sitecustomize.py", None)
    assert "+open(" in added.diff


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def _any(self) -> None:
        type(self).seen.append(str(self.headers))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_DELETE = _any

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on 127.0.0.1 that records every request's headers."""
    seen: list[str] = []
    handler = type("Handler", (_Recorder,), {"seen": seen})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp", seen
    finally:
        server.shutdown()
        server.server_close()


async def test_changed_header_value_is_untrusted_and_the_secret_is_never_sent(
        kernel: Kernel, tmp_path: Path, listener: tuple[str, list[str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    url, seen = listener
    monkeypatch.setenv("FOYA_TEST_AWS_SECRET", "canary-header-secret-0003")
    repo = tmp_path / "repo"
    repo.mkdir()
    write_config(project_config_path(repo), {"web": {"type": "http", "url": url, "headers": {"X-Note": "hello"}}})
    session = await kernel.sessions.create_session(title="t", workdir=str(repo), connection="fake")
    assert session.project_id is not None
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    assert any("X-Note: hello" in h for h in seen)  # the listener does receive what a trusted server sends
    write_config(project_config_path(repo), {"web": {"type": "http", "url": url,
                                                     "headers": {"X-Note": "${FOYA_TEST_AWS_SECRET}"}}})
    await mcp.stop_project(session.project_id)
    count = len(seen)
    await mcp.prepare(session)
    assert len(seen) == count and not any("canary-header-secret" in h for h in seen)
    (status,) = await mcp.overview(session.project_id, session.workdir)
    assert status.trust == "changed"
    assert [(c.what, c.name, c.before, c.after) for c in status.changes] == [
        ("header", "X-Note", "hello", "${FOYA_TEST_AWS_SECRET}")]


def test_first_trust_lists_headers_and_env_as_written(
        foya: Foya, repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Trusting an http server sends its headers: the listing shows them (and which variables they read)."""
    monkeypatch.setenv("FOYA_TEST_GH_TOKEN", "ghp-canary-0004")
    write_config(project_config_path(repo), {"gh": {"type": "http", "url": "http://127.0.0.1:9/mcp",
                                                    "headers": {"Authorization": "Bearer ${FOYA_TEST_GH_TOKEN}"}}})
    assert foya("vps", "list")[0] == 0
    code, out, _ = foya("mcp", "list", str(repo))
    assert code == 0 and "header Authorization: Bearer ${FOYA_TEST_GH_TOKEN}" in out
    code, out, err = foya("projects", "trust", str(repo), "--yes")
    assert code == 0, err
    assert "gh: http http://127.0.0.1:9/mcp" in out
    assert "header Authorization: Bearer ${FOYA_TEST_GH_TOKEN}" in out
    assert "reads from your environment when it starts: FOYA_TEST_GH_TOKEN" in out
    assert "ghp-canary" not in out


def test_variables_stay_unexpanded_in_the_database_and_listings(
        foya: Foya, provider: FakeProviderServer, repo: Path, tmp_path: Path, tag: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``${OPENAI_API_KEY}``-style arguments were printed and stored expanded."""
    monkeypatch.setenv("FOYA_TEST_AT_REST", "sk-canary-at-rest-0005")
    entry = stdio_entry(tag, "--key=${FOYA_TEST_AT_REST}")
    write_config(project_config_path(repo), {"fake": entry})
    code, out, err = foya("projects", "trust", str(repo), "--yes")
    assert code == 0 and "--key=${FOYA_TEST_AT_REST}" in out, err
    code, _, err = _run(foya, provider, repo)
    assert code == 0, err
    code, out, _ = foya("mcp", "list", str(repo))
    assert "--key=${FOYA_TEST_AT_REST}" in out and "[trusted, not started]" in out
    code, out, _ = foya("mcp", "list", str(repo), "--json")
    assert "${FOYA_TEST_AT_REST}" in out
    assert "sk-canary-at-rest" not in out + err
    home = tmp_path / "home"
    leaked = [p for p in home.rglob("*") if p.is_file() and b"sk-canary-at-rest" in p.read_bytes()]
    assert leaked == []
    database = home / "foya.sqlite3"
    assert database.exists() and b"${FOYA_TEST_AT_REST}" in database.read_bytes() + _wal(database)
    assert wait_gone(tag) == []


def _wal(database: Path) -> bytes:
    wal = database.with_name(database.name + "-wal")
    return wal.read_bytes() if wal.exists() else b""


async def test_a_trust_recorded_by_an_older_foya_does_not_stay_trusted(tmp_path: Path) -> None:
    """Schema 10 fingerprinted the expanded command line only: such a row never matches now, and its
    expanded target (which could hold a secret) is blanked by the migration."""
    root = tmp_path / "home"
    shutil.copytree(fixture_dir(10), root)
    con = sqlite3.connect(root / "foya.sqlite3")
    project_id, = con.execute("SELECT project_id FROM mcp_trust_row WHERE server = 'files'").fetchone()
    con.execute("UPDATE mcp_trust_row SET target = 'npx server --key sk-canary-old-0006'")
    con.commit()
    con.close()
    store = Store(Home(root))
    try:
        repo = tmp_path / "repo"
        repo.mkdir()
        write_config(project_config_path(repo), {"files": {"command": "npx", "args": ["server"]}})
        report = await trust.trust_report(store, project_id, await trust.listing_for(store, str(repo)))
        (files,) = [t for t in report if t.server.scope == "project"]
        assert files.state == "changed" and [c.what for c in files.changes] == ["older"]
    finally:
        await store.close()
    con = sqlite3.connect(root / "foya.sqlite3")
    assert con.execute("SELECT target, spec FROM mcp_trust_row").fetchall() == [("", "")]
    con.close()
    database = root / "foya.sqlite3"  # gone from the file itself (the pre-migration backup keeps it)
    assert b"sk-canary-old-0006" not in database.read_bytes() + _wal(database)


def _mcp(kernel: Kernel) -> McpServers:
    assert kernel.svc.mcp is not None
    return kernel.svc.mcp


async def _trust_all(kernel: Kernel, session: Session) -> None:
    assert session.project_id is not None
    await kernel.mcp.trust(session.project_id)


async def test_a_server_stopped_while_idle_is_checked_again_before_a_call_restarts_it(
        kernel: Kernel, tmp_path: Path, tag: str) -> None:
    """An idle server started again on its next tool call: the edited script must not run then either."""
    repo = tmp_path / "repo"
    repo.mkdir()
    marker = tmp_path / "marker.jsonl"
    write_config(project_config_path(repo), {"srv": marker_server(repo, marker, tag)})
    session = await kernel.sessions.create_session(title="t", workdir=str(repo), connection="fake")
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    tool = mcp.tools_for(session)["mcp__srv__echo"]
    mcp.idle_stop_s = 0
    assert await mcp.stop_idle() == 1
    (repo / "server.py").write_text((repo / "server.py").read_text().replace("'v1'", "'v2-evil'"))
    out = await tool.run({"text": "wake up"}, ToolContext(session_id=session.id, workdir=repo,
                                                          data_dir=tmp_path / "data"))
    assert out.is_error and "was not started again" in out.content
    assert [m["version"] for m in marker_lines(marker)] == ["v1"]


async def test_trust_records_only_what_the_prompt_showed(kernel: Kernel, tmp_path: Path, tag: str) -> None:
    """A server that changed between the prompt and *Trust* is refused, never trusted unseen."""
    repo = tmp_path / "repo"
    repo.mkdir()
    write_config(project_config_path(repo), {"srv": marker_server(repo, tmp_path / "m.jsonl", tag)})
    session = await kernel.sessions.create_session(title="t", workdir=str(repo), connection="fake")
    assert session.project_id is not None
    (shown,) = [r for r in await kernel.mcp.overview(session.project_id) if r.scope == "project"]
    (repo / "server.py").write_text("print('swapped in after the prompt opened')\n")
    with pytest.raises(InvalidOperation, match="changed while you were reviewing"):
        await kernel.mcp.trust(session.project_id, ["srv"], {"srv": shown.fingerprint})
    (now,) = [r for r in await kernel.mcp.overview(session.project_id) if r.scope == "project"]
    assert now.trust == "untrusted"
    await kernel.mcp.trust(session.project_id, ["srv"], {"srv": now.fingerprint})
    assert (await kernel.mcp.trust_report(session.project_id))[0].state == "trusted"
