"""Copy-on-write history (issue 14: branch and fork ≤ 2× from 500 to 50,000 messages): a branch or fork
inherits its source's finished turns instead of copying them (``store.history_view``). These tests prove
that it stores only the boundary's turn, that every read sees the whole history as its own (pages,
counts, search, replay, outline), and that nothing the source does later — a rewind, its deletion —
changes what the branch reads (Y16: the two evolve independently; F28–F30)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from foya_desktop.core.errors import NotFound
from foya_desktop.core.messages import ImagePart, Message, ReasoningPart, TextPart
from foya_desktop.core.model import Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.artifacts import put_artifact
from foya_desktop.store.history import (
    append_messages,
    get_message,
    history_page,
    message_count,
    replay,
    valid_messages,
)
from foya_desktop.store.ops_delete import leftover_rows
from foya_desktop.store.outline import session_outline
from foya_desktop.store.schema import MessageRow, database_proxy
from foya_desktop.store.search import SearchQuery, search, session_matches
from tests.durability.crash_model import rewound_away
from tests.lifecycle.conftest import Say


def _turns(sid: str, count: int, word: str = "turn") -> list[Message]:
    """``count`` finished turns (a user message and a signed reply each), turn ids t0, t1, …"""
    out: list[Message] = []
    for i in range(count):
        out.append(Message(f"msg_{word}_u{i}", sid, "user", (TextPart(f"{word} question {i}"),), turn_id=f"t{i}"))
        out.append(Message(f"msg_{word}_a{i}", sid, "assistant",
                           (ReasoningPart("thought", signature=f"SIG{i}"), TextPart(f"{word} answer {i}")),
                           speaker="omni", turn_id=f"t{i}"))
    return out


def _stored_rows(session_id: str) -> int:
    return int(MessageRow.select().where(MessageRow.session == session_id).count())


def _texts(messages: list[Message]) -> list[tuple[str, str]]:
    return [(m.id, m.text) for m in messages]


async def test_a_branch_stores_only_the_boundary_turn_and_reads_the_whole_history_as_its_own(
        kernel: Kernel, session: Session) -> None:
    await kernel.store.write(append_messages, session.id, _turns(session.id, 30))
    source = await kernel.store.read(valid_messages, session.id)
    branch = await kernel.lifecycle.branch(session.id, source[-1].id)

    assert await kernel.store.read(_stored_rows, branch.id) == 2, "29 finished turns inherited, not copied"
    got = await kernel.store.read(valid_messages, branch.id)
    assert [m.text for m in got] == [m.text for m in source]
    assert [m.id for m in got[:-2]] == [m.id for m in source[:-2]]
    assert {m.session_id for m in got} == {branch.id}
    assert all(not p.signature for m in got for p in m.parts if isinstance(p, ReasoningPart)), "Y26"
    assert await kernel.store.read(message_count, branch.id) == 60
    # pages cross from the branch's own rows into the inherited ones without a gap or a repeat
    newest = await kernel.store.read(history_page, branch.id, None, 7)
    older = await kernel.store.read(history_page, branch.id, newest[0].seq, 7)
    assert _texts(older + newest) == _texts(got[-14:])
    assert await kernel.store.read(valid_messages, branch.id, got[40].seq, 5) == got[41:46]
    assert await kernel.store.read(replay, branch.id) == got
    assert [e.message_id for e in await kernel.store.read(session_outline, branch.id)][:2] == [
        got[0].id, got[1].id]
    # the source is untouched: its signatures and ids stay
    assert await kernel.store.read(valid_messages, session.id) == source


async def test_search_in_a_branch_finds_what_it_inherited_as_its_own(kernel: Kernel, session: Session) -> None:
    await kernel.store.write(append_messages, session.id, _turns(session.id, 5))
    source = await kernel.store.read(valid_messages, session.id)
    branch = await kernel.lifecycle.branch(session.id, source[-1].id)
    hits = await kernel.store.read(search, SearchQuery("question 1", session_id=branch.id))
    assert [(h.message_id, h.session_id, h.session_title) for h in hits] == [
        ("msg_turn_u1", branch.id, branch.title)]
    own_reply = (await kernel.store.read(valid_messages, branch.id))[-1].id  # the copied boundary turn's
    assert await kernel.store.read(session_matches, branch.id, "answer") == [
        *[m.id for m in source[1:-2:2]], own_reply]
    everywhere = await kernel.store.read(search, SearchQuery("question 1"))
    assert [h.session_id for h in everywhere] == [session.id], "stored once, found where it is stored"


async def _three_turns_and_a_branch(kernel: Kernel, session: Session, say: Say) -> tuple[list[Message], Session]:
    """Three real turns in the session and a branch after the last reply (inheriting the first two)."""
    for text in ("one", "two", "three"):
        await say(text)
    source = await kernel.store.read(valid_messages, session.id)
    return source, await kernel.lifecycle.branch(session.id, source[-1].id)


async def test_rewinding_the_source_leaves_the_branch_its_history(
        kernel: Kernel, session: Session, say: Say) -> None:
    source, branch = await _three_turns_and_a_branch(kernel, session, say)
    before = await kernel.store.read(valid_messages, branch.id)

    target = next(m for m in source if m.text == "two")
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    await kernel.lifecycle.rewind_confirm(session.id, preview)

    assert [m.text for m in await kernel.store.read(valid_messages, session.id)] == ["one", "reply to: one"]
    assert await kernel.store.read(valid_messages, branch.id) == before
    assert await kernel.store.read(replay, branch.id) == before
    assert await kernel.store.read(replay, session.id) == await kernel.store.read(valid_messages, session.id)
    await say("four")  # the source goes on on its own
    assert await kernel.store.read(valid_messages, branch.id) == before


async def test_messages_rewound_out_of_the_source_go_with_the_branch_that_kept_them(
        kernel: Kernel, session: Session, say: Say) -> None:
    """A rewind hands the rewound messages a branch still shows over to the branch; deleting the
    branch later takes them with it, and the source's history and log stay whole (the crash test
    saw this sequence: ``crash_model.rewound_away``)."""
    source, branch = await _three_turns_and_a_branch(kernel, session, say)
    target = next(m for m in source if m.text == "two")
    gone = [m.id for m in source if m.seq >= target.seq]
    preview = await kernel.lifecycle.rewind_preview(session.id, target.id)
    await kernel.lifecycle.rewind_confirm(session.id, preview)
    kept = await kernel.store.read(valid_messages, session.id)

    await kernel.lifecycle.delete_session(branch.id)

    assert await kernel.store.read(valid_messages, session.id) == kept
    assert await kernel.store.read(replay, session.id) == kept
    missing = []
    for mid in gone:
        assert await kernel.store.read(rewound_away, session.id, mid)
        try:
            await kernel.store.read(get_message, mid)
        except NotFound:
            missing.append(mid)
    assert missing, "the branch took the rewound messages it showed with it"
    assert not await kernel.store.read(rewound_away, session.id, kept[0].id)


async def test_rewinding_a_branch_into_what_it_inherited_changes_only_the_branch(
        kernel: Kernel, session: Session, say: Say) -> None:
    source, branch = await _three_turns_and_a_branch(kernel, session, say)
    target = next(m for m in await kernel.store.read(valid_messages, branch.id) if m.text == "two")

    preview = await kernel.lifecycle.rewind_preview(branch.id, target.id)
    assert preview.messages_removed == 4
    await kernel.lifecycle.rewind_confirm(branch.id, preview)

    got = await kernel.store.read(valid_messages, branch.id)
    assert [m.text for m in got] == ["one", "reply to: one"]
    assert await kernel.store.read(replay, branch.id) == got
    assert await kernel.store.read(valid_messages, session.id) == source


async def test_deleting_the_source_hands_its_messages_to_every_branch(kernel: Kernel, session: Session) -> None:
    """A branch and a fork with different boundaries, and a branch of the branch: after the source is
    deleted each reads exactly what it read before, nothing of the source is left, the search index
    follows the messages to the session that now stores them."""
    await kernel.store.write(append_messages, session.id, _turns(session.id, 12))
    source = await kernel.store.read(valid_messages, session.id)
    early = await kernel.lifecycle.branch(session.id, source[9].id)  # inherits turns 0-3
    late = await kernel.lifecycle.fork(session.id)  # inherits turns 0-10
    late_msgs = await kernel.store.read(valid_messages, late.id)
    grandchild = await kernel.lifecycle.branch(late.id, late_msgs[15].id)  # turns 0-6 through ``late``
    views = {s.id: await kernel.store.read(valid_messages, s.id) for s in (early, late, grandchild)}

    await kernel.lifecycle.delete_session(session.id)

    assert await kernel.store.read(leftover_rows, session.id) == {}
    for sid, messages in views.items():
        assert await kernel.store.read(valid_messages, sid) == messages
        assert await kernel.store.read(replay, sid) == messages
    hits = await kernel.store.read(search, SearchQuery("question 2"))
    assert [h.session_id for h in hits] == [late.id], "moved to the fork, which inherited the most"
    assert [h.message_id for h in await kernel.store.read(search, SearchQuery(
        "question 2", session_id=early.id))] == ["msg_turn_u2"]

    await kernel.lifecycle.delete_session(late.id)  # now the fork's inheritors get what they need
    for sid in (early.id, grandchild.id):
        assert await kernel.store.read(valid_messages, sid) == views[sid]


async def test_a_fork_marks_unreadable_attachments_of_what_it_inherits(kernel: Kernel, session: Session) -> None:
    """Y19 for inherited messages: an image whose blob no longer matches its hash is listed in the fork's
    ``unavailable_attachments``, the readable one is not; the source is unchanged."""
    good = await kernel.store.write(put_artifact, kernel.store.files, b"\x89PNG good", "image/png")
    bad = await kernel.store.write(put_artifact, kernel.store.files, b"\x89PNG bad", "image/png")
    first = Message("msg_img", session.id, "user", (TextPart("see"), ImagePart(good, "image/png"),
                                                     ImagePart(bad, "image/png")), turn_id="t0")
    await kernel.store.write(append_messages, session.id, [first, *_turns(session.id, 3)[1:]])
    kernel.store.files.path_of(bad).write_bytes(b"changed on disk")
    fork = await kernel.lifecycle.fork(session.id)
    got = await kernel.store.read(valid_messages, fork.id)
    assert got[0].id == "msg_img" and got[0].meta.get("unavailable_attachments") == [bad]
    assert "unavailable_attachments" not in (await kernel.store.read(valid_messages, session.id))[0].meta


def _vm_steps(call: Callable[[], object]) -> int:
    """SQLite virtual-machine instructions (in hundreds) that ``call`` runs: a count of the work
    a query does, repeatable on any machine (no clock)."""
    steps = 0

    def tick() -> int:
        nonlocal steps
        steps += 1
        return 0
    connection = database_proxy.connection()
    connection.set_progress_handler(tick, 100)
    try:
        call()
    finally:
        connection.set_progress_handler(None, 0)
    return steps


async def test_a_page_of_inherited_history_costs_the_same_however_much_is_inherited(
        kernel: Kernel, session: Session) -> None:
    """The pages of a branch near the start of what it inherits are one index range each, like a
    plain session's: the work does not grow with the inherited history. It did: the page's
    ``seq < X`` and the inherited stretch's ``seq <= base_seq`` were two upper bounds, SQLite ranges
    over one, and a one-row page before an early message walked the whole stretch (opening a branch
    of a 50,000-message session looked for its first message with ~20 such pages: 80 ms)."""
    small = await kernel.sessions.create_session(title="small")
    await kernel.store.write(append_messages, small.id, _turns(small.id, 20, "small"))
    await kernel.store.write(append_messages, session.id, _turns(session.id, 2000, "large"))
    costs = []
    for source in (small.id, session.id):
        messages = await kernel.store.read(valid_messages, source)
        branch = await kernel.lifecycle.branch(source, messages[-1].id)
        first = messages[0].seq
        page = await kernel.store.read(history_page, branch.id, messages[1].seq, 1)
        assert [m.id for m in page] == [messages[0].id]
        assert await kernel.store.read(history_page, branch.id, first, 1) == []
        costs.append(await kernel.store.read(_vm_steps, functools.partial(history_page, branch.id, first, 1)))
    assert costs[1] <= costs[0] + 5, costs  # 40 inherited messages or 4,000: the same few steps
