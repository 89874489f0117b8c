"""Turns end to end: real kernel, real SQLite, real HTTP to the fake provider."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import MessageAdded, StreamEnded, StreamStarted, TurnStarted
from foya_desktop.core.messages import MessageStatus, ToolState
from foya_desktop.core.model import VP, Phase
from foya_desktop.engine.kernel import Kernel
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_turns


async def test_plain_turn_persists_user_and_reply(kernel: Kernel, fake: FakeProviderServer,
                                                  rec: Recorder) -> None:
    fake.script(Reply(text="Hello there, friend."))
    s = await kernel.sessions.create_session(title="hi")
    assert s.roster == ("omni",) and s.default_vp == "omni"
    receipt = await kernel.turns.send(s.id, "hello")
    assert receipt.message_id and receipt.queue_item_id is None
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    history = await kernel.history.history_page(s.id)
    assert [(m.role, m.speaker, m.text) for m in history] == [
        ("user", None, "hello"), ("assistant", "omni", "Hello there, friend.")]
    assert history[1].status == MessageStatus.COMPLETE
    assert kernel.turns.phase(s.id) == Phase.IDLE
    usage = await kernel.store.usage_totals(s.id)
    assert usage.input_tokens == 10 and usage.output_tokens == 5
    assert fake.requests[0].body["model"] == "fake-model"


def _persona_router(replies: dict[str, list[Reply]]) -> Any:
    def respond(body: dict[str, Any]) -> Reply:
        prompt = system_prompt(body)
        for name, queue in replies.items():
            if f"Your name in this session is {name} " in prompt:
                return queue.pop(0)
        return Reply(text="who am I?")
    return respond


async def test_two_vps_in_parallel_one_uses_a_tool(kernel: Kernel, fake: FakeProviderServer,
                                                   rec: Recorder, project: Path) -> None:
    await kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    await kernel.vps.add_vp(VP("martin", "Martin", "Martin the reviewer", "You review."))
    fake.responder = _persona_router({
        "Linus": [Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], delay_per_chunk=0.02),
                  Reply(text="The readme says hello.", delay_per_chunk=0.01)],
        "Martin": [Reply(text="Looks fine to me, nothing to review yet.", delay_per_chunk=0.02)],
    })
    s = await kernel.sessions.create_session(workdir=str(project), roster=["linus", "martin"], default_vp="linus")
    await kernel.turns.send(s.id, "@Linus @Martin what does the readme say?")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed", done.error
    history = await kernel.store.valid_messages(s.id)
    assert [m.role for m in history].count("user") == 1
    linus = [m for m in history if m.speaker == "linus"]
    assert [m.role for m in linus] == ["assistant", "tool", "assistant"]
    assert linus[0].tool_calls[0].state == ToolState.COMPLETED
    result = linus[1].tool_result
    assert result is not None and "Hello from the readme." in result.content and not result.is_error
    assert linus[2].text == "The readme says hello."
    assert [m.text for m in history if m.speaker == "martin"] == ["Looks fine to me, nothing to review yet."]
    # parallel: both VPs had a stream open before either first stream ended
    order = [(type(e).__name__, e.speaker) for e in rec.events if isinstance(e, (StreamStarted, StreamEnded))]
    first_end = next(i for i, (kind, _) in enumerate(order) if kind == "StreamEnded")
    assert {sp for kind, sp in order[:first_end] if kind == "StreamStarted"} == {"linus", "martin"}
    started = rec.of(TurnStarted)
    assert started[0].targets == ("linus", "martin")  # type: ignore[attr-defined]


async def test_default_vp_gets_unmentioned_messages_and_replies_do_not_route(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    await kernel.vps.add_vp(VP("linus", "Linus", "Linus", "You implement."))
    await kernel.vps.add_vp(VP("martin", "Martin", "Martin", "You review."))
    fake.script(Reply(text="Done. @Martin please review this."))
    s = await kernel.sessions.create_session(roster=["linus", "martin"], default_vp="linus")
    await kernel.turns.send(s.id, "fix it")
    await wait_turns(rec, s.id, 1)
    history = await kernel.store.valid_messages(s.id)
    assert [(m.role, m.speaker) for m in history] == [("user", None), ("assistant", "linus")]
    assert len(fake.requests) == 1


async def test_explicit_roster_is_kept_and_checked(kernel: Kernel) -> None:
    await kernel.vps.add_vp(VP("martin", "Martin", "Martin", "You review."))
    s = await kernel.sessions.create_session(roster=["martin"])
    assert s.roster == ("martin",) and s.default_vp == "martin"
    with pytest.raises(InvalidOperation):
        await kernel.sessions.create_session(roster=["nobody"])
    with pytest.raises(InvalidOperation):
        await kernel.sessions.create_session(roster=["martin"], default_vp="omni")


async def test_tool_confined_to_workdir(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                        project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside.txt"
    secret.write_text("TOP-SECRET-OUTSIDE")
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "../outside.txt"})]),
                Reply(text="I could not read it."))
    s = await kernel.sessions.create_session(workdir=str(project))
    await kernel.turns.send(s.id, "read ../outside.txt")
    await wait_turns(rec, s.id, 1)
    history = await kernel.store.valid_messages(s.id)
    result = history[2].tool_result
    assert result is not None and result.is_error
    assert "TOP-SECRET-OUTSIDE" not in str([r.body for r in fake.requests])


async def test_project_binding_rules(kernel: Kernel, project: Path, tmp_path: Path) -> None:
    bound = await kernel.sessions.create_session(workdir=str(project))
    assert bound.project_id and bound.workdir == str(project.resolve())
    other = tmp_path / "other"
    other.mkdir()
    p2 = await kernel.projects.add_project(str(other))
    with pytest.raises(InvalidOperation, match="cannot be moved"):
        await kernel.sessions.bind_project(bound.id, p2.id)
    loose = await kernel.sessions.create_session()
    assert loose.project_id is None
    moved = await kernel.sessions.bind_project(loose.id, p2.id)
    assert moved.project_id == p2.id and moved.workdir == p2.path
    with pytest.raises(InvalidOperation):
        await kernel.sessions.bind_project(loose.id, bound.project_id)
    with pytest.raises(InvalidOperation):
        await kernel.sessions.update_session(loose.id, workdir="/tmp")


async def test_settings_change_applies_from_next_step(kernel: Kernel, fake: FakeProviderServer,
                                                      rec: Recorder, project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("list_dir", {"path": "."})], chunk_size=2,
                      delay_per_chunk=0.05),
                Reply(text="done"))
    s = await kernel.sessions.create_session(workdir=str(project))
    await kernel.turns.send(s.id, "list")
    from tests.helpers.engine import wait_for
    await wait_for(lambda: len(fake.requests) == 1)
    await kernel.sessions.update_session(s.id, model="other-model")
    await wait_turns(rec, s.id, 1)
    assert [r.body["model"] for r in fake.requests] == ["fake-model", "other-model"]


async def test_user_images_reach_the_provider(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
    fake.script(Reply(text="A tiny image."))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "what is this?", attachments=[("image/png", png)])
    await wait_turns(rec, s.id, 1)
    content = fake.requests[0].body["messages"][-1]["content"]
    kinds = [c["type"] for c in content]
    assert "image_url" in kinds and content[kinds.index("image_url")]["image_url"]["url"].startswith(
        "data:image/png;base64,")
    (user,) = [e.message for e in rec.of(MessageAdded) if e.message.role == "user"]  # type: ignore[attr-defined]
    assert await kernel.history.read_artifact(user.parts[1].artifact) == png


async def test_attachment_type_comes_from_the_bytes_and_non_images_are_refused(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    jpeg = b"\xff\xd8\xff\xe0" + b"\x00" * 32
    fake.script(Reply(text="A photo."))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "look", attachments=[("holiday.jpg", jpeg)])
    await wait_turns(rec, s.id, 1)
    (user,) = [m for m in await kernel.store.valid_messages(s.id) if m.role == "user"]
    assert user.parts[1].mime == "image/jpeg"  # type: ignore[union-attr]
    with pytest.raises(InvalidOperation, match="only images"):
        await kernel.turns.send(s.id, "read this", attachments=[("notes.txt", b"hello")])
