"""Deletion: irreversible, descendants first, nothing left running, tombstones forever."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.errors import NotFound, SessionDeleted
from foya_desktop.core.events import PartDelta, SessionDeletedEvent
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.ops_delete import leftover_rows
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_for
from tests.lifecycle.conftest import KernelBox, Say


async def test_delete_removes_the_tree_children_first(kernel: Kernel, session: Session, say: Say,
                                                      rec: Recorder) -> None:
    await say("write kept.txt tool output")
    await say("spawn say hi from the child")
    (child,) = [s for s in await kernel.sessions.list_sessions() if s.parent_id == session.id]
    usage = await kernel.store.usage_totals(session.id)
    child_usage = await kernel.store.usage_totals(child.id)
    snapshots = [m for m in await kernel.store.valid_messages(session.id) if m.role == "tool"]
    assert snapshots

    deleted = await kernel.lifecycle.delete_session(session.id)

    assert deleted == [child.id, session.id]
    assert [e.session_id for e in rec.of(SessionDeletedEvent)] == [child.id, session.id]
    for sid in deleted:
        assert await kernel.store.read(leftover_rows, sid) == {}
        assert await kernel.store.is_tombstoned(sid)
        with pytest.raises(NotFound):
            await kernel.sessions.get_session(sid)
    assert await kernel.store.usage_totals(session.id) == usage  # the ledger keeps the totals
    assert await kernel.store.usage_totals(child.id) == child_usage
    blobs = list((kernel.store.home.artifacts).rglob("*"))
    assert not [b for b in blobs if b.is_file()], "file snapshots referenced by nobody are removed"


async def test_late_writes_are_refused_also_after_restart(box: KernelBox, project: Path) -> None:
    kernel = box.kernel
    s = await kernel.sessions.create_session(workdir=str(project))
    await kernel.lifecycle.delete_session(s.id)
    late = Message("msg_late", s.id, "user", (TextPart("too late"),))
    with pytest.raises(SessionDeleted):
        await kernel.store.append_message(late)
    kernel = await box.restart()
    with pytest.raises(SessionDeleted):
        await kernel.store.append_message(late)
    with pytest.raises(SessionDeleted):
        await kernel.store.create_session(Session(id=s.id, title="again"))


async def test_delete_stops_the_turn_and_drops_the_queue(
        kernel: Kernel, fake: FakeProviderServer, session: Session, rec: Recorder) -> None:
    fake.script(Reply(text="slow " * 200, chunk_size=5, delay_per_chunk=0.02))
    await kernel.turns.send(session.id, "long one")
    await kernel.turns.send(session.id, "queued")
    await wait_for(lambda: any(isinstance(e, PartDelta) and e.session_id == session.id for e in rec.events))
    requests = len(fake.requests)
    await kernel.lifecycle.delete_session(session.id)
    assert not kernel.turn_manager.scheduler.known(session.id)
    assert await kernel.store.read(leftover_rows, session.id) == {}
    with pytest.raises(NotFound):
        await kernel.turns.send(session.id, "after deletion")
    assert len(fake.requests) == requests  # the queued message never ran


async def test_shared_blobs_survive_and_unshared_ones_go(kernel: Kernel, session: Session,
                                                         rec: Recorder) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x02" * 40
    other = await kernel.sessions.create_session(title="other", approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.turns.send(session.id, "mine", attachments=[("image/png", png)])
    await kernel.turns.send(other.id, "theirs", attachments=[("image/png", png)])
    await kernel.turns.wait_idle()
    await kernel.lifecycle.delete_session(session.id)
    sha = (await kernel.store.valid_messages(other.id))[0].parts[1].artifact  # type: ignore[union-attr]
    assert await kernel.history.read_artifact(sha) == png
    await kernel.lifecycle.delete_session(other.id)
    with pytest.raises(FileNotFoundError):
        await kernel.history.read_artifact(sha)
