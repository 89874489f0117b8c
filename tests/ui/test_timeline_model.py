"""TimelineModel: windowed paging, attached tool results, streams, headers — checked by qtmodeltester."""

from __future__ import annotations

import dataclasses

from pytestqt.modeltest import ModelTester

from foya_desktop.core.events import MessageAdded, StreamEnded, StreamStarted
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.live import LiveStreams
from foya_desktop.ui.timeline.model import HEADER_ROLE, TimelineModel
from foya_desktop.ui.timeline.rows import MessageRow, StreamRow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import conversation, reply, tool_call, tool_result, user


def _loader(kernel: FakeKernel, sid: str):  # type: ignore[no-untyped-def]
    async def load(before: int | None, limit: int):  # type: ignore[no-untyped-def]
        return await kernel.history.history_page(sid, before_seq=before, limit=limit)
    return load


async def test_initial_page_is_the_newest_and_model_is_valid(qtmodeltester: ModelTester) -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(500))
    model = TimelineModel(theme.body_font())
    qtmodeltester.check(model)
    await model.load("s", _loader(kernel, "s"))
    qtmodeltester.check(model)
    assert model.rowCount() == TimelineModel.INITIAL_PAGE
    assert kernel.page_calls == [("s", None, TimelineModel.INITIAL_PAGE)]
    last = model.row_at(model.rowCount() - 1)
    assert isinstance(last, MessageRow) and last.message.id == "msg_000499"
    assert model.has_older


async def test_fetch_older_prepends_until_the_start(qtmodeltester: ModelTester) -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(300))
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    qtmodeltester.check(model)
    added = await model.fetch_older()
    assert added == TimelineModel.PAGE
    first = model.row_at(0)
    assert isinstance(first, MessageRow) and first.message.id == "msg_000050"
    assert kernel.page_calls[-1][1] == 201  # before the seq of the oldest row in the window
    await model.fetch_older()
    assert model.rowCount() == 300 and not model.has_older
    assert await model.fetch_older() == 0


async def test_paging_to_the_start_yields_every_message_once_in_order(qtmodeltester: ModelTester) -> None:
    """Issue 14: the flat list model pages older history in, oldest first, without gaps or repeats."""
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(TimelineModel.MAX_ROWS - 50))
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    added = []
    while model.has_older:
        added.append(await model.fetch_older())
        qtmodeltester.check(model)
    older = TimelineModel.MAX_ROWS - 50 - TimelineModel.INITIAL_PAGE
    full, rest = divmod(older, TimelineModel.PAGE)  # a last full page asks once more and learns
    assert added == [TimelineModel.PAGE] * full + [rest]
    ids = [row.message.id for row in (model.row_at(i) for i in range(model.rowCount()))
           if isinstance(row, MessageRow)]
    assert ids == [f"msg_{i:06d}" for i in range(TimelineModel.MAX_ROWS - 50)]
    assert not model.index(model.rowCount(), 0).isValid() and model.rowCount(model.index(0, 0)) == 0
    assert not model.detached


async def test_window_never_exceeds_max_rows_and_detaches() -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(2000))
    model = TimelineModel(theme.body_font())
    detached: list[bool] = []
    model.detached_changed.connect(detached.append)
    await model.load("s", _loader(kernel, "s"))
    while model.has_older and model.rowCount() < TimelineModel.MAX_ROWS + 200:
        await model.fetch_older()
        assert model.rowCount() <= TimelineModel.MAX_ROWS
        if model.detached:
            break
    assert model.detached and detached == [True]
    rows = model.rowCount()
    model.add_message(dataclasses.replace(reply("live while detached", mid="late"), session_id="s"))
    assert model.rowCount() == rows  # appending would leave a hole; the view offers "Latest" instead


async def test_tool_results_attach_to_their_call_and_orphans_are_adopted() -> None:
    kernel = FakeKernel()
    msgs = kernel.add_messages("s", [
        user("read it", mid="u1"),
        reply("Reading.", mid="a1", parts=[tool_call("c1", "read_file", path="src/app.py")]),
        tool_result("c1", "read_file", "line1\nline2", mid="t1"),
        reply("Done.", mid="a2"),
    ])
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    assert model.rowCount() == 3
    row = model.row_at(1)
    assert isinstance(row, MessageRow) and row.result_for("c1") is not None
    # A window whose first row is the tool result: the call arrives with the older page.
    model2 = TimelineModel(theme.body_font())
    model2.INITIAL_PAGE = 2
    model2.PAGE = 10
    await model2.load("s", _loader(kernel, "s"))
    assert [r.message.id for r in model2._rows if isinstance(r, MessageRow)] == ["t1", "a2"]
    await model2.fetch_older()
    ids = [r.message.id for r in model2._rows if isinstance(r, MessageRow)]
    assert ids == ["u1", "a1", "a2"]
    assert msgs[2].id == "t1"


async def test_stream_rows_are_replaced_by_their_message(qtmodeltester: ModelTester) -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", [user("hi", mid="u1")])
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    qtmodeltester.check(model)
    model.start_stream(StreamStarted("s", "a1", "linus", "t1"))
    model.start_stream(StreamStarted("s", "a2", "martin", "t1"))
    model.append_delta("s", "a1", "text", "Hello ")
    model.append_delta("s", "a1", "text", "there")
    model.append_delta("s", "other-session", "text", "ignored")
    stream = model.row_at(1)
    assert isinstance(stream, StreamRow) and stream.body.text == "Hello there"
    model.end_stream("s", "a1")
    (done,) = kernel.add_messages("s", [reply("Hello there", "linus", mid="a1", turn_id="t1")])
    model.add_message(done)
    assert isinstance(model.row_at(1), MessageRow) and model.row_at(1).key == "a1"
    assert isinstance(model.row_at(2), StreamRow)  # martin still streaming, below
    model.finish_turn("s", "t1")  # martin never produced a message: the stream goes away
    assert model.rowCount() == 2


