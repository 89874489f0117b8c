"""The pieces behind the session operations: where a branch may start, rewind refusals,
checkpoint markers in a windowed timeline (qtmodeltester), the sub-agent strip, dialogs."""

from __future__ import annotations

from pytestqt.modeltest import ModelTester

from foya_desktop.core.messages import ImagePart, Message, MessageStatus, TextPart
from foya_desktop.core.model import Phase, Session
from foya_desktop.core.records import Checkpoint
from foya_desktop.engine.ops.rewind import RewindPreview
from foya_desktop.engine.ops.rewind_files import UnsafeFile
from foya_desktop.ui import theme
from foya_desktop.ui.ops.boundaries import latest_boundary, rewind_refusal, row_boundary, valid_boundaries
from foya_desktop.ui.ops.child_banner import SubAgentBanner
from foya_desktop.ui.ops.rewind_dialog import describe
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.rows import CheckpointRow, MessageRow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import conversation, reply, tool_call, tool_result, user


def _seq(messages: list[Message]) -> list[Message]:
    import dataclasses
    return [dataclasses.replace(m, seq=i + 1) for i, m in enumerate(messages)]


def test_branch_boundaries_follow_the_kernel_rules() -> None:
    msgs = _seq([
        user("go", mid="u1"),
        reply("", mid="a1", parts=[tool_call("c1", "read_file", path="a")]),
        tool_result("c1", "read_file", "text", mid="t1"),
        reply("done", mid="a2"),
        user("again", mid="u2"),
        reply("half", mid="a3", status=MessageStatus.INTERRUPTED),
    ])
    assert valid_boundaries(msgs) == {"t1", "a2"}
    assert latest_boundary(msgs) == "a2"
    assert latest_boundary(msgs[:1]) is None
    # two calls in one step: after the first result the second is still unanswered
    parallel = _seq([user("go", mid="u1"),
                     reply("", mid="a1", parts=[tool_call("c1", "x"), tool_call("c2", "y")]),
                     tool_result("c1", "x", "1", mid="t1"), tool_result("c2", "y", "2", mid="t2")])
    assert valid_boundaries(parallel) == {"t2"}
    # a call that never got a result (a stopped turn) does not block later boundaries
    dead = _seq([user("go", mid="u1"), reply("", mid="a1", parts=[tool_call("c9", "x")]),
                 user("next", mid="u2"), reply("ok", mid="a2")])
    assert valid_boundaries(dead) == {"a2"}


def test_a_call_row_branches_after_its_last_result() -> None:
    msgs = _seq([user("go", mid="u1"), reply("", mid="a1", parts=[tool_call("c1", "x"), tool_call("c2", "y")]),
                 tool_result("c1", "x", "1", mid="t1"), tool_result("c2", "y", "2", mid="t2")])
    row = MessageRow(msgs[1], {"c1": msgs[2], "c2": msgs[3]})
    valid = valid_boundaries(msgs)
    assert row_boundary(row, valid) == "t2"
    assert row_boundary(MessageRow(msgs[1], {"c1": msgs[2]}), valid) is None  # c2 still open
    assert row_boundary(MessageRow(msgs[0]), valid) is None


def test_rewind_refusals_say_why() -> None:
    plain = user("fix it")
    assert rewind_refusal(plain, Phase.IDLE) is None
    assert rewind_refusal(plain, "turn") == "stop the running reply first"
    assert rewind_refusal(plain, Phase.IDLE, read_only=True) == "a sub-agent's session is read-only"
    image = Message("m", "s", "user", (TextPart("look"), ImagePart("sha", "image/png")))
    assert "images" in (rewind_refusal(image, Phase.IDLE) or "")
    command = Message("m", "s", "user", (TextPart("/run"),), meta={"command_id": "c"})
    assert "command" in (rewind_refusal(command, Phase.IDLE) or "")
    assert rewind_refusal(reply("hi"), Phase.IDLE) is not None


