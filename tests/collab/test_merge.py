"""Merge two sessions on the real kernel and real SQLite (Y22–Y25), plus Hypothesis properties of
the merge plan: common prefix once, whole turns, send-time order, a session merged with its own
fork gives its own history."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import PartDelta
from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import ImagePart, Message, TextPart, ToolCallPart, ToolResultPart, ToolState
from foya_desktop.core.model import VP
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.merging import MergeRefused, plan_merge
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_for, wait_turns

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\0" * 16


def _turn(sid: str, turn: str, at: int, text: str, *, tool: bool = False) -> list[Message]:
    """A whole turn: the person's message, optionally a call and its result, then a reply."""
    out = [Message(new_id("msg"), sid, "user", (TextPart(text),), turn_id=turn, created_at=at)]
    if tool:
        call = ToolCallPart(f"c-{turn}", "read_file", {"path": "x"}, ToolState.COMPLETED)
        out += [Message(new_id("msg"), sid, "assistant", (call,), "omni", turn_id=turn, created_at=at + 1),
                Message(new_id("msg"), sid, "tool", (ToolResultPart(f"c-{turn}", "read_file", "x"),), "omni",
                        turn_id=turn, created_at=at + 2)]
    out.append(Message(new_id("msg"), sid, "assistant", (TextPart(f"re: {text}"),), "omni", turn_id=turn,
                       created_at=at + 3))
    return out


async def _say(kernel: Kernel, rec: Recorder, sid: str, text: str) -> None:
    n = len([e for e in rec.events if type(e).__name__ == "TurnFinished" and e.session_id == sid])
    await kernel.turns.send(sid, text)
    (*_, done) = await wait_turns(rec, sid, n + 1)
    assert done.status == "completed", done.error


async def test_merge_a_fork_back_common_turns_once_then_by_send_time(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, tmp_path: Path) -> None:
    """Y22/Y23/Y24: a new session; A's settings and project; roster union; common turns once."""
    await kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    await kernel.vps.add_vp(VP("", "Martin", "", "You review."))
    fake.responder = lambda body: Reply(text="ok")
    a = await kernel.sessions.create_session(title="A", workdir=str(project), roster=["Linus"], connection="fake",
                                    model="m-a")
    await kernel.sessions.update_session(a.id, announcement="A's notice")
    await _say(kernel, rec, a.id, "shared question")
    b = await kernel.lifecycle.fork(a.id)
    other = tmp_path / "other"
    other.mkdir()
    await kernel.sessions.update_session(b.id, roster=("Linus", "Martin"), announcement="B's notice", model="m-b")
    await _say(kernel, rec, a.id, "only in A")
    await _say(kernel, rec, b.id, "only in B")
    await _say(kernel, rec, a.id, "A again")
    before_a, before_b = await kernel.history.history_page(a.id), await kernel.history.history_page(b.id)
    plan = await kernel.lifecycle.merge_preview(a.id, b.id)
    assert [(t.origin, t.turn.question) for t in plan.turns] == [
        ("common", "shared question"), ("a", "only in A"), ("b", "only in B"), ("a", "A again")]
    merged = await kernel.lifecycle.merge(a.id, b.id)
    assert (merged.workdir, merged.announcement, merged.default_vp, merged.model, merged.project_id) == (
        a.workdir, "A's notice", "linus", "m-a", a.project_id)
    assert merged.roster == ("linus", "martin")
    texts = [m.text for m in await kernel.history.history_page(merged.id) if m.role == "user"]
    assert texts == ["shared question", "only in A", "only in B", "A again"]
    assert await kernel.history.history_page(a.id) == before_a and await kernel.history.history_page(b.id) == before_b
    assert {s.id for s in await kernel.sessions.list_sessions()} >= {a.id, b.id, merged.id}


async def test_identical_question_text_is_not_common_history(kernel: Kernel) -> None:
    a = await kernel.sessions.create_session(title="A")
    b = await kernel.sessions.create_session(title="B")
    await kernel.store.import_messages(a.id, _turn(a.id, "ta", 100, "same words"))
    await kernel.store.import_messages(b.id, _turn(b.id, "tb", 50, "same words"))
    plan = await kernel.lifecycle.merge_preview(a.id, b.id)
    assert [(t.origin, t.turn.turn_id) for t in plan.turns] == [("b", "tb"), ("a", "ta")]
    merged = await kernel.lifecycle.merge(a.id, b.id)
    assert [m.text for m in await kernel.history.history_page(merged.id)] == ["same words", "re: same words"] * 2


