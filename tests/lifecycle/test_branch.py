"""Branch: a new top-level session from a complete boundary, with the history (finished turns
inherited copy-on-write, the boundary's turn copied) but no runtime state."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import SessionBranched
from foya_desktop.core.messages import Message, MessageStatus, TextPart, ToolCallPart, ToolState
from foya_desktop.core.model import Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.events_log import events_of
from foya_desktop.store.history import append_message, valid_messages
from foya_desktop.store.ops_checkpoints import add_checkpoint, list_checkpoints
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns
from tests.lifecycle.conftest import Say


async def test_branch_copies_valid_history_and_settings_only(
        kernel: Kernel, session: Session, say: Say, rec: Recorder, project: Path) -> None:
    await kernel.sessions.update_session(session.id, model="m2", announcement="be brief", reasoning_effort="high")
    await say("hello")
    await say("write notes.txt one")
    source = await kernel.store.read(valid_messages, session.id)
    assert [m.role for m in source] == ["user", "assistant", "user", "assistant", "tool", "assistant"]
    kernel.svc.grants[session.id] = {"write:notes.txt"}
    await kernel.store.write(add_checkpoint, session.id, source[1].seq, "old summary", False)

    branch = await kernel.lifecycle.branch(session.id, source[4].id)  # after the tool result

    assert branch.id != session.id and branch.parent_id is None
    assert branch.origin == f"branch:{session.id}"
    assert (branch.connection, branch.model, branch.project_id, branch.approval_mode, branch.workdir,
            branch.roster, branch.default_vp, branch.announcement, branch.reasoning_effort) == (
        session.connection, "m2", session.project_id, session.approval_mode, session.workdir,
        session.roster, session.default_vp, "be brief", "high")
    copied = await kernel.store.read(valid_messages, branch.id)
    assert [(m.role, m.text) for m in copied] == [(m.role, m.text) for m in source[:5]]
    assert {m.session_id for m in copied} == {branch.id}
    # the finished first turn is inherited (the same messages); the boundary's turn is copied
    assert [m.id for m in copied[:2]] == [m.id for m in source[:2]]
    assert not {m.id for m in copied[2:]} & {m.id for m in source}
    assert [m.meta["imported_from"] for m in copied[2:]] == [
        {"session_id": session.id, "message_id": m.id} for m in source[2:5]]
    events = await kernel.store.read(events_of, branch.id)
    assert [type_ for _, type_, _ in events] == ["session_created", "history_inherited"] + ["message_added"] * 3
    assert events[1][2] == {"base_session_id": session.id, "through_seq": source[2].seq - 1}
    seqs = [seq for seq, _, _ in events[1:]]  # its own sequence, continuing after what it inherits
    assert seqs == list(range(source[2].seq, source[2].seq + 4)) and events[0][0] == 1
    assert branch.id not in kernel.svc.grants
    assert await kernel.store.read(list_checkpoints, branch.id) == []
    assert rec.of(SessionBranched)[-1] == SessionBranched(branch.id, session.id, source[4].id, 3)


async def test_branches_are_isolated(kernel: Kernel, session: Session, say: Say, rec: Recorder) -> None:
    await say("hello")
    first = await kernel.store.read(valid_messages, session.id)
    branch = await kernel.lifecycle.branch(session.id, first[1].id)
    await kernel.turns.send(branch.id, "only in the branch")
    await wait_turns(rec, branch.id, 1)
    await say("only in the source")
    assert [m.text for m in await kernel.store.read(valid_messages, session.id)][2:] == [
        "only in the source", "reply to: only in the source"]
    assert [m.text for m in await kernel.store.read(valid_messages, branch.id)][2:] == [
        "only in the branch", "reply to: only in the branch"]


async def test_refused_boundaries_say_why(kernel: Kernel, fake: FakeProviderServer, session: Session,
                                          say: Say, rec: Recorder) -> None:
    await say("hello")
    msgs = await kernel.store.read(valid_messages, session.id)
    with pytest.raises(InvalidOperation, match="user message"):
        await kernel.lifecycle.branch(session.id, msgs[0].id)
    fake.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "a.txt", "content": "a"}, id="c1"),
                                  ToolCallSpec("write_file", {"path": "b.txt", "content": "b"}, id="c2")]))
    await say("two writes")
    msgs = await kernel.store.read(valid_messages, session.id)
    call_msg = next(m for m in msgs if len(m.tool_calls) == 2)
    first_result = next(m for m in msgs if m.tool_result and m.tool_result.call_id == "c1")
    with pytest.raises(InvalidOperation, match="tool call without its result"):
        await kernel.lifecycle.branch(session.id, call_msg.id)
    with pytest.raises(InvalidOperation, match="only after it"):
        await kernel.lifecycle.branch(session.id, first_result.id)


async def test_interrupted_reply_is_not_a_boundary(kernel: Kernel, session: Session) -> None:
    stored = await kernel.store.write(append_message, Message(
        "msg_x", session.id, "user", (TextPart("hi"),), turn_id="t1"))
    cut = await kernel.store.write(append_message, Message(
        "msg_y", session.id, "assistant", (TextPart("half"),), speaker="omni", turn_id="t1",
        status=MessageStatus.INTERRUPTED))
    assert stored.seq < cut.seq
    with pytest.raises(InvalidOperation, match="did not complete"):
        await kernel.lifecycle.branch(session.id, cut.id)


async def test_dead_tool_call_gets_an_interrupted_result_in_the_branch(kernel: Kernel, session: Session) -> None:
    """A call never closed (no stop or recovery wrote its result) is copied and closed in the branch,
    also in an older turn than the boundary's: it is found by the open-calls index, not inherited."""
    await kernel.store.write(append_message, Message("msg_u", session.id, "user", (TextPart("go"),), turn_id="t1"))
    await kernel.store.write(append_message, Message(
        "msg_a", session.id, "assistant",
        (ToolCallPart("dead", "write_file", {"path": "x", "content": "y"}, ToolState.RUNNING),),
        speaker="omni", turn_id="t1"))
    await kernel.store.write(append_message, Message("msg_u2", session.id, "user", (TextPart("again"),), turn_id="t2"))
    last = await kernel.store.write(append_message, Message(
        "msg_b", session.id, "assistant", (TextPart("ok"),), speaker="omni", turn_id="t2"))
    branch = await kernel.lifecycle.branch(session.id, last.id)
    copied = await kernel.store.read(valid_messages, branch.id)
    assert [m.role for m in copied] == ["user", "assistant", "tool", "user", "assistant"]
    assert copied[1].tool_calls[0].state == ToolState.ERROR
    result = copied[2].tool_result
    assert result is not None and result.is_error and "may or may not have completed" in result.content