def _checkpoint(covers: int, cid: str = "ckp_1", session: str = "s") -> Checkpoint:
    return Checkpoint(cid, session, covers, "summary", seq=covers + 1)


async def _model(kernel: FakeKernel, qtmodeltester: ModelTester) -> TimelineModel:
    model = TimelineModel(theme.body_font())
    qtmodeltester.check(model)

    async def loader(before: int | None, limit: int) -> list[Message]:
        return await kernel.history.history_page("s", before_seq=before, limit=limit)

    await model.load("s", loader)
    return model


def _markers(model: TimelineModel) -> list[tuple[int, str]]:
    return [(i, r.key) for i in range(model.rowCount()) if isinstance(r := model.row_at(i), CheckpointRow)]


async def test_markers_sit_after_the_covered_message_and_wait_for_their_page(
        qtmodeltester: ModelTester) -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(300))  # seq 1..300; the first page holds 201..300
    model = await _model(kernel, qtmodeltester)
    model.set_checkpoints("s", [_checkpoint(250, "late"), _checkpoint(40, "early"), _checkpoint(9, "other", "x")])
    first = model.row_at(0)
    assert isinstance(first, MessageRow) and first.seq == 201
    assert _markers(model) == [(50, "late")]  # right after seq 250; "early" is above the window
    await model.fetch_older()
    await model.fetch_older()
    marks = {key: i for i, key in _markers(model)}
    early = model.row_at(marks["early"] - 1)
    assert isinstance(early, MessageRow) and early.seq == 40
    assert model.index(marks["early"], 0).data() == model.row_at(marks["early"]).plain_text()
    model.set_checkpoints("s", [_checkpoint(40, "early")])  # a rewind invalidated "late"
    assert [key for _, key in _markers(model)] == ["early"]


async def test_a_live_checkpoint_goes_at_the_end_and_new_messages_below_it(qtmodeltester: ModelTester) -> None:
    kernel = FakeKernel()
    kernel.add_messages("s", conversation(4))
    model = await _model(kernel, qtmodeltester)
    model.add_checkpoint(_checkpoint(4, "now"))
    model.add_checkpoint(_checkpoint(4, "now"))  # the same one twice: one marker
    assert _markers(model) == [(4, "now")]
    (message,) = kernel.add_messages("s", [user("after the summary")])
    model.add_message(message)
    assert _markers(model) == [(4, "now")] and model.rowCount() == 6
    assert model.starts_block(5)
    model.add_checkpoint(_checkpoint(2, "elsewhere", "x"))  # another session: ignored
    assert len(_markers(model)) == 1


def test_sub_agent_strip_modes(qtbot) -> None:  # type: ignore[no-untyped-def]
    banner = SubAgentBanner()
    qtbot.addWidget(banner)
    child = Session("ses_c", "dig", parent_id="ses_p", child_snapshot={"agent": {"name": "Scout"}})
    banner.show_child(child, "Lead", running=True)
    assert banner.mode == "child" and "Scout is working on" in banner.text.text()
    banner.show_running([Session("ses_1", "one"), Session("ses_2", "two")])
    assert banner.mode == "running" and "2 sub-agents running" in banner.text.text()
    with qtbot.waitSignal(banner.open_requested) as opened:
        banner.text.linkActivated.emit("ses_2")
    assert opened.args == ["ses_2"]
    banner.show_running([])
    assert banner.mode == "" and banner.isHidden()


def test_rewind_preview_lists_every_file_and_escapes_names() -> None:
    many = tuple(f"src/file_{i}.py" for i in range(40))
    preview = RewindPreview("s", "m", 3, 9, "tok", "fix <everything>", 1, many, ("new.txt",),
                            (UnsafeFile("run.log", "changed by a command"),))
    text = describe(preview)
    assert all(name in text for name in many)  # nothing it touches is hidden
    assert "fix &lt;everything&gt;" in text and "<b>1 message</b>" in text
    assert "run.log — changed by a command" in text
