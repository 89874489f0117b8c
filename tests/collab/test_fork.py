"""Fork, fork from this turn, and branch vs. a running turn — real kernel, real SQLite, HTTP fake
provider (Y15–Y21, Y26, Y67)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import PartDelta
from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import (
    ImagePart,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolState,
)
from foya_desktop.core.model import VP, Connection, Phase, ProviderKind
from foya_desktop.engine.kernel import Kernel
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_for, wait_turns

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000") + b"\0" * 16


async def _turn(kernel: Kernel, rec: Recorder, sid: str, text: str, n: int) -> None:
    await kernel.turns.send(sid, text)
    done = await wait_turns(rec, sid, n)
    assert done[-1].status == "completed", done[-1].error


def _msg(sid: str, role: str, turn: str, *parts: object, speaker: str | None = "omni") -> Message:
    return Message(id=new_id("msg"), session_id=sid, role=role, parts=tuple(parts),  # type: ignore[arg-type]
                   speaker=None if role == "user" else speaker, turn_id=turn, created_at=1)


async def test_fork_copies_history_and_settings_not_the_source_state(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """Y16/Y18: history, announcement, roster/default VP, workdir, model/effort, project; source intact."""
    await kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    s = await kernel.sessions.create_session(title="src", workdir=str(project), roster=["omni", "Linus"],
                                    default_vp="Linus", connection="fake", model="m1")
    s = await kernel.sessions.update_session(s.id, announcement="Ship on Friday", reasoning_effort="high")
    fake.script(Reply(text="one"), Reply(text="two"))
    await _turn(kernel, rec, s.id, "first", 1)
    await _turn(kernel, rec, s.id, "second", 2)
    before = await kernel.history.history_page(s.id)
    fork = await kernel.lifecycle.fork(s.id)
    assert (fork.announcement, fork.roster, fork.default_vp, fork.workdir, fork.model, fork.reasoning_effort,
            fork.project_id, fork.connection) == ("Ship on Friday", ("omni", "linus"), "linus", s.workdir,
                                                  "m1", "high", s.project_id, "fake")
    assert fork.origin == f"fork:{s.id}" and fork.parent_id is None
    copied = await kernel.history.history_page(fork.id)
    assert [(m.role, m.text, m.turn_id) for m in copied] == [(m.role, m.text, m.turn_id) for m in before]
    assert await kernel.history.history_page(s.id) == before
    assert await kernel.tasks.list_tasks(fork.id) == []
    await kernel.sessions.update_session(fork.id, announcement="changed in the fork")
    assert (await kernel.sessions.get_session(s.id)).announcement == "Ship on Friday"


async def test_fork_while_generating_stops_before_the_active_input_and_never_stops_the_source(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Y17: while a reply streams, the fork has only the earlier turns; the source completes."""
    s = await kernel.sessions.create_session(title="live")
    fake.script(Reply(text="first answer"), Reply(text="slow " * 80, chunk_size=5, delay_per_chunk=0.02))
    await _turn(kernel, rec, s.id, "first", 1)
    await kernel.turns.send(s.id, "second, slowly")
    await wait_for(lambda: any(isinstance(e, PartDelta) and e.session_id == s.id for e in rec.events))
    fork = await kernel.lifecycle.fork(s.id)
    assert kernel.turns.phase(s.id) == Phase.TURN  # the source was not stopped
    copied = await kernel.history.history_page(fork.id)
    assert [(m.role, m.text) for m in copied] == [("user", "first"), ("assistant", "first answer")]
    done = await wait_turns(rec, s.id, 2)
    assert done[-1].status == "completed"
    assert (await kernel.history.history_page(s.id))[-1].text.startswith("slow slow")


