"""MCP servers end to end: real FastMCP servers (stdio and streamable HTTP), a real kernel.

Covers issue 13 "MCP client": trust before start, tools as ``mcp__<server>__<tool>``
through the shared approval policy, per-call timeout, a crash and a restart, a
server that fails to start, idle stop, stop at quit, deferred schemas.
Seed ids: Y-WORKDIR (MCP discovery rooted at the workdir), S1-APPROVAL (approvals the
person controls).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from foya_desktop.core.events import ApprovalRequested, MessageAdded, Notice
from foya_desktop.core.messages import ToolResultPart
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.mcp import trust
from foya_desktop.engine.mcp.servers import SCHEMA_TOOL, McpServers
from foya_desktop.store.catalog import project_rules
from foya_desktop.store.home import Home
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.mcp.config import project_config_path, user_config_path
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns
from tests.mcp.conftest import await_gone, processes_with, stdio_entry, write_config


def _mcp(kernel: Kernel) -> McpServers:
    assert kernel.svc.mcp is not None
    return kernel.svc.mcp


async def _session(kernel: Kernel, project: Path, mode: ApprovalMode = ApprovalMode.ASK) -> Session:
    return await kernel.sessions.create_session(title="mcp", workdir=str(project), connection="fake",
                                       approval_mode=mode)


async def _trust_all(kernel: Kernel, session: Session) -> None:
    assert session.project_id is not None
    listing = await trust.listing_for(kernel.store, session.workdir)
    report = await trust.trust_report(kernel.store, session.project_id, listing)
    await trust.trust(kernel.store, session.project_id, [t for t in report if t.server.scope == "project"])


def _results(rec: Recorder, session_id: str) -> list[ToolResultPart]:
    return [p for e in rec.of(MessageAdded) if isinstance(e, MessageAdded) and e.session_id == session_id
            for p in e.message.parts if isinstance(p, ToolResultPart)]


async def test_untrusted_project_server_does_not_start_and_says_how(kernel: Kernel, rec: Recorder,
                                                                    project: Path, tag: str) -> None:
    """Project servers start only after trust; the session is told how to trust them."""
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    session = await _session(kernel, project)
    await _mcp(kernel).prepare(session)
    assert _mcp(kernel).tools_for(session) == {}
    assert processes_with(tag) == []
    notices = [e for e in rec.of(Notice) if isinstance(e, Notice)]
    assert len(notices) == 1 and "not trusted" in notices[0].text
    assert f"foya projects trust {project}" in notices[0].text and sys_exe_in(notices[0].text)
    status = await _mcp(kernel).overview(session.project_id, session.workdir)
    assert [(s.name, s.trust, s.state) for s in status] == [("fake", "untrusted", "waiting for trust")]


def sys_exe_in(text: str) -> bool:
    import sys
    return sys.executable in text


async def test_trusted_stdio_server_tools_through_the_approval_policy(
        kernel: Kernel, rec: Recorder, fake: FakeProviderServer, project: Path, tag: str) -> None:
    """mcp__fake__echo asks in ask mode; "Always for this project" is a rule for that one tool;
    a readOnly hint never lets through a path outside the project."""
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    await _mcp(kernel).prepare(session)
    names = set(_mcp(kernel).tools_for(session))
    assert {"mcp__fake__echo", "mcp__fake__slow", "mcp__fake__crash", "mcp__fake__write_note"} <= names
    kernel.asks.set_interactive(True)
    fake.script(Reply(tool_calls=[ToolCallSpec("mcp__fake__echo", {"text": "hi"}, id="c1")]),
                 Reply(text="done"))
    await kernel.turns.send(session.id, "echo please")
    await wait_for(lambda: bool(rec.of(ApprovalRequested)))
    asked = rec.of(ApprovalRequested)[0]
    assert isinstance(asked, ApprovalRequested) and asked.tool == "mcp__fake__echo" and asked.can_always
    kernel.asks.answer_approval(asked.request_id, "always")
    await wait_turns(rec, session.id, 1)
    assert [r.content for r in _results(rec, session.id)] == ["echo: hi"]
    assert session.project_id is not None
    assert "mcp:mcp__fake__echo" in await kernel.store.read(project_rules, session.project_id)
    # The rule covers that tool only: write_note still asks, echo no longer does.
    fake.script(Reply(tool_calls=[ToolCallSpec("mcp__fake__echo", {"text": "again"}, id="c2"),
                                   ToolCallSpec("mcp__fake__write_note", {"text": "x"}, id="c3")]),
                 Reply(text="done"))
    await kernel.turns.send(session.id, "twice")
    await wait_for(lambda: len(rec.of(ApprovalRequested)) == 2)
    second = rec.of(ApprovalRequested)[1]
    assert isinstance(second, ApprovalRequested) and second.tool == "mcp__fake__write_note"
    kernel.asks.answer_approval(second.request_id, "once")
    await wait_turns(rec, session.id, 2)
    assert [r.content for r in _results(rec, session.id)][1:] == ["echo: again", "noted x"]


async def test_read_only_hint_lowers_friction_but_not_for_outside_paths(
        kernel: Kernel, rec: Recorder, fake: FakeProviderServer, project: Path, tag: str) -> None:
    """In auto-edit mode a read-only, closed-world tool runs without asking; the same tool
    with a path outside the project asks; a tool without hints asks."""
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    session = await _session(kernel, project, ApprovalMode.AUTO_EDIT)
    await _trust_all(kernel, session)
    kernel.asks.set_interactive(True)
    fake.script(Reply(tool_calls=[ToolCallSpec("mcp__fake__read_path", {"path": "src/app.py"}, id="r1"),
                                   ToolCallSpec("mcp__fake__read_path", {"path": "/etc/passwd"}, id="r2")]),
                 Reply(text="done"))
    await kernel.turns.send(session.id, "read")
    await wait_for(lambda: bool(rec.of(ApprovalRequested)))
    asked = rec.of(ApprovalRequested)[0]
    assert isinstance(asked, ApprovalRequested) and asked.arguments == {"path": "/etc/passwd"}
    assert "outside the project" in asked.reason and not asked.can_always
    kernel.asks.answer_approval(asked.request_id, "deny", "no")
    await wait_turns(rec, session.id, 1)
    results = _results(rec, session.id)
    assert results[0].content == "read src/app.py" and not results[0].is_error
    assert results[1].is_error and "rejected" in results[1].content


async def test_streamable_http_server_and_secret_header_from_env(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, http_server: str,
        monkeypatch: object) -> None:
    """A type "http" server: trust lists its URL, its tools run, headers come from ${VAR}."""
    import pytest
    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    monkeypatch.setenv("FOYA_TEST_MCP_TOKEN", "tok")
    write_config(project_config_path(project), {"web": {
        "type": "http", "url": http_server, "headers": {"Authorization": "Bearer ${FOYA_TEST_MCP_TOKEN}"}}})
    session = await _session(kernel, project, ApprovalMode.AUTO)
    report = await trust.trust_report(kernel.store, session.project_id,
                                      await trust.listing_for(kernel.store, session.workdir))
    assert [r.target for r in report] == [f"http {http_server}"]
    await _trust_all(kernel, session)
    await _mcp(kernel).prepare(session)
    tools = _mcp(kernel).tools_for(session)
    assert "mcp__web__echo" in tools
    out = await tools["mcp__web__echo"].run({"text": "over http"}, _ctx(project))
    assert out.content == "echo: over http" and not out.is_error
    seen = await tools["mcp__web__authorization"].run({}, _ctx(project))
    assert seen.content == "authorization: Bearer tok"  # the server really received the expanded header


async def test_sse_server_and_secret_header_from_the_keyring(
        kernel: Kernel, home: Home, project: Path, sse_server: str) -> None:
    """A type "sse" server against a real SSE endpoint; ``${keyring:NAME}`` headers are resolved
    from the keyring when connecting (never written to the config or the database), and a missing
    secret is a sentence naming the command that stores it."""
    write_config(project_config_path(project), {"old": {
        "type": "sse", "url": sse_server, "headers": {"Authorization": "Bearer ${keyring:old-token}"}}})
    session = await _session(kernel, project, ApprovalMode.AUTO)
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    status = await mcp.overview(session.project_id, session.workdir)
    assert status[0].state == "failed"
    assert "old-token" in status[0].error and "foya mcp secret old-token" in status[0].error
    await kernel.mcp.set_secret("old-token", "s3cret")
    assert session.project_id is not None
    restarted = await mcp.restart(session.project_id, session.workdir, "project", "old")
    assert restarted is not None and restarted.state == "running", restarted
    tools = mcp.tools_for(session)
    out = await tools["mcp__old__echo"].run({"text": "over sse"}, _ctx(project))
    assert out.content == "echo: over sse" and not out.is_error
    seen = await tools["mcp__old__authorization"].run({}, _ctx(project))
    assert seen.content == "authorization: Bearer s3cret"
    assert "s3cret" not in project_config_path(project).read_text(encoding="utf-8")
    assert b"s3cret" not in home.database.read_bytes()


def _ctx(project: Path) -> ToolContext:
    return ToolContext(session_id="s", workdir=project, data_dir=project / ".data")


async def test_timeout_crash_and_restart(kernel: Kernel, project: Path, tag: str) -> None:
    """A call past the per-call timeout is an error; a crash is an error with the server's
    stderr, visible in the overview; restart brings it back."""
    entry = {**stdio_entry(tag), "timeout": 1}
    write_config(project_config_path(project), {"fake": entry})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    tools = mcp.tools_for(session)
    slow = await tools["mcp__fake__slow"].run({"seconds": 30}, _ctx(project))
    assert slow.is_error and "within 1 s" in slow.content
    ok = await tools["mcp__fake__echo"].run({"text": "still here"}, _ctx(project))
    assert ok.content == "echo: still here"
    crashed = await tools["mcp__fake__crash"].run({}, _ctx(project))
    assert crashed.is_error and "not available" in crashed.content
    assert "crashing on purpose" in crashed.content
    after = await tools["mcp__fake__echo"].run({"text": "x"}, _ctx(project))
    assert after.is_error and "restart it" in after.content
    status = await mcp.overview(session.project_id, session.workdir)
    assert status[0].state == "failed" and "crashing on purpose" in status[0].error
    assert SCHEMA_TOOL in mcp.tools_for(session)  # the model is told which server failed
    assert session.project_id is not None
    restarted = await mcp.restart(session.project_id, session.workdir, "project", "fake")
    assert restarted is not None and restarted.state == "running"
    tools = mcp.tools_for(session)
    again = await tools["mcp__fake__echo"].run({"text": "back"}, _ctx(project))
    assert again.content == "echo: back"


async def test_server_stderr_goes_to_the_log(kernel: Kernel, project: Path, tag: str,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """Each stderr line of a server is a log record of ``foya_desktop.mcp.<server>``."""
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    with caplog.at_level(logging.INFO, logger="foya_desktop.mcp"):
        await _mcp(kernel).prepare(session)
        crashed = await _mcp(kernel).tools_for(session)["mcp__fake__crash"].run({}, _ctx(project))
        assert crashed.is_error
        await wait_for(lambda: any("crashing on purpose" in r.getMessage() for r in caplog.records))
    lines = [r for r in caplog.records if r.name.startswith("foya_desktop.mcp.")]
    assert any("fake-mcp starting (stdio)" in r.getMessage() for r in lines)


async def test_server_that_fails_to_start_and_command_not_found(kernel: Kernel, project: Path,
                                                                tag: str) -> None:
    write_config(project_config_path(project), {
        "bad": stdio_entry(tag, mode="bad"),
        "missing": {"command": "foya-no-such-command-xyz"}})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    await _mcp(kernel).prepare(session)
    status = {s.name: s for s in await _mcp(kernel).overview(session.project_id, session.workdir)}
    assert status["bad"].state == "failed" and "cannot open the database" in status["bad"].error
    assert status["missing"].state == "failed"
    assert "'foya-no-such-command-xyz' was not found" in status["missing"].error
    assert "login shell" in status["missing"].error
    schema_tool = _mcp(kernel).tools_for(session)[SCHEMA_TOOL]
    assert "bad is not available" in schema_tool.description


async def test_changed_command_needs_trust_again_and_revoke_stops(kernel: Kernel, rec: Recorder,
                                                                  project: Path, tag: str) -> None:
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    assert mcp.tools_for(session)
    write_config(project_config_path(project), {"fake": stdio_entry(tag, "--changed")})
    await mcp.prepare(session)
    assert mcp.tools_for(session) == {}
    assert await await_gone(tag) == []
    status = await mcp.overview(session.project_id, session.workdir)
    assert status[0].trust == "changed"
    await _trust_all(kernel, session)
    await mcp.prepare(session)
    assert mcp.tools_for(session)
    assert session.project_id is not None
    assert await trust.revoke(kernel.store, session.project_id) == 1
    await mcp.prepare(session)
    assert mcp.tools_for(session) == {} and await await_gone(tag) == []


async def test_user_level_servers_need_no_trust_and_are_listed_apart(kernel: Kernel, project: Path,
                                                                     tag: str) -> None:
    write_config(user_config_path(kernel.store.home.root), {"mine": stdio_entry(tag)})
    session = await _session(kernel, project)
    await _mcp(kernel).prepare(session)
    assert "mcp__mine__echo" in _mcp(kernel).tools_for(session)
    status = await _mcp(kernel).overview(session.project_id, session.workdir)
    assert [(s.scope, s.trust, s.state) for s in status] == [("user", "user", "running")]


async def test_idle_stop_and_quit_leave_no_process(kernel: Kernel, project: Path, tag: str) -> None:
    """Idle servers stop (and start again on the next request); at quit nothing is left."""
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session)
    assert processes_with(tag)
    mcp.idle_stop_s = 0
    assert await mcp.stop_idle() == 1
    assert await await_gone(tag) == []
    tool = mcp.tools_for(session)["mcp__fake__echo"]
    out = await tool.run({"text": "woken"}, _ctx(project))
    assert out.content == "echo: woken" and processes_with(tag)
    await mcp.close()  # what Kernel.close (quit) does
    assert await await_gone(tag) == []


async def test_large_schemas_are_deferred_and_loaded_on_use(kernel: Kernel, project: Path, tag: str) -> None:
    """Schemas above the stated share of the context window are listed by name, loaded on use."""
    write_config(project_config_path(project), {"big": stdio_entry(tag, "--big")})
    session = await _session(kernel, project)
    await _trust_all(kernel, session)
    mcp = _mcp(kernel)
    await mcp.prepare(session, context_window=8_000)
    deferred = mcp.deferred_for(session)
    assert "mcp__big__bulk_3" in deferred
    vp = (await kernel.vps.list_vps())[0]
    specs = {s.name for s in kernel.svc.tools.specs_for(session, vp)}
    assert "mcp__big__bulk_3" not in specs and SCHEMA_TOOL in specs
    loader = mcp.tools_for(session)[SCHEMA_TOOL]
    assert "mcp__big__bulk_3" in loader.description
    out = await loader.run({"tool": "mcp__big__bulk_3"}, _ctx(project))
    assert json.loads(out.content.splitlines()[0])["name"] == "mcp__big__bulk_3"
    specs = {s.name for s in kernel.svc.tools.specs_for(session, vp)}
    assert "mcp__big__bulk_3" in specs and "mcp__big__bulk_4" not in specs
    await mcp.prepare(session, context_window=10_000_000)
    assert mcp.deferred_for(session) == set()


KILLED_APP = """
import asyncio, sys
from pathlib import Path
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.store.home import Home

async def main() -> None:
    kernel = build_kernel(Home(Path(sys.argv[1])))
    session = await kernel.sessions.create_session(workdir=sys.argv[2])
    assert kernel.svc.mcp is not None
    await kernel.svc.mcp.prepare(session)
    print("started", kernel.svc.mcp.tools_for(session) != {}, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_servers_never_outlive_a_killed_app(tmp_path: Path, project: Path, tag: str) -> None:
    """SIGKILL of the Foya process still ends its stdio servers (exec wrapper, parent-death signal)."""
    import asyncio
    import signal
    import sys

    from tests.mcp.conftest import ROOT
    (tmp_path / "home").mkdir()
    write_config(user_config_path(tmp_path / "home"), {"fake": stdio_entry(tag)})
    app = await asyncio.create_subprocess_exec(
        sys.executable, "-c", KILLED_APP, str(tmp_path / "home"), str(project), cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert app.stdout is not None
    line = await asyncio.wait_for(app.stdout.readline(), 60)
    assert line.strip() == b"started True"
    assert processes_with(tag)
    app.send_signal(signal.SIGKILL)
    await app.wait()
    assert await await_gone(tag) == []
