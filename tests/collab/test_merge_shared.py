"""A merge of two sessions whose histories begin with the same stored rows (a session and its branch)
inherits that part copy-on-write (issue 14; ``engine/ops/merging.py``): it must give exactly what
merging the two whole histories by the rules gives (Y22–Y25), store only what follows the shared
part, and keep every refusal the rules make about the shared part."""

from __future__ import annotations

from dataclasses import replace

import pytest

from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import ImagePart, Message, ReasoningPart, TextPart
from foya_desktop.core.model import Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.branching import copy_history
from foya_desktop.engine.ops.merging import MergeRefused, plan_merge
from foya_desktop.store.artifacts import put_artifact
from foya_desktop.store.history import append_messages, replay, valid_messages
from foya_desktop.store.schema import MessageRow


def _turns(sid: str, start: int, count: int, word: str, *, turn_ids: bool = True) -> list[Message]:
    out: list[Message] = []
    for i in range(start, start + count):
        turn = f"t-{word}-{i}" if turn_ids else ""
        out.append(Message(new_id("msg"), sid, "user", (TextPart(f"{word} q{i}"),), turn_id=turn,
                           created_at=1000 + 10 * i))
        out.append(Message(new_id("msg"), sid, "assistant", (ReasoningPart("hm", signature=f"S{i}"),
                                                               TextPart(f"{word} a{i}")), "omni",
                           turn_id=turn, created_at=1001 + 10 * i))
    return out


def _stored(session_id: str) -> int:
    return int(MessageRow.select().where(MessageRow.session == session_id).count())


def _shape(m: Message) -> tuple[object, ...]:
    return (m.role, m.speaker, m.text, m.turn_id, m.created_at,
            tuple(p for p in m.parts if not isinstance(p, ReasoningPart)))


async def _session_and_branch(kernel: Kernel, turns: int, *, untagged: int = 0) -> tuple[Session, Session]:
    """A session of ``turns`` turns (the first ``untagged`` without turn ids, as old records have) and a
    branch after its last reply with two turns of its own; the session then gets one more turn too."""
    a = await kernel.sessions.create_session(title="A")
    await kernel.store.write(append_messages, a.id, _turns(a.id, 0, untagged, "old", turn_ids=False)
                             + _turns(a.id, untagged, turns - untagged, "a"))
    last = (await kernel.store.read(valid_messages, a.id))[-1]
    b = await kernel.lifecycle.branch(a.id, last.id)
    await kernel.store.write(append_messages, b.id, _turns(b.id, turns, 2, "b"))
    await kernel.store.write(append_messages, a.id, _turns(a.id, turns + 5, 1, "a"))
    return a, b


async def test_merging_a_session_with_its_branch_inherits_the_shared_turns(kernel: Kernel) -> None:
    a, b = await _session_and_branch(kernel, 40)
    whole_a = await kernel.store.read(valid_messages, a.id)
    whole_b = await kernel.store.read(valid_messages, b.id)
    expected = copy_history("x", plan_merge(a.id, whole_a, b.id, whole_b).messages())

    merged = await kernel.lifecycle.merge(a.id, b.id)

    got = await kernel.store.read(valid_messages, merged.id)
    assert [_shape(m) for m in got] == [_shape(m) for m in expected]
    assert [m.id for m in got[:78]] == [m.id for m in whole_a[:78]], "39 shared turns inherited from A"
    assert all(not p.signature for m in got for p in m.parts if isinstance(p, ReasoningPart)), "Y26"
    # stored: the copied boundary turn (2), B's two turns (4), A's later turn (2)
    assert await kernel.store.read(_stored, merged.id) == 8
    assert await kernel.store.read(replay, merged.id) == got
    # neither source changes, and deleting both leaves the merged session whole
    assert await kernel.store.read(valid_messages, a.id) == whole_a
    await kernel.lifecycle.delete_session(a.id)
    await kernel.lifecycle.delete_session(b.id)
    assert await kernel.store.read(valid_messages, merged.id) == got


async def test_a_shared_part_the_rules_refuse_is_still_refused(kernel: Kernel) -> None:
    """Messages without a turn id in the shared turns only: the merge reads the whole histories and
    refuses as it always did, instead of inheriting what it cannot group."""
    a, b = await _session_and_branch(kernel, 5, untagged=2)
    with pytest.raises(MergeRefused, match="without a turn id"):
        await kernel.lifecycle.merge(a.id, b.id)


async def test_an_unreadable_attachment_in_the_shared_part_refuses_the_merge(kernel: Kernel) -> None:
    a = await kernel.sessions.create_session(title="A")
    sha = await kernel.store.write(put_artifact, kernel.store.files, b"\x89PNG bytes", "image/png")
    first = _turns(a.id, 0, 3, "a")
    first[0] = replace(first[0], parts=(*first[0].parts, ImagePart(sha, "image/png")))
    await kernel.store.write(append_messages, a.id, first)
    b = await kernel.lifecycle.branch(a.id, first[-1].id)
    await kernel.store.write(append_messages, b.id, _turns(b.id, 3, 1, "b"))
    kernel.store.files.path_of(sha).write_bytes(b"damaged")
    with pytest.raises(MergeRefused, match="cannot be read"):
        await kernel.lifecycle.merge(a.id, b.id)
