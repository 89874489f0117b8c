"""One typed bridge signal per engine event kind; the window wires every one before release (issue 7).

The bridge used to hand eleven kinds of event to one catch-all ``other_event``
signal that six views sorted with ``isinstance``. These tests pin the shape
that replaced it: every ``Event`` subclass has exactly one signal, the window
has connected its handlers to all of them when the bridge is released, and
events published while the window was still being built reach those handlers
afterwards, in the order they were published.
"""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMetaMethod, Signal

from foya_desktop.core import events as ev
from foya_desktop.core.events import Event
from foya_desktop.core.figures import Usage
from foya_desktop.core.model import Phase, Session
from foya_desktop.core.records import Checkpoint, QueueItem, TaskRecord
from foya_desktop.engine.bus import EventBus
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.cards.questions import Stage
from foya_desktop.ui.main_window import MainWindow
from tests.ui.conftest import _window
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import reply, settle, user, wait_until

SID = "s1"

SAMPLES: dict[type[Event], tuple[str, Event]] = {
    ev.SessionChanged: ("session_changed", ev.SessionChanged(SID, Session(SID, "Demo"))),
    ev.SessionDeletedEvent: ("session_deleted", ev.SessionDeletedEvent(SID)),
    ev.MessageAdded: ("message_added", ev.MessageAdded(SID, reply("hi", mid="m1"))),
    ev.MessageUpdated: ("message_updated", ev.MessageUpdated(SID, reply("hi", mid="m1"))),
    ev.StreamStarted: ("stream_started", ev.StreamStarted(SID, "st1", "omni", "t1")),
    ev.PartDelta: ("stream_delta", ev.PartDelta(SID, "st1", "omni", "text", "Hel")),
    ev.StreamEnded: ("stream_ended", ev.StreamEnded(SID, "st1", "omni")),
    ev.PhaseChanged: ("phase_changed", ev.PhaseChanged(SID, Phase.TURN)),
    ev.QueueChanged: ("queue_changed", ev.QueueChanged(SID, (QueueItem("q1", "later", 0),))),
    ev.TurnStarted: ("turn_started", ev.TurnStarted(SID, "t1", "u1", ("omni",))),
    ev.TurnFinished: ("turn_finished", ev.TurnFinished(SID, "t1", "completed", usage=Usage())),
    ev.VPStatus: ("vp_status", ev.VPStatus(SID, "t1", "omni", "running")),
    ev.Notice: ("notice", ev.Notice(SID, "warning", "Retrying")),
    ev.ApprovalRequested: ("approval_requested", ev.ApprovalRequested(
        SID, "r1", "omni", "shell", {"command": "make"}, "Run make", command="make")),
    ev.ApprovalResolved: ("approval_resolved", ev.ApprovalResolved(SID, "r1", "once")),
    ev.QuestionAsked: ("question_asked", ev.QuestionAsked(SID, "qq1", "omni", "c9", "Which one?", ("a", "b"))),
    ev.QuestionAnswered: ("question_answered", ev.QuestionAnswered(SID, "qq1", "a")),
    ev.QuestionClosed: ("question_closed", ev.QuestionClosed(SID, "qq1", "expired")),
    ev.TaskChanged: ("task_changed", ev.TaskChanged(SID, TaskRecord("k1", SID, "shell", "make", "running"))),
    ev.SessionBranched: ("session_branched", ev.SessionBranched("s2", SID, "m1", 3)),
    ev.HistoryRewound: ("history_rewound", ev.HistoryRewound(SID, "u1", 5, "say it again")),
    ev.CompactionCheckpoint: ("compaction_checkpoint", ev.CompactionCheckpoint(
        SID, Checkpoint("cp1", SID, 1, "summary"))),
    ev.MemoryChanged: ("memory_changed", ev.MemoryChanged(SID, "mem_1", "saved", "session", "omni")),
    ev.CatalogChanged: ("catalog_changed", ev.CatalogChanged("", "vps")),
}
"""One event of every kind and the name of the signal it must arrive on."""

