"""Branch and fork give the new session its history copy-on-write (issue 14): the finished turns are
inherited (``store.history_view``: the same messages, read as the branch's), the rest is copied inside SQLite
(``store.ops_copy``). What the branch reads must be exactly what the message-by-message rules
(``branching.copy_history``) make — but for the inherited messages' ids — and the child's event log must
replay to its projection."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from foya_desktop.core.messages import (
    ImagePart,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolState,
)
from foya_desktop.core.model import Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.branching import copy_history
from foya_desktop.store.artifacts import put_artifact
from foya_desktop.store.events_log import append_event
from foya_desktop.store.history import append_message, invalidate_from, replay, valid_messages
from foya_desktop.store.schema import ArtifactRefRow

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\0" * 16


def _m(sid: str, mid: str, role: str, turn: str, *parts: object, speaker: str | None = "omni",
       meta: dict[str, Any] | None = None) -> Message:
    return Message(id=mid, session_id=sid, role=role, parts=tuple(parts),  # type: ignore[arg-type]
                   speaker=None if role == "user" else speaker, turn_id=turn, created_at=1000 + len(mid),
                   meta=meta or {})


def _shape(m: Message) -> tuple[object, ...]:
    """Everything but the fresh id, the session and the seq."""
    return (m.role, m.speaker, m.parts, m.status, m.turn_id, m.created_at, m.meta)


def _expected(new_id: str, source: list[Message], inherited: int) -> list[Message]:
    """``copy_history`` of ``source``, but its first ``inherited`` messages shared: their own ids and
    meta, no provider signatures."""
    kept = [replace(m, session_id=new_id, parts=tuple(replace(p, signature="") if isinstance(p, ReasoningPart)
                                                      else p for p in m.parts)) for m in source[:inherited]]
    return kept + copy_history(new_id, source[inherited:])


async def _tricky_history(kernel: Kernel, sid: str) -> str:
    """Signed and unsigned reasoning, two dead calls in one message and one in another, an answered call, an
    image, non-ASCII text, earlier meta (a branch of a branch), a rewound stretch in the middle; returns the
    id of the last message (a complete reply: a valid boundary)."""
    sha = await kernel.store.write(put_artifact, kernel.store.files, PNG, "image/png")
    early = [
        _m(sid, "msg_1", "user", "t1", TextPart("héllo 数据 \"quoted\""), ImagePart(sha, "image/png", "a.png")),
        _m(sid, "msg_2", "assistant", "t1", ReasoningPart("thinking", signature="SIG-1"), TextPart("let me"),
           ToolCallPart("c1", "read_file", {"path": "a"}, ToolState.RUNNING),
           ToolCallPart("c2", "run", {"cmd": "ls"}, ToolState.COMPLETED),
           ToolCallPart("c3", "grep", {"q": "x"}, ToolState.PENDING),
           meta={"imported_from": {"session_id": "ses_old", "message_id": "msg_old"}, "k": [1, 2]}),
        _m(sid, "msg_3", "tool", "t1", ToolResultPart("c2", "run", "a.py\n", images=(ImagePart(sha, "image/png"),))),
        _m(sid, "msg_4", "assistant", "t1", TextPart("done")),
        _m(sid, "msg_5", "user", "t2", TextPart("rewound away")),
        _m(sid, "msg_6", "assistant", "t2", TextPart("rewound reply")),
    ]
    for m in early:
        await kernel.store.write(append_message, m)

    def rewind() -> None:
        seq = next(m.seq for m in valid_messages(sid) if m.id == "msg_5")
        invalidate_from(sid, seq)
        append_event(sid, "history_rewound", {"from_seq": seq})
    await kernel.store.write(rewind)
    late = [
        _m(sid, "msg_7", "user", "t3", TextPart("again")),
        _m(sid, "msg_8", "assistant", "t3", ReasoningPart("plain thought"), TextPart("ok"),
           ToolCallPart("c4", "write_file", {"path": "b"}, ToolState.RUNNING), speaker="vp2"),
        _m(sid, "msg_9", "user", "t4", TextPart("next")),
        _m(sid, "msg_10", "assistant", "t4", ReasoningPart("a", signature="S2"), ReasoningPart("b", signature=""),
           TextPart("final")),
    ]
    for m in late:
        await kernel.store.write(append_message, m)
    return "msg_10"


async def test_branch_copy_in_sql_is_exactly_the_message_rules_copy_and_replays(
        kernel: Kernel, session: Session) -> None:
    """Issue 14 (branch of a long session): signatures stripped, dead calls marked error with an interrupted
    result right after their message, meta kept plus ``imported_from`` on copies, rewound messages left
    out, images referenced — the same messages ``copy_history`` builds — and replay equals the projection.
    The first turn holds calls no stop or recovery closed, so the copy starts there; only msg_1 is shared."""
    last = await _tricky_history(kernel, session.id)
    source = await kernel.store.read(valid_messages, session.id)
    assert "msg_5" not in {m.id for m in source}

    branch = await kernel.lifecycle.branch(session.id, last)

    copied = await kernel.store.read(valid_messages, branch.id)
    expected = _expected(branch.id, source, 1)
    assert [_shape(m) for m in copied] == [_shape(m) for m in expected]
    assert [m.role for m in copied] == ["user", "assistant", "tool", "tool", "tool", "assistant", "user",
                                        "assistant", "tool", "user", "assistant"]
    assert copied[0].id == "msg_1" and copied[0].seq == source[0].seq and copied[0].session_id == branch.id
    assert [m.seq for m in copied[1:]] == list(range(source[0].seq + 2, source[0].seq + 1 + len(copied)))
    assert not {m.id for m in copied[1:]} & {m.id for m in source} and len({m.id for m in copied}) == len(copied)
    assert all(m.id.startswith("msg_") and len(m.id) == len("msg_") + 24 for m in copied[1:])
    states = {c.call_id: c.state for m in copied for c in m.tool_calls}
    assert states == {"c1": ToolState.ERROR, "c2": ToolState.COMPLETED, "c3": ToolState.ERROR,
                      "c4": ToolState.ERROR}
    assert [r.call_id for m in copied if (r := m.tool_result)] == ["c1", "c3", "c2", "c4"]
    assert all(not p.signature for m in copied for p in m.parts if isinstance(p, ReasoningPart))
    signed = [p.signature for m in source for p in m.parts if isinstance(p, ReasoningPart)]
    assert signed == ["SIG-1", "", "S2", ""], "the source keeps its transcript"
    assert copied[1].meta["k"] == [1, 2] and copied[1].meta["imported_from"] == {
        "session_id": session.id, "message_id": "msg_2"}

    assert await kernel.store.read(replay, branch.id) == copied
    refs = await kernel.store.read(lambda: [r.artifact_id for r in ArtifactRefRow.select().where(
        ArtifactRefRow.session == branch.id)])
    assert len(refs) == 1


async def test_fork_copy_in_sql_matches_the_rules_and_replays(kernel: Kernel, session: Session) -> None:
    """Issue 14: the fork's SQL copy equals ``copy_history`` of the whole valid history; replay equals it."""
    await _tricky_history(kernel, session.id)
    source = await kernel.store.read(valid_messages, session.id)
    fork = await kernel.lifecycle.fork(session.id)
    copied = await kernel.store.read(valid_messages, fork.id)
    assert [_shape(m) for m in copied] == [_shape(m) for m in _expected(fork.id, source, 1)]
    assert await kernel.store.read(replay, fork.id) == copied


async def test_branch_of_a_branch_points_at_its_direct_source(kernel: Kernel, session: Session) -> None:
    """``imported_from`` names the message copied, also when the source was itself a branch (the second
    branch inherits all but the boundary's turn through the first, which inherits from the source)."""
    last = await _tricky_history(kernel, session.id)
    first = await kernel.lifecycle.branch(session.id, last)
    middle = await kernel.store.read(valid_messages, first.id)
    second = await kernel.lifecycle.branch(first.id, middle[-1].id)
    copied = await kernel.store.read(valid_messages, second.id)
    tail = max(i for i, m in enumerate(middle) if m.role == "user")
    assert [m.id for m in copied[:tail]] == [m.id for m in middle[:tail]]
    assert [m.meta["imported_from"]["message_id"] for m in copied[tail:]] == [m.id for m in middle[tail:]]
    assert [replace(m, id="", session_id="", seq=0, meta={}) for m in copied] == [
        replace(m, id="", session_id="", seq=0, meta={}) for m in middle]
    assert await kernel.store.read(replay, second.id) == copied
