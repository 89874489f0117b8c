"""History rewind: preview then confirm, restoring exactly the files tools changed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import HistoryRewound
from foya_desktop.core.messages import Message
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.rewind import RewindStale, _survey
from foya_desktop.engine.ops.rewind_files import ops_to_json
from foya_desktop.store.ops_checkpoints import add_checkpoint, list_checkpoints
from foya_desktop.store.ops_rewind import Journal, pending_journals, write_journal
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_for
from tests.lifecycle.conftest import KernelBox, Say


async def _user(kernel: Kernel, session_id: str, text: str) -> Message:
    return next(m for m in await kernel.store.valid_messages(session_id) if m.role == "user" and m.text == text)


async def test_preview_then_confirm_restores_and_removes(
        kernel: Kernel, session: Session, say: Say, rec: Recorder, project: Path) -> None:
    readme = (project / "README.md").read_bytes()
    (project / "untracked.txt").write_bytes(b"not Foya's business\n")
    await say("hello")
    await say("write README.md changed once\nwrite new/dir/created.txt brand new")
    await say("write README.md changed twice")
    target = await _user(kernel, session.id, "write README.md changed once\nwrite new/dir/created.txt brand new")
    before_events = await kernel.store.events(session.id)

    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    assert preview.restore == ("README.md",) and preview.remove == ("new/dir/created.txt",)
    assert preview.unsafe == () and preview.messages_removed == 9 and preview.text == target.text
    assert (project / "README.md").read_text() == "changed twice"  # preview changes nothing

    result = await kernel.lifecycle.rewind_confirm(session.id, preview)
    assert result.text == target.text
    assert (project / "README.md").read_bytes() == readme
    assert not (project / "new/dir/created.txt").exists()
    assert (project / "untracked.txt").read_bytes() == b"not Foya's business\n"
    valid = await kernel.store.valid_messages(session.id)
    assert [m.text for m in valid] == ["hello", "reply to: hello"]
    events = await kernel.store.events(session.id)
    assert events[:len(before_events)] == before_events  # the original events stay
    assert events[-1][1] == "history_rewound" and events[-1][2]["from_seq"] == target.seq
    assert [m.id for m in await kernel.store.replay(session.id)] == [m.id for m in valid]
    (event,) = rec.of(HistoryRewound)
    assert event == HistoryRewound(session.id, target.id, target.seq, target.text, ("README.md",),
                                   ("new/dir/created.txt",), (), ())
    await say("hello again")  # the session goes on from the rewound point
    assert [m.text for m in await kernel.store.valid_messages(session.id)][2:] == [
        "hello again", "reply to: hello again"]


async def test_files_changed_outside_or_by_commands_are_shown_not_touched(
        kernel: Kernel, session: Session, say: Say, project: Path) -> None:
    await kernel.sessions.update_session(session.id, approval_mode=ApprovalMode.AUTO)
    await say("write a.txt from tool\nwrite b.txt from tool")
    await say("run touch made_by_command.txt")
    (project / "b.txt").write_text("edited by hand")
    target = await _user(kernel, session.id, "write a.txt from tool\nwrite b.txt from tool")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    assert preview.remove == ("a.txt",)
    reasons = {u.path: u.reason for u in preview.unsafe}
    assert reasons["b.txt"] == "changed outside Foya since the last tool change"
    assert "command" in reasons["made_by_command.txt"]
    await kernel.lifecycle.rewind_confirm(session.id, preview)
    assert not (project / "a.txt").exists()
    assert (project / "b.txt").read_text() == "edited by hand"
    assert (project / "made_by_command.txt").exists()


async def test_confirm_refuses_when_files_or_history_moved(
        kernel: Kernel, session: Session, say: Say, project: Path) -> None:
    await say("write a.txt one")
    target = await _user(kernel, session.id, "write a.txt one")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    (project / "a.txt").write_text("someone else")
    with pytest.raises(RewindStale, match="Preview the rewind again"):
        await kernel.lifecycle.rewind_confirm(session.id, preview)
    (project / "a.txt").write_text("one")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    await kernel.sessions.update_session(session.id, title="renamed")
    with pytest.raises(RewindStale):
        await kernel.lifecycle.rewind_confirm(session.id, preview)
    assert (project / "a.txt").read_text() == "one"
    assert len(await kernel.store.valid_messages(session.id)) == 4
    result = await kernel.lifecycle.rewind_confirm(session.id, await kernel.lifecycle.rewind_preview(session.id, target.id))
    assert result.removed == ("a.txt",) and not (project / "a.txt").exists()


async def test_refusals(kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say,
                        rec: Recorder) -> None:
    await kernel.turns.send(session.id, "look", attachments=[("image/png", b"\x89PNG\r\n\x1a\n0000")])
    await wait_for(lambda: not kernel.turn_manager.owner(session.id).busy)
    msgs = await kernel.store.valid_messages(session.id)
    with pytest.raises(InvalidOperation, match="attachments"):
        await kernel.lifecycle.rewind_preview(session.id, msgs[0].id)
    with pytest.raises(InvalidOperation, match="user message"):
        await kernel.lifecycle.rewind_preview(session.id, msgs[1].id)
    await say("plain")
    plain = await _user(kernel, session.id, "plain")
    preview = await kernel.lifecycle.rewind_preview(session.id, plain.id)
    fake.script(Reply(text="slow " * 100, chunk_size=5, delay_per_chunk=0.02))
    await kernel.turns.send(session.id, "busy now")
    with pytest.raises(InvalidOperation, match="Stop the running turn first"):
        await kernel.lifecycle.rewind_preview(session.id, plain.id)
    with pytest.raises(InvalidOperation, match="Stop the running turn first"):
        await kernel.lifecycle.rewind_confirm(session.id, preview)
    await kernel.turns.stop(session.id)


async def test_rewind_invalidates_covering_checkpoints(kernel: Kernel, session: Session, say: Say) -> None:
    await say("one")
    await say("two")
    msgs = await kernel.store.valid_messages(session.id)
    early = await kernel.store.write(add_checkpoint, session.id, msgs[1].seq, "about one", False)
    late = await kernel.store.write(add_checkpoint, session.id, msgs[3].seq, "about one and two", False)
    result = await kernel.lifecycle.rewind_confirm(session.id, await kernel.lifecycle.rewind_preview(session.id, msgs[2].id))
    assert result.invalidated_checkpoints == (late.id,)
    assert [c.id for c in await kernel.store.read(list_checkpoints, session.id)] == [early.id]


async def test_rewind_restores_what_a_sub_agent_wrote(kernel: Kernel, session: Session, say: Say,
                                                      project: Path) -> None:
    await say("spawn write child.txt from the child")
    assert (project / "child.txt").read_text() == "from the child"
    target = await _user(kernel, session.id, "spawn write child.txt from the child")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    assert preview.remove == ("child.txt",)
    await kernel.lifecycle.rewind_confirm(session.id, preview)
    assert not (project / "child.txt").exists()


async def test_crash_after_the_journal_is_rolled_forward_at_start_up(box: KernelBox, project: Path) -> None:
    kernel = box.kernel
    original = (project / "README.md").read_bytes()
    session = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.turns.send(session.id, "write README.md rewritten\nwrite extra.txt x")
    await kernel.turns.wait_idle()
    target = await _user(kernel, session.id, "write README.md rewritten\nwrite extra.txt x")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    _, plan = await _survey(kernel.svc, session.id, target.id)
    journal = Journal("rwd_test", session.id, target.id, preview.from_seq, preview.head_seq,
                      str(project.resolve()), ops_to_json(plan.ops))
    await kernel.store.write(write_journal, journal)
    (project / "extra.txt").unlink()  # the "crash": one file restored, the history not committed yet
    # a kill inside atomic_write leaves its temporary file next to the target (issue 14)
    (project / ".foya-rewind-k1ll3d").write_bytes(b"half written")

    kernel = await box.restart()
    assert not list(project.glob(".foya-rewind-*"))
    assert (project / "README.md").read_bytes() == original
    assert not (project / "extra.txt").exists()
    assert await kernel.store.valid_messages(session.id) == []
    assert (await kernel.store.events(session.id))[-1][1] == "history_rewound"
    assert await kernel.store.read(pending_journals) == []


async def test_a_failed_restore_is_undone_and_nothing_changes(
        kernel: Kernel, session: Session, say: Say, project: Path) -> None:
    (project / "z.txt").write_bytes(b"zzz before\n")
    await say("write README.md new readme\nwrite z.txt new z")
    target = await _user(kernel, session.id, "write README.md new readme\nwrite z.txt new z")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    assert preview.restore == ("README.md", "z.txt")
    kernel.store.files.delete(hashlib.sha256(b"zzz before\n").hexdigest())  # z.txt cannot be restored
    history = await kernel.store.valid_messages(session.id)
    with pytest.raises(InvalidOperation, match="nothing was changed"):
        await kernel.lifecycle.rewind_confirm(session.id, preview)
    assert (project / "README.md").read_text() == "new readme"  # restored, then put back
    assert (project / "z.txt").read_text() == "new z"
    assert await kernel.store.valid_messages(session.id) == history
    assert await kernel.store.read(pending_journals) == []
