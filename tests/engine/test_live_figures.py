"""Live figures end with their turn (Yeaft seed Y46) and old turns say their detail is missing (Y44).

Real kernel, real SQLite, real HTTP to the fake provider. Whatever ends a turn
— it completes, the provider cuts the stream mid-way, the person stops it —
every VP's last status event is a final state, none follows the turn's end,
and the store-derived figures say "last turn", not "running". A crash leaves
the session's phase behind: that is an interrupted turn, not a running one,
and recovery at the next start makes it a finished one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from foya_desktop.core.events import Event, PartDelta, TurnFinished, VPStatus
from foya_desktop.core.figures import NO_TOOL_DETAIL, FigureCounter
from foya_desktop.core.ids import now_ms
from foya_desktop.core.model import ApprovalMode, Connection, Phase, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.status import turn_status
from foya_desktop.store import sessions
from foya_desktop.store.home import Home
from foya_desktop.store.schema import ClaimRow, LeaseRow
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns

FIXTURES = Path(__file__).resolve().parents[1] / "store" / "fixtures"


def _after_finish(events: list[Event], session_id: str) -> tuple[list[VPStatus], list[VPStatus]]:
    """The session's status events before and after its turn's ``TurnFinished``."""
    (end,) = [i for i, e in enumerate(events) if isinstance(e, TurnFinished) and e.session_id == session_id]
    statuses = [(i, e) for i, e in enumerate(events) if isinstance(e, VPStatus) and e.session_id == session_id]
    return [e for i, e in statuses if i < end], [e for i, e in statuses if i > end]


@pytest.mark.parametrize("ending", ["completed", "connection_dropped", "stopped"])
async def test_every_ending_leaves_no_live_figures(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                                   project: Path, ending: str) -> None:
    """Y46: the last status of the VP is final and comes before the turn's end; nothing after it."""
    slow = Reply(text="a long answer that streams slowly " * 8, chunk_size=4, delay_per_chunk=0.02,
                 usage=(500, 40))
    first = Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], usage=(100, 7))
    if ending == "connection_dropped":
        fake.script(first, Reply(text="the stream is cut in the middle " * 4, chunk_size=4,
                                 fault=Fault.cut(after_chunks=5)))
    else:
        fake.script(first, slow)
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(s.id, "go")
    if ending == "stopped":
        await wait_for(lambda: sum(isinstance(e, PartDelta) for e in rec.events) > 3)
        await kernel.turns.stop(s.id)
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == {"completed": "completed", "connection_dropped": "error", "stopped": "stopped"}[ending]
    before, after = _after_finish(rec.events, s.id)
    assert not after, "no live figures once the turn has ended"
    assert before and before[-1].state == {"completed": "done", "connection_dropped": "error",
                                           "stopped": "stopped"}[ending]
    assert before[-1].figures.requests == 2 and before[-1].figures.executions == 1
    status = await turn_status(kernel.store, s.id)
    assert status is not None and not status.running and not status.interrupted
    assert kernel.turns.phase(s.id) == Phase.IDLE


async def _leave_as_a_crash_would(home: Home, kernel: Kernel, session_id: str) -> None:
    """The phase still says "turn" and the claim names a process that is gone (no lock file)."""
    def crash() -> None:
        sessions.set_phase(session_id, Phase.TURN)
        LeaseRow.insert(id="lease_dead", pid=999_999, start_time=1, kind="window", created_at=now_ms()).execute()
        ClaimRow.insert(session_id=session_id, lease_id="lease_dead", what="running a turn",
                        since=now_ms()).execute()
    await kernel.store.write(crash)
    assert not (home.run / "lease_dead.lock").exists()


async def test_a_crashed_turn_is_interrupted_not_running_and_recovery_finishes_it(
        home: Home, fake: FakeProviderServer) -> None:
    """Y46 after a crash: the leftover phase is not a running turn; a restart's recovery clears it."""
    fake.script(Reply(text="hello", usage=(321, 9)))
    kernel = build_kernel(home)
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model"))
    rec = Recorder()
    kernel.bus.subscribe(rec)
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    await wait_turns(rec, s.id, 1)
    await _leave_as_a_crash_would(home, kernel, s.id)
    status = await turn_status(kernel.store, s.id)
    assert status is not None and not status.running and status.interrupted
    assert status.vps[0][1].input_tokens == 321, "the recorded figures stay, labelled as not live"
    await kernel.close()
    again = build_kernel(home)
    try:
        status = await turn_status(again.store, s.id)
        assert status is not None and not status.running and not status.interrupted
        assert again.turns.phase(s.id) == Phase.IDLE
    finally:
        await again.close()


async def test_a_running_turn_is_running(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """The other side of the rule: while this process runs the turn, the figures are live."""
    fake.script(Reply(text="slowly " * 30, chunk_size=4, delay_per_chunk=0.03))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    await wait_for(lambda: any(isinstance(e, PartDelta) for e in rec.events))
    status = await turn_status(kernel.store, s.id)
    assert status is not None and status.running and not status.interrupted
    await wait_turns(rec, s.id, 1)


def test_a_call_without_a_recorded_outcome_counts_in_totals_not_per_tool() -> None:
    """Y44: the counter never invents a per-tool row for a call whose outcome is unknown."""
    c = FigureCounter()
    c.tool("read_file", "{}", blocked=False, failed=False, output="a", at=1)
    c.tool("write_file", "{}", blocked=False, failed=True, output="no", at=2, known=False)
    f = c.snapshot()
    assert (f.executions, f.failures, f.blocked) == (2, 1, 0)
    assert [t.name for t in f.tools] == ["read_file"] and not f.tool_detail
    assert FigureCounter().snapshot().tool_detail


async def test_new_results_record_their_outcome(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                                project: Path) -> None:
    """Every new tool result says whether its call ran, so its turn has the per-tool detail."""
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"}),
                                  ToolCallSpec("write_file", {"path": "x.txt", "content": "x"})]),
                Reply(text="ok"))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.READ_ONLY)
    await kernel.turns.send(s.id, "go")
    await wait_turns(rec, s.id, 1)
    results = [m for m in await kernel.history.history_page(s.id) if m.tool_result is not None]
    assert [m.meta["blocked"] for m in results] == [False, True]
    status = await turn_status(kernel.store, s.id)
    assert status is not None and status.vps[0][1].tool_detail


def _oldest_fixture(tmp_path: Path) -> Home:
    copy = tmp_path / "old-home"
    shutil.copytree(FIXTURES / "schema-1", copy)
    return Home(copy)


async def test_a_turn_recorded_by_an_older_foya_says_its_detail_is_not_available(tmp_path: Path) -> None:
    """Y44 "old agents": the schema-1 fixture's tool results carry no outcome; the figures say so."""
    home = _oldest_fixture(tmp_path)
    kernel = build_kernel(home)
    try:
        found = []
        for session in await kernel.sessions.list_sessions():
            status = await turn_status(kernel.store, session.id)
            if status is not None and any(f.executions + f.failures for _s, f in status.vps):
                found.append(status)
        assert found, "the fixture holds a turn with tool calls"
        for status in found:
            for _speaker, f in status.vps:
                if f.executions + f.failures:
                    assert not f.tool_detail and f.tools == ()
    finally:
        await kernel.close()
    assert "not available" in NO_TOOL_DETAIL
