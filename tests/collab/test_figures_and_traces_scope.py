"""Where figures and debug traces belong, on the real kernel and the fake provider (Yeaft Y39, Y41).

A VP's status figures count its own requests and tool calls: a sub-agent runs
in its own child session, and neither its tokens nor its tool calls appear in
the parent VP's figures. Debug traces stay with their session: a fork or a
merge copies none (a branch neither: tests/engine/test_usage_debug.py), and a
retried request says how many retries it took.
"""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.events import VPStatus
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.turn.debug_trace import traces
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.helpers.agent_script import agent_responder
from tests.helpers.engine import Recorder, wait_turns


async def test_sub_agent_tokens_and_tools_are_not_in_the_parent_vps_figures(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """Y41: "input including cache, excluding sub-agents" — the child's usage is its own."""
    fake.responder = agent_responder
    s = await kernel.sessions.create_session(title="work", workdir=str(project), approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.turns.send(s.id, "spawn write from_child.txt hello")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed", done.error
    (child,) = [c for c in await kernel.sessions.list_sessions() if c.parent_id == s.id]
    mine = [e for e in rec.of(VPStatus) if isinstance(e, VPStatus) and e.session_id == s.id]
    live = mine[-1].figures
    own, theirs = await kernel.store.usage_totals(s.id), await kernel.store.usage_totals(child.id)
    assert theirs.input_tokens, "the child reported usage of its own"
    assert live.input_tokens == own.input_tokens, "the parent VP counts only its own requests"
    assert [t.name for t in live.tools] == ["spawn_agent"] and live.executions == 1, (
        "the child's write_file is not the parent's tool call")
    assert (project / "from_child.txt").read_text() == "hello"


async def test_fork_and_merge_copy_no_debug_trace(kernel: Kernel, fake: FakeProviderServer,
                                                  rec: Recorder, project: Path) -> None:
    """Y39: traces are per session; a fork and a merge start with none of them."""
    fake.responder = lambda body: Reply(text="ok")
    a = await kernel.sessions.create_session(title="A", workdir=str(project), connection="fake")
    await kernel.turns.send(a.id, "first")
    await wait_turns(rec, a.id, 1)
    assert await kernel.store.read(traces, a.id), "the source session has traces"
    b = await kernel.lifecycle.fork(a.id)
    assert await kernel.store.read(traces, b.id) == [], "a fork copies no debug trace"
    await kernel.turns.send(b.id, "only in B")
    await wait_turns(rec, b.id, 1)
    b_traces = await kernel.store.read(traces, b.id)
    assert b_traces, "the fork records its own from its first turn"
    merged = await kernel.lifecycle.merge(a.id, b.id)
    assert await kernel.store.read(traces, merged.id) == [], "a merge copies no debug trace"
    assert await kernel.store.read(traces, b.id) == b_traces, "and leaves the sources' traces alone"


async def test_a_retried_request_says_its_retries(kernel: Kernel, fake: FakeProviderServer,
                                                  rec: Recorder) -> None:
    """Y39 "retries": a 429 then a reply is one step with one retry."""
    fake.script(Reply(fault=Fault.status(429, retry_after=0.05)), Reply(text="made it"))
    s = await kernel.sessions.create_session(connection="fake")
    await kernel.turns.send(s.id, "hi")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    (step,) = [t for t in await kernel.store.read(traces, s.id) if t["kind"] == "step"]
    assert step["retries"] == 1 and step["stop_reason"] == "stop"


def test_no_dream_events_or_settings_anywhere() -> None:
    """Y39 "no Dream events or settings": no event, setting, string or translation mentions one."""
    package = Path(__file__).resolve().parents[2] / "foya_desktop"
    hits = [f"{path.relative_to(package)}:{n}" for path in package.rglob("*")
            if path.suffix in (".py", ".ts") for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
            if "dream" in line.lower() and "There is no Dream tab or setting anywhere" not in line]
    assert hits == []