UNHANDLED_BY_THE_WINDOW = {"session_branched", "catalog_changed"}
"""Published for views that open a branch made elsewhere (the window's branch flow opens its own),
and for the VP editor's and Connections' lists (each follows it while it is open)."""


def _event_kinds() -> set[type[Event]]:
    """Every concrete event kind the engine can publish (all ``Event`` dataclasses in core.events)."""
    return {cls for _, cls in inspect.getmembers(ev, inspect.isclass)
            if issubclass(cls, Event) and cls is not Event and dataclasses.is_dataclass(cls)}


def _signal_names() -> list[str]:
    return sorted(name for name, value in vars(EngineBridge).items() if isinstance(value, Signal))


def _record_all(bridge: EngineBridge) -> list[tuple[str, tuple[Any, ...]]]:
    seen: list[tuple[str, tuple[Any, ...]]] = []
    for name in _signal_names():
        getattr(bridge, name).connect(lambda *args, n=name: seen.append((n, args)))
    return seen


def test_every_event_kind_has_its_own_signal(qapp: object) -> None:
    """No event kind falls through: each has a sample here and a signal on the bridge."""
    kinds = _event_kinds()
    assert set(SAMPLES) == kinds, "a new event kind needs a signal in ui/bridge.py and a sample here"
    bridge = EngineBridge(EventBus())
    assert all(bridge.handles(kind) for kind in kinds)
    assert sorted({name for name, _ in SAMPLES.values()}) == _signal_names()  # one signal per kind


def _name(kind: type[Event]) -> str:
    return kind.__name__


KINDS: list[type[Event]] = sorted(SAMPLES.keys(), key=_name)


@pytest.mark.parametrize("kind", KINDS, ids=_name)
def test_each_event_kind_arrives_on_its_own_signal_only(qapp: object, kind: type[Event]) -> None:
    """Publishing one event emits exactly its signal, carrying the event (or its typed fields)."""
    bus = EventBus()
    bridge = EngineBridge(bus)
    seen = _record_all(bridge)
    bridge.release()
    name, event = SAMPLES[kind]
    bus.publish(event)
    bridge.flush_deltas()
    assert [n for n, _ in seen] == [name]
    args = seen[0][1]
    if name == "stream_delta":
        assert args == (SID, "st1", "omni", "text", "Hel")
    elif name == "phase_changed":
        assert args == (SID, "turn")
    elif name == "session_deleted":
        assert args == (SID,)
    else:
        assert args == (event,)