async def test_fork_from_this_turn(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Y20: up to and including the chosen turn, by any of its message ids; not the running turn."""
    s = await kernel.sessions.create_session(title="turns")
    fake.script(Reply(text="a1"), Reply(text="a2"), Reply(text="a3"),
                Reply(text="slow " * 80, chunk_size=5, delay_per_chunk=0.02))
    for i, text in enumerate(("q1", "q2", "q3"), start=1):
        await _turn(kernel, rec, s.id, text, i)
    history = await kernel.history.history_page(s.id)
    fork = await kernel.lifecycle.fork(s.id, from_turn=history[3].id)  # the reply of turn 2
    assert [m.text for m in await kernel.history.history_page(fork.id)] == ["q1", "a1", "q2", "a2"]
    fork = await kernel.lifecycle.fork(s.id, from_turn=history[2].id)  # the question of turn 2: the same turn
    assert [m.text for m in await kernel.history.history_page(fork.id)] == ["q1", "a1", "q2", "a2"]
    await kernel.turns.send(s.id, "q4")
    await wait_for(lambda: len([e for e in rec.events if isinstance(e, PartDelta) and e.session_id == s.id]) > 1)
    running = (await kernel.history.history_page(s.id))[-1]
    assert running.text == "q4"
    with pytest.raises(InvalidOperation, match="still generating"):
        await kernel.lifecycle.fork(s.id, from_turn=running.id)
    fork = await kernel.lifecycle.fork(s.id, from_turn=history[5].id)  # allowed: turn 3 ended before the active input
    assert [m.text for m in await kernel.history.history_page(fork.id)] == ["q1", "a1", "q2", "a2", "q3", "a3"]
    await wait_turns(rec, s.id, 4)


async def test_fork_from_turn_refuses_unclear_boundaries(kernel: Kernel) -> None:
    """No turn id, interleaved turns, or a call whose result comes later: an error, nothing copied."""
    s = await kernel.sessions.create_session(title="odd")
    call = ToolCallPart("c1", "read_file", {"path": "x"}, ToolState.COMPLETED)
    msgs = [_msg(s.id, "user", "", TextPart("legacy")), _msg(s.id, "assistant", "", TextPart("old")),
            _msg(s.id, "user", "t1", TextPart("q1")), _msg(s.id, "assistant", "t1", call),
            _msg(s.id, "tool", "t2", ToolResultPart("c1", "read_file", "x")),
            _msg(s.id, "user", "t3", TextPart("q3")), _msg(s.id, "assistant", "t4", TextPart("a4")),
            _msg(s.id, "assistant", "t3", TextPart("a3"))]
    stored = await kernel.store.import_messages(s.id, msgs)
    count = len(await kernel.sessions.list_sessions())
    with pytest.raises(InvalidOperation, match="no reliable turn id"):
        await kernel.lifecycle.fork(s.id, from_turn=stored[1].id)
    with pytest.raises(InvalidOperation, match="separate a tool call"):
        await kernel.lifecycle.fork(s.id, from_turn=stored[2].id)
    with pytest.raises(InvalidOperation, match="ambiguous"):
        await kernel.lifecycle.fork(s.id, from_turn=stored[5].id)
    assert len(await kernel.sessions.list_sessions()) == count


async def test_branch_never_includes_part_of_a_running_turn(kernel: Kernel, fake: FakeProviderServer,
                                                            rec: Recorder) -> None:
    s = await kernel.sessions.create_session(title="b")
    fake.script(Reply(text="a1"), Reply(text="slow " * 80, chunk_size=5, delay_per_chunk=0.02))
    await _turn(kernel, rec, s.id, "q1", 1)
    await kernel.turns.send(s.id, "q2")
    await wait_for(lambda: len([e for e in rec.events if isinstance(e, PartDelta) and e.session_id == s.id]) > 1)
    # a complete assistant message of the running turn (imported) must not be a branch point
    t2 = (await kernel.history.history_page(s.id))[-1].turn_id
    (partial,) = await kernel.store.import_messages(s.id, [_msg(s.id, "assistant", t2, TextPart("mid"))])
    with pytest.raises(InvalidOperation, match="still running"):
        await kernel.lifecycle.branch(s.id, partial.id)
    await wait_turns(rec, s.id, 2)


async def test_provider_private_continuation_never_crosses_into_the_fork(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Y26: the source's Anthropic thinking signature is kept there and never sent by the fork."""
    await kernel.connections.add_connection(Connection("anth", ProviderKind.ANTHROPIC, fake.base_url, "claude-x"))
    s = await kernel.sessions.create_session(title="think", connection="anth")
    await kernel.store.import_messages(s.id, [
        _msg(s.id, "user", "t1", TextPart("q1")),
        _msg(s.id, "assistant", "t1", ReasoningPart("secret thoughts", signature="SIG-abc"), TextPart("a1"))])
    fork = await kernel.lifecycle.fork(s.id)
    (reasoning,) = [p for m in await kernel.history.history_page(fork.id) for p in m.parts if isinstance(p, ReasoningPart)]
    assert reasoning.signature == "" and reasoning.text == "secret thoughts"
    (kept,) = [p for m in await kernel.history.history_page(s.id) for p in m.parts if isinstance(p, ReasoningPart)]
    assert kept.signature == "SIG-abc"
    fake.script(Reply(text="a2"))
    await _turn(kernel, rec, fork.id, "q2", 1)
    body = json.dumps(fake.requests[-1].body)
    assert "SIG-abc" not in body and "a1" in body


async def test_attachments_available_or_marked_unavailable_and_told_to_the_model(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """Y19/Y67: a readable image stays available; a missing one is marked, and the model is told
    for user images and tool-result images alike."""
    s = await kernel.sessions.create_session(title="img", workdir=str(project))
    good = await kernel.store.put_artifact(PNG, "image/png")
    bad = await kernel.store.put_artifact(PNG + b"x", "image/png")
    kernel.store.files.path_of(bad).unlink()
    call = ToolCallPart("v1", "view_image", {"path": "a.png"}, ToolState.COMPLETED)
    await kernel.store.import_messages(s.id, [
        _msg(s.id, "user", "t1", TextPart("look"), ImagePart(good, "image/png", "good.png"),
             ImagePart(bad, "image/png", "gone.png")),
        _msg(s.id, "assistant", "t1", call),
        _msg(s.id, "tool", "t1", ToolResultPart("v1", "view_image", "an image",
                                                images=(ImagePart(bad, "image/png", "shot.png"),))),
        _msg(s.id, "assistant", "t1", TextPart("seen"))])
    fork = await kernel.lifecycle.fork(s.id)
    copied = await kernel.history.history_page(fork.id)
    assert copied[0].meta["unavailable_attachments"] == [bad]
    assert copied[2].meta["unavailable_attachments"] == [bad]
    assert await kernel.history.read_artifact(good) == PNG
    fake.script(Reply(text="ok"))
    await _turn(kernel, rec, fork.id, "again", 1)
    body = json.dumps(fake.requests[-1].body)
    assert "[image gone.png is no longer available]" in body
    assert "[image shot.png is no longer available]" in body
