"""The status line's figures on the real kernel (Yeaft seed Y41-Y46).

Blocked calls are failures, not executions; unreported tokens are "not
provided"; at most 128 tool kinds with totals covering all; the figures of a
finished turn rebuilt from the store equal the live ones.
"""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.events import VPStatus
from foya_desktop.core.figures import MAX_TOOL_KINDS, FigureCounter, RunFigures, ToolTally, tokens_text
from foya_desktop.core.model import VP, ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.status import turn_status
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_for, wait_turns


def _last_figures(rec: Recorder, speaker: str = "omni") -> RunFigures:
    statuses = [e for e in rec.of(VPStatus) if isinstance(e, VPStatus) and e.speaker == speaker]
    return statuses[-1].figures


async def test_blocked_calls_are_failures_not_executions(kernel: Kernel, fake: FakeProviderServer,
                                                         rec: Recorder, project: Path) -> None:
    """Y42/Y44/Y45: executions, failures incl. blocked, per-tool tallies, repeats and duplicates."""
    read = ToolCallSpec("read_file", {"path": "README.md"})
    fake.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "a.txt", "content": "x"}), read,
                                  ToolCallSpec("read_file", {"path": "missing.md"}), read],
                      usage=(100, 7), cached_tokens=40),
                Reply(text="done", usage=(150, 3)))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.READ_ONLY)
    await kernel.turns.send(s.id, "go")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    live = _last_figures(rec)
    assert (live.requests, live.executions, live.failures, live.blocked) == (2, 3, 2, 1)
    assert live.tools == (ToolTally("write_file", 0, 1, 1), ToolTally("read_file", 3, 1, 0))
    assert (live.input_tokens, live.output_tokens, live.cache_read_tokens) == (250, 10, 40)
    assert (live.repeated_calls, live.duplicate_results) == (1, 1)
    assert live.latest_evidence_at > 0
    final = [e for e in rec.of(VPStatus) if isinstance(e, VPStatus)][-1]
    assert (final.tool_runs, final.tool_failures) == (3, 2)  # the headline counters agree
    status = await turn_status(kernel.store, s.id)
    assert status is not None and not status.running
    assert status.vps == (("omni", live),), "the stored turn gives the same figures as the live run"


async def test_unreported_usage_is_not_provided_never_zero(kernel: Kernel, fake: FakeProviderServer,
                                                           rec: Recorder) -> None:
    """Y43."""
    fake.script(Reply(text="no usage from me", report_usage=False))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    await wait_turns(rec, s.id, 1)
    live = _last_figures(rec)
    assert live.requests == 1 and live.input_tokens is None and live.output_tokens is None
    assert tokens_text(live.input_tokens) == "not provided"
    status = await turn_status(kernel.store, s.id)
    assert status is not None and status.vps[0][1].input_tokens is None


async def test_at_most_128_tool_kinds_with_totals_covering_all(kernel: Kernel, fake: FakeProviderServer,
                                                               rec: Recorder, project: Path) -> None:
    """Y44: 130 different (unknown, hence blocked) tools; 128 kinds kept, totals count 130."""
    calls = [ToolCallSpec(f"tool_{i:03}", {}) for i in range(MAX_TOOL_KINDS + 2)]
    fake.script(Reply(tool_calls=calls, chunk_size=64), Reply(text="ok"))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(s.id, "go")
    await wait_turns(rec, s.id, 1, timeout=60)
    live = _last_figures(rec)
    assert len(live.tools) == MAX_TOOL_KINDS and live.tools_omitted == 2
    assert (live.blocked, live.failures, live.executions) == (130, 130, 0)
    assert sum(t.blocked for t in live.tools) == 128


def test_counter_keeps_known_kinds_counting_past_the_cap() -> None:
    counter = FigureCounter()
    for i in range(MAX_TOOL_KINDS + 5):
        counter.tool(f"t{i}", "{}", blocked=False, failed=False, output=str(i), at=i)
    counter.tool("t0", "{}", blocked=False, failed=True, output="", at=999)
    snap = counter.snapshot()
    assert snap.tools[0] == ToolTally("t0", 2, 1, 0) and snap.tools_omitted == 5
    assert (snap.executions, snap.failures, snap.repeated_calls) == (MAX_TOOL_KINDS + 6, 1, 1)
    assert snap.latest_evidence_at == MAX_TOOL_KINDS + 4  # a failure is no evidence
    assert tokens_text(1234567) == "1,234,567"


async def test_one_vp_can_be_stopped_while_the_other_goes_on(kernel: Kernel, fake: FakeProviderServer,
                                                             rec: Recorder) -> None:
    """Y40: each VP's title line has its own Stop."""
    await kernel.vps.add_vp(VP("linus", "Linus", "Linus", "You implement."))
    await kernel.vps.add_vp(VP("martin", "Martin", "Martin", "You review."))

    def respond(body: dict[str, object]) -> Reply:
        slow = "Your name in this session is Martin " in system_prompt(body)
        return Reply(text="word " * (200 if slow else 20), chunk_size=5, delay_per_chunk=0.02)
    fake.responder = respond
    s = await kernel.sessions.create_session(roster=["linus", "martin"])
    await kernel.turns.send(s.id, "@Linus @Martin go")
    await wait_for(lambda: any(isinstance(e, VPStatus) and e.speaker == "martin" and e.requests == 1
                               for e in rec.events))
    assert await kernel.turns.stop_vp(s.id, "martin")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    states = {e.speaker: e.state for e in rec.of(VPStatus) if isinstance(e, VPStatus)}
    assert states == {"linus": "done", "martin": "stopped"}
    assert not await kernel.turns.stop_vp(s.id, "martin"), "nothing left to stop"


async def test_stopping_the_only_vp_stops_the_turn(kernel: Kernel, fake: FakeProviderServer,
                                                  rec: Recorder) -> None:
    """Y40: a single VP's own Stop ends the turn as stopped (not "completed"); plan-mode follow-ups
    that run only after a completed turn do not run."""
    fake.script(Reply(text="word " * 400, chunk_size=5, delay_per_chunk=0.02))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "go on for a while")
    await wait_for(lambda: any(isinstance(e, VPStatus) and e.requests == 1 for e in rec.events))
    assert await kernel.turns.stop_vp(s.id, "omni")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "stopped"
    status = await turn_status(kernel.store, s.id)
    assert status is not None and not status.running