@pytest.fixture
def release_spy(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """What was connected when the window released its bridge; a recorder joins right then."""
    connected: dict[str, bool] = {}
    original = EngineBridge.release

    def release(self: EngineBridge) -> None:
        for name in _signal_names():
            connected[name] = self.isSignalConnected(QMetaMethod.fromSignal(getattr(self, name)))
        self.order = _record_all(self)  # type: ignore[attr-defined]  # after the window's handlers
        original(self)

    monkeypatch.setattr(EngineBridge, "release", release)
    return connected


async def test_the_window_is_wired_before_the_bridge_is_released(
        fake_kernel: FakeKernel, release_spy: dict[str, bool]) -> None:
    """Every signal except the one the window deliberately ignores has its handler at release."""
    async with _window(fake_kernel) as window:
        assert not window.bridge.buffering
    assert {name for name, wired in release_spy.items() if not wired} == UNHANDLED_BY_THE_WINDOW
    assert set(release_spy) == set(_signal_names())


async def test_events_published_before_the_window_existed_reach_its_handlers_in_order(
        fake_kernel: FakeKernel, release_spy: dict[str, bool], shots: Path) -> None:
    """A session, two renames, a streamed reply and an approval, all before the window was built."""
    bus = fake_kernel.bus
    bridge = EngineBridge(bus)  # as app.py does: the bridge listens before the window exists
    session = Session(SID, "first title")
    renamed = dataclasses.replace(session, title="second title")
    fake_kernel.session_map[SID] = renamed  # what the store holds by the time the window starts
    bus.publish(ev.SessionChanged(SID, session))
    bus.publish(ev.SessionChanged(SID, renamed))
    bus.publish(ev.StreamStarted(SID, "st1", "omni", "t1"))
    bus.publish(ev.PartDelta(SID, "st1", "omni", "text", "Hel"))
    bus.publish(ev.PartDelta(SID, "st1", "omni", "text", "lo"))
    bus.publish(ev.StreamEnded(SID, "st1", "omni"))
    request = SAMPLES[ev.ApprovalRequested][1]
    assert isinstance(request, ev.ApprovalRequested)
    fake_kernel.approvals.append(request)
    bus.publish(request)
    async with _window(fake_kernel, bridge) as window:
        order = window.bridge.order  # type: ignore[attr-defined]
        assert [name for name, _ in order] == ["session_changed", "session_changed", "stream_started",
                                               "stream_delta", "stream_ended", "approval_requested"]
        assert [args[0].session.title for name, args in order if name == "session_changed"] == [
            "first title", "second title"]
        found = window.tree_model.session(SID)
        assert found is not None and found.title == "second title"
        [stream] = window.live.of(SID)
        assert (stream.text, stream.ended) == ("Hello", True)
        assert window.tree_model.node(window.tree_model.index_of_session(SID)).waiting
        await wait_until(lambda: window.pane.session is not None, what="the session on screen")
        await window.runner.drain()
        assert window.pane.attention.card is not None  # the approval card of the session on screen
        window.grab().save(str(shots / "test_buffered_events_after_release.png"))


async def test_each_kind_reaches_its_handler_in_the_window(fake_window: MainWindow,
                                                          fake_kernel: FakeKernel) -> None:
    """The typed signals formerly sorted by ``isinstance``: approvals, questions, tasks, rewind,
    compaction each change what the window shows."""
    session = await fake_kernel.sessions.create_session(title="Demo")
    sid = session.id
    fake_kernel.add_messages(sid, [user("go", mid="u1"), reply("done", mid="a1")])
    await settle()
    fake_window.tree_view.select_session(sid)
    await wait_until(lambda: fake_window.pane.session is not None and fake_window.pane.session.id == sid)
    await fake_window.runner.drain()
    pane, tree = fake_window.pane, fake_window.tree_model

    def waiting() -> bool:
        return tree.node(tree.index_of_session(sid)).waiting

    fake_kernel.ask(ev.ApprovalRequested(sid, "r1", "omni", "shell", {"command": "make"}, "Run make",
                                         command="make"))
    assert pane.attention.card is not None and waiting()
    fake_kernel.asks.answer_approval("r1", "once")
    assert pane.attention.card is None and not waiting()

    fake_kernel.ask(ev.QuestionAsked(sid, "qq1", "omni", "c9", "Which one?", ("a", "b")))
    state = pane.cards.book.state("qq1")
    assert state is not None and state.stage == Stage.OPEN and waiting()
    fake_kernel.questions.clear()
    fake_kernel.publish(ev.QuestionAnswered(sid, "qq1", "a"))
    assert state.stage == Stage.ANSWERED and state.answer == "a" and not waiting()
    fake_kernel.ask(ev.QuestionAsked(sid, "qq2", "omni", "c10", "And now?"))
    fake_kernel.questions.clear()
    fake_kernel.publish(ev.QuestionClosed(sid, "qq2", "expired"))
    closed = pane.cards.book.state("qq2")
    assert closed is not None and closed.stage == Stage.CLOSED

    fake_kernel.put_task(TaskRecord("k1", sid, "shell", "make", "running"))
    assert [r.id for r in pane.tasks.model.records()] == ["k1"]

    messages = await fake_kernel.history.history_page(sid)
    fake_kernel.publish(ev.CompactionCheckpoint(sid, Checkpoint("cp1", sid, messages[-1].seq, "summary")))
    assert [r.checkpoint_id for r in pane.timeline_model.checkpoint_rows()] == ["cp1"]

    fake_kernel.publish(ev.HistoryRewound(sid, "u1", 1, "say it again"))
    assert pane.composer.input.toPlainText() == "say it again"
    await fake_window.runner.drain()