async def test_refusals(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Busy sources, ambiguous histories and unreadable common attachments refuse; nothing is made."""
    a = await kernel.sessions.create_session(title="A")
    b = await kernel.sessions.create_session(title="B")
    await kernel.store.import_messages(a.id, _turn(a.id, "t1", 10, "q1") + _turn(a.id, "t2", 20, "q2"))
    await kernel.store.import_messages(b.id, _turn(b.id, "t1", 10, "q1") + _turn(b.id, "t3", 30, "q3")
                                       + _turn(b.id, "t2", 40, "q2"))
    count = len(await kernel.sessions.list_sessions())
    with pytest.raises(MergeRefused, match="share a turn after they diverged"):
        await kernel.lifecycle.merge(a.id, b.id)
    c = await kernel.sessions.create_session(title="C")
    await kernel.store.import_messages(c.id, _turn(c.id, "t1", 10, "q1 edited"))
    with pytest.raises(MergeRefused, match="messages differ"):
        await kernel.lifecycle.merge(a.id, c.id)
    d = await kernel.sessions.create_session(title="D")
    await kernel.store.import_messages(d.id, [Message(new_id("msg"), d.id, "user", (TextPart("old"),))])
    with pytest.raises(MergeRefused, match="without a turn id"):
        await kernel.lifecycle.merge(a.id, d.id)
    e, f = await kernel.sessions.create_session(title="E"), await kernel.sessions.create_session(title="F")
    sha = await kernel.store.put_artifact(PNG, "image/png")
    img = Message(new_id("msg"), e.id, "user", (TextPart("see"), ImagePart(sha, "image/png", "x.png")),
                  turn_id="ti", created_at=5)
    await kernel.store.import_messages(e.id, [img])
    await kernel.store.import_messages(f.id, [Message(new_id("msg"), f.id, "user", img.parts, turn_id="ti",
                                                      created_at=5)])
    kernel.store.files.path_of(sha).write_bytes(PNG + b"tampered")
    with pytest.raises(MergeRefused, match="cannot be read intact"):
        await kernel.lifecycle.merge(e.id, f.id)
    with pytest.raises(InvalidOperation, match="two different sessions"):
        await kernel.lifecycle.merge(a.id, a.id)
    assert len(await kernel.sessions.list_sessions()) == count + 4
    fake.script(Reply(text="slow " * 80, chunk_size=5, delay_per_chunk=0.02))
    await kernel.turns.send(a.id, "busy now")
    await wait_for(lambda: any(isinstance(ev, PartDelta) and ev.session_id == a.id for ev in rec.events))
    with pytest.raises(InvalidOperation, match=r"busy\. Both sessions must be idle"):
        await kernel.lifecycle.merge(b.id, a.id)
    await kernel.turns.stop(a.id, keep_queue=False)


# ---- properties of the plan (pure: no database) ---------------------------------------------------

TURNS = st.lists(st.tuples(st.integers(0, 50), st.booleans()), max_size=6)


def _history(sid: str, prefix: list[tuple[int, bool]], own: list[tuple[int, bool]], tag: str) -> list[Message]:
    out: list[Message] = []
    for i, (_at, tool) in enumerate(prefix):
        out += _turn(sid, f"common{i}", i, f"common {i}", tool=tool)
    for i, (at, tool) in enumerate(own):
        out += _turn(sid, f"{tag}{i}", 100 + at, f"{tag} {i}", tool=tool)
    return out


@settings(max_examples=60, deadline=None)
@given(common=TURNS, a_own=TURNS, b_own=TURNS)
def test_plan_properties(common: list[tuple[int, bool]], a_own: list[tuple[int, bool]],
                         b_own: list[tuple[int, bool]]) -> None:
    a = _history("A", common, sorted(a_own), "a")
    b = _history("B", common, sorted(b_own), "b")
    plan = plan_merge("A", a, "B", b)
    ids = [t.turn.turn_id for t in plan.turns]
    assert len(ids) == len(set(ids))  # every turn once: the common prefix is not repeated
    assert [t.turn.turn_id for t in plan.turns if t.origin == "common"] == [f"common{i}" for i in range(len(common))]
    assert plan.common == len(common)
    rest = [t for t in plan.turns if t.origin != "common"]
    assert [t.turn.sent_at for t in rest] == sorted(t.turn.sent_at for t in rest)  # send-time order
    merged = plan.messages()
    for turn in {m.turn_id for m in merged}:  # whole turns: each turn's messages are contiguous
        spots = [i for i, m in enumerate(merged) if m.turn_id == turn]
        assert spots == list(range(spots[0], spots[-1] + 1))
    assert len(merged) == len(a) + len(b) - sum(len(t.turn.messages) for t in plan.turns if t.origin == "common")


@settings(max_examples=40, deadline=None)
@given(history=TURNS)
def test_merging_a_session_with_its_own_fork_is_its_history(history: list[tuple[int, bool]]) -> None:
    a = _history("A", [], sorted(history), "a")
    fork = [Message(new_id("msg"), "F", m.role, m.parts, m.speaker, m.status, m.turn_id, m.created_at)
            for m in a]
    plan = plan_merge("A", a, "F", fork)
    assert plan.common == len(plan.turns)
    assert [m.id for m in plan.messages()] == [m.id for m in a]


async def test_an_intact_common_attachment_is_carried_into_the_merge(kernel: Kernel) -> None:
    """The image both sides share is checked and referenced by the merged session: it stays
    readable there after both sources are deleted (issue 11: attachments behave as the seed says
    in merge, too)."""
    e, f = await kernel.sessions.create_session(title="E"), await kernel.sessions.create_session(title="F")
    sha = await kernel.store.put_artifact(PNG, "image/png")
    img = Message(new_id("msg"), e.id, "user", (TextPart("see"), ImagePart(sha, "image/png", "x.png")),
                  turn_id="ti", created_at=5)
    await kernel.store.import_messages(e.id, [img])
    await kernel.store.import_messages(f.id, [Message(new_id("msg"), f.id, "user", img.parts, turn_id="ti",
                                                      created_at=5)])
    merged = await kernel.lifecycle.merge(e.id, f.id)
    (first,) = await kernel.history.history_page(merged.id)
    images = [p for p in first.parts if isinstance(p, ImagePart)]
    assert [(p.artifact, p.name) for p in images] == [(sha, "x.png")]
    await kernel.lifecycle.delete_session(e.id)
    await kernel.lifecycle.delete_session(f.id)
    assert await kernel.store.read_artifact(sha) == PNG
