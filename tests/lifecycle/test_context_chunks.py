"""A long history is read and compiled a chunk at a time, once per request (issue 14): the same
request as compiling it whole, and compaction of a history that is surely too long reads only
the part a summary can carry."""

from __future__ import annotations

import pytest

from foya_desktop.core.events import Notice
from foya_desktop.core.messages import Message, TextPart, ToolCallPart, ToolResultPart, ToolState
from foya_desktop.core.model import VP, Connection, ProviderKind, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.request import summary
from foya_desktop.engine.request.context import ContextCompiler, compile_messages
from foya_desktop.engine.request.context_window import SUMMARY_HEADING
from foya_desktop.engine.request.summary import SUMMARY_SYSTEM, render_transcript, summary_tail
from foya_desktop.store.context_reads import text_chars_between
from foya_desktop.store.history import valid_messages
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder
from tests.lifecycle.conftest import Say

OMNI = VP(id="omni", name="Omni", display_name="Omni", soul="")


def _history() -> list[Message]:
    """Own tool traffic across chunk borders, an unanswered call, another VP's notes."""
    call = ToolCallPart("c1", "read_file", {"path": "a.py"}, ToolState.COMPLETED)
    lost = ToolCallPart("c2", "read_file", {"path": "b.py"}, ToolState.RUNNING)
    parts: list[tuple[str, str | None, tuple[object, ...]]] = [
        ("user", None, (TextPart("first"),)),
        ("assistant", "omni", (TextPart("reading"), call)),
        ("tool", "omni", (ToolResultPart("c1", "read_file", "contents"),)),
        ("assistant", "linus", (TextPart("a note from Linus"),)),
        ("assistant", "linus", (TextPart("and another"),)),
        ("assistant", "omni", (lost,)),
        ("user", None, (TextPart("second"),)),
        ("assistant", "omni", (TextPart("done"),)),
    ]
    return [Message(f"m{i}", "s", role, p, speaker=speaker, seq=i + 1, turn_id="t1")  # type: ignore[arg-type]
            for i, (role, speaker, p) in enumerate(parts)]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
def test_compiling_in_chunks_gives_the_same_messages_as_compiling_whole(size: int) -> None:
    history = _history()
    whole = compile_messages(history, OMNI, {"linus": "Linus"}, lambda _sha: b"")
    compiler = ContextCompiler(OMNI, {"linus": "Linus"}, lambda _sha: b"")
    for start in range(0, len(history), size):
        compiler.feed(history[start:start + size])
    assert compiler.finish() == whole
    assert [m.role for m in whole] == ["user", "assistant", "tool", "user", "assistant", "tool",
                                       "user", "assistant"]


async def test_chunked_reads_and_the_text_bound_see_exactly_the_valid_history(
        kernel: Kernel, session: Session, say: Say) -> None:
    for i in range(3):
        await say(f"question {i}")
    everything = await kernel.store.read(valid_messages, session.id)
    chunks, after = [], 0
    while chunk := await kernel.store.read(valid_messages, session.id, after, 2):
        chunks += chunk
        after = chunk[-1].seq
    assert chunks == everything
    texts = sum(len(m.text) for m in everything if m.role != "tool")
    last = everything[-1].seq
    assert await kernel.store.read(text_chars_between, session.id, 0, last + 1) == texts
    assert await kernel.store.read(text_chars_between, session.id, everything[0].seq, last + 1) == \
        texts - len(everything[0].text)


async def test_the_summary_reads_only_the_tail_it_can_carry_and_sees_the_same_transcript(
        kernel: Kernel, session: Session, say: Say, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(8):
        await say(f"question {i} " + "padding " * 20)
    everything = await kernel.store.read(valid_messages, session.id)
    monkeypatch.setattr(summary, "TAIL_CHUNK", 2)
    names = {"omni": "Omni"}
    full = render_transcript(everything, names)
    for room in (100, 700, len(full) - 1, len(full), 10 * len(full)):
        tail = await summary_tail(kernel.svc, session.id, 0, everything[-1].seq + 1, names, room)
        text = render_transcript(tail, names)
        assert tail == everything[-len(tail):]
        assert text[-room:] == full[-room:] and (len(text) > room or tail == everything)
        if room < len(full) // 2:
            assert len(tail) < len(everything)
    after = everything[3].seq
    tail = await summary_tail(kernel.svc, session.id, after, everything[-1].seq + 1, names, 10 * len(full))
    assert tail == everything[4:]


async def test_a_history_surely_too_long_is_compacted_before_it_is_compiled_and_compiled_once(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14, F27, Y61: the first message into a long session compacts it without decoding the
    whole history twice; the request then carries the summary and the current turn only."""
    for i in range(6):
        await say(f"question {i} " + "padding " * 100)
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url,
                                                       "fake-model", context_window=1_000))
    await kernel.sessions.update_session(session.id, connection="fake")
    fed: list[list[Message]] = []
    real_feed = ContextCompiler.feed

    def feed(self: ContextCompiler, messages: list[Message]) -> None:
        fed.append(messages)
        real_feed(self, messages)

    monkeypatch.setattr(ContextCompiler, "feed", feed)
    await say("the last question")
    (checkpoint,) = await kernel.lifecycle.checkpoints(session.id)
    user = [m for m in await kernel.store.read(valid_messages, session.id) if m.role == "user"][-1]
    assert checkpoint.automatic and checkpoint.covers_seq == user.seq - 1
    assert [m.id for chunk in fed for m in chunk][:1] == [user.id]  # compiled from the checkpoint only
    assert fake.requests[-2].body["messages"][0]["content"] == SUMMARY_SYSTEM
    summary_prompt = fake.requests[-2].body["messages"][1]["content"]
    assert "question 5" in summary_prompt and "the last question" not in summary_prompt
    body = fake.requests[-1].body["messages"]
    assert SUMMARY_HEADING in body[0]["content"] and checkpoint.summary in body[0]["content"]
    assert [m["content"] for m in body[1:]] == ["the last question"]


async def test_a_failed_compaction_of_a_surely_too_long_history_is_tried_once_per_step(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say, rec: Recorder) -> None:
    """The request then goes with the history as it is (the provider decides), one notice."""
    for i in range(6):
        await say(f"question {i} " + "padding " * 100)
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url,
                                                       "fake-model", context_window=1_000))
    await kernel.sessions.update_session(session.id, connection="fake")
    before = len(fake.requests)
    fake.script(Reply(text=""), Reply(text="answered anyway"))  # an empty summary fails
    await say("the last question")
    assert await kernel.lifecycle.checkpoints(session.id) == []
    failed = [e for e in rec.of(Notice) if e.code == "compaction_failed"]  # type: ignore[attr-defined]
    assert len(failed) == 1 and len(fake.requests) == before + 2
    sent = [m["content"] for m in fake.requests[-1].body["messages"] if m["role"] == "user"]
    assert sent[0].startswith("question 0") and sent[-1] == "the last question"