async def test_a_stored_reply_replaces_the_stream_with_its_id_not_one_that_looks_alike() -> None:
    """Carried identity (issue 7): two streams of the same VP in the same turn, the first one
    ended without a message (a stopped step); the stored reply of the second replaces the
    second, by id. Guessing by speaker and turn ("ended first") picked the wrong row."""
    kernel = FakeKernel()
    kernel.add_messages("s", [user("hi", mid="u1")])
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    live = LiveStreams()
    for mid in ("a1", "a2"):
        started = StreamStarted("s", mid, "linus", "t1")
        model.start_stream(started)
        live.start(started)
        model.append_delta("s", mid, "text", f"text of {mid}")
    model.end_stream("s", "a1")
    live.end(StreamEnded("s", "a1", "linus"))
    (done,) = kernel.add_messages("s", [reply("text of a2", "linus", mid="a2", turn_id="t1")])
    model.add_message(done)
    live.message_added(MessageAdded("s", done))
    rows = [model.row_at(i) for i in range(model.rowCount())]
    assert [r.key for r in rows] == ["u1", "stream:a1", "a2"]
    assert isinstance(rows[1], StreamRow) and rows[1].body.text == "text of a1"
    assert [s.message_id for s in live.of("s")] == ["a1"]


async def test_speaker_header_once_per_block() -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", [user("q", mid="u"), reply("a", "linus", mid="a1"), reply("b", "linus", mid="a2"),
                              reply("c", "martin", mid="a3"), reply("d", "linus", mid="a4")])
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    headers = [model.data(model.index(i, 0), HEADER_ROLE) for i in range(model.rowCount())]
    assert headers == [True, True, False, True, True]


async def test_messages_for_other_sessions_and_duplicates_are_ignored() -> None:
    kernel = FakeKernel()
    (m,) = kernel.add_messages("s", [user("hi", mid="u1")])
    model = TimelineModel(theme.body_font())
    await model.load("s", _loader(kernel, "s"))
    model.add_message(m)
    (other,) = kernel.add_messages("t", [user("elsewhere", mid="u2")])
    model.add_message(other)
    assert model.rowCount() == 1


async def test_events_during_the_first_page_load_are_neither_lost_nor_doubled() -> None:
    import asyncio

    kernel = FakeKernel()
    kernel.add_messages("s", conversation(10))
    gate = asyncio.Event()

    async def slow_loader(before: int | None, limit: int):  # type: ignore[no-untyped-def]
        await gate.wait()
        return await kernel.history.history_page("s", before_seq=before, limit=limit)

    live = LiveStreams()
    live.start(StreamStarted("s", "old", "omni", "t0"))
    live.delta("s", "old", "omni", "text", "begun before the switch")
    model = TimelineModel(theme.body_font())
    loading = asyncio.ensure_future(model.load("s", slow_loader, lambda: live.of("s")))
    await asyncio.sleep(0.01)
    (late,) = kernel.add_messages("s", [reply("arrived while loading", mid="late")])
    model.add_message(late)
    live.delta("s", "old", "omni", "text", " and continued")  # the model has no row for it yet
    model.start_stream(StreamStarted("s", "new", "linus", "t1"))
    gate.set()
    await loading
    keys = [model.row_at(i).key for i in range(model.rowCount())]
    assert keys[:10] == [f"msg_{i:06d}" for i in range(10)]
    assert keys[10:] in (["late", "stream:new", "stream:old"], ["late", "stream:old", "stream:new"])
    assert keys.count("late") == 1
    old = next(model.row_at(i) for i in range(model.rowCount()) if model.row_at(i).key == "stream:old")
    assert isinstance(old, StreamRow) and old.body.text == "begun before the switch and continued"


async def test_a_result_many_messages_after_its_call_is_adopted_when_the_call_pages_in() -> None:
    """Start-up recovery appends a dead call's result at the session's end, pages later; the call's
    row must show it (before: only orphans among the first 20 rows were adopted — "running…")."""
    kernel = FakeKernel()
    later = [user(f"later {i}", mid=f"l{i:02d}") for i in range(40)]
    kernel.add_messages("s", [
        user("build it", mid="u1"),
        reply("Building.", mid="a1", parts=[tool_call("c1", "run_command", command="make")]),
        *later,
        tool_result("c1", "run_command", "interrupted", error=True, mid="t1"),
    ])
    model = TimelineModel(theme.body_font())
    model.INITIAL_PAGE = 30
    model.PAGE = 30
    await model.load("s", _loader(kernel, "s"))
    assert model.row_of_call("c1") is None
    while model.has_older:
        await model.fetch_older()
    call_row = model.row_of_call("c1")
    assert call_row is not None
    row = model.row_at(call_row)
    assert isinstance(row, MessageRow) and row.result_for("c1") is not None
    assert "t1" not in [r.message.id for r in model._rows if isinstance(r, MessageRow)]