async def test_branch_while_the_source_runs_copies_no_runtime_state(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say, rec: Recorder) -> None:
    await say("hello")
    done = await kernel.store.read(valid_messages, session.id)
    fake.script(Reply(text="slow " * 100, chunk_size=5, delay_per_chunk=0.02))
    await kernel.turns.send(session.id, "long answer please")
    await kernel.turns.send(session.id, "queued one")
    await wait_for(lambda: any(type(e).__name__ == "PartDelta" and e.session_id == session.id
                               for e in rec.events))
    branch = await kernel.lifecycle.branch(session.id, done[1].id)
    assert kernel.queue.items(branch.id) == () and not kernel.turn_manager.owner(branch.id).busy
    assert len(kernel.queue.items(session.id)) == 1
    assert [m.text for m in await kernel.store.read(valid_messages, branch.id)] == ["hello", "reply to: hello"]
    await kernel.turns.stop(session.id, keep_queue=False)


async def test_branch_references_images_that_outlive_the_source(
        kernel: Kernel, fake: FakeProviderServer, session: Session, rec: Recorder) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x01" * 40
    await kernel.turns.send(session.id, "look", attachments=[("image/png", png)])
    await wait_turns(rec, session.id, 1)
    msgs = await kernel.store.read(valid_messages, session.id)
    branch = await kernel.lifecycle.branch(session.id, msgs[1].id)
    await kernel.lifecycle.delete_session(session.id)
    copied = await kernel.store.read(valid_messages, branch.id)
    sha = copied[0].parts[1].artifact  # type: ignore[union-attr]
    assert await kernel.history.read_artifact(sha) == png


async def test_branch_and_fork_walk_and_copy_the_history_off_the_gui_thread(
        kernel: Kernel, session: Session, say: Say, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: branch/fork/merge of a long session never stalls the GUI thread — the boundary checks and
    the copies run on a worker thread (branch and fork copy inside SQLite on the store's writer thread)."""
    import threading

    from foya_desktop.engine.ops import branching, forking, merging
    from foya_desktop.store.ops_copy import share_history as real_sql_copy

    threads: list[tuple[str, bool]] = []
    real_check, real_copy = branching.check_boundary, branching.copy_history

    def check(*args: object) -> None:
        threads.append(("check", threading.current_thread() is threading.main_thread()))
        real_check(*args)  # type: ignore[arg-type]

    def copy(*args: object) -> list[Message]:
        threads.append(("copy", threading.current_thread() is threading.main_thread()))
        return real_copy(*args)  # type: ignore[arg-type]

    def sql_copy(*args: object) -> int:
        threads.append(("copy", threading.current_thread() is threading.main_thread()))
        return real_sql_copy(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(branching, "check_boundary", check)
    monkeypatch.setattr(branching, "share_history", sql_copy)
    monkeypatch.setattr(forking, "share_history", sql_copy)
    await say("hello")
    reply = (await kernel.store.read(valid_messages, session.id))[1]
    branch = await kernel.lifecycle.branch(session.id, reply.id)
    fork = await kernel.lifecycle.fork(session.id)
    assert threads == [("check", False), ("copy", False), ("copy", False)], "never on the loop's thread"
    assert [m.text for m in await kernel.store.read(valid_messages, branch.id)] == ["hello", reply.text]
    assert [m.text for m in await kernel.store.read(valid_messages, fork.id)] == ["hello", reply.text]

    real_plan = merging.plan_merge

    def plan(*args: object) -> merging.MergePlan:
        threads.append(("plan", threading.current_thread() is threading.main_thread()))
        return real_plan(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(merging, "plan_merge", plan)
    monkeypatch.setattr(merging, "copy_history", copy)
    threads.clear()
    await kernel.lifecycle.merge_preview(session.id, fork.id)
    merged = await kernel.lifecycle.merge(session.id, fork.id)
    assert threads == [("plan", False), ("plan", False), ("copy", False)], "merge too: never on the loop"
    assert [m.text for m in await kernel.store.read(valid_messages, merged.id)] == ["hello", reply.text]
