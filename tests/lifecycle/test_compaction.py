"""Compaction: a checkpoint summary changes what later requests see, never the timeline."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import CompactionCheckpoint, PhaseChanged
from foya_desktop.core.llm import LlmMessage
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Connection, ProviderKind, Session
from foya_desktop.engine.agents.vps import roster_of
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.request import context_window
from foya_desktop.engine.request.context import ContextCompiler
from foya_desktop.engine.request.context_window import (
    SUMMARY_HEADING,
    CompactionPolicy,
    compose,
    estimate_tokens,
)
from foya_desktop.engine.request.summary import SUMMARY_SYSTEM
from foya_desktop.store.history import valid_messages
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_for
from tests.lifecycle.conftest import Say


def _sent(fake: FakeProviderServer, index: int = -1) -> tuple[str, list[str]]:
    body = fake.requests[index].body
    texts = [m["content"] if isinstance(m["content"], str) else "".join(
        c.get("text", "") for c in m["content"]) for m in body["messages"] if m["role"] != "system"]
    return system_prompt(body), texts


async def test_compact_now_summarises_and_later_requests_start_from_the_summary(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say, rec: Recorder) -> None:
    await say("first question")
    await say("second question")
    checkpoint = await kernel.lifecycle.compact(session.id)
    system, texts = _sent(fake)
    assert system == SUMMARY_SYSTEM and "first question" in texts[0] and "second question" in texts[0]
    assert checkpoint.summary.startswith("SUMMARY of") and not checkpoint.automatic
    messages = await kernel.store.read(valid_messages, session.id)
    assert checkpoint.covers_seq == messages[-1].seq
    phases = [e.phase for e in rec.of(PhaseChanged) if e.session_id == session.id]  # type: ignore[attr-defined]
    assert phases[-2:] == ["compaction", "idle"]
    assert rec.of(CompactionCheckpoint)[-1] == CompactionCheckpoint(session.id, checkpoint)
    assert await kernel.lifecycle.checkpoints(session.id) == [checkpoint]

    await say("third question")
    system, texts = _sent(fake)
    assert f"{SUMMARY_HEADING}\n{checkpoint.summary}" in system
    assert texts == ["third question"]
    assert len(await kernel.store.read(valid_messages, session.id)) == 6  # the timeline keeps everything
    await kernel.lifecycle.compact(session.id)
    with pytest.raises(InvalidOperation, match="Nothing new"):
        await kernel.lifecycle.compact(session.id)


async def test_automatic_compaction_keeps_the_current_turn_verbatim(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say, rec: Recorder) -> None:
    for i in range(4):
        await say(f"question {i} " + "padding " * 60)
    current = await kernel.sessions.get_session(session.id)
    roster = await roster_of(kernel.store, current)
    now = estimate_tokens(await compose(kernel.svc, current, roster[0], roster, "", "m", CompactionPolicy()))
    window = int((now + 300) / 0.8)  # the next message (+600 tokens) will not fit, the history did
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model",
                                           context_window=window))
    await kernel.sessions.update_session(session.id, connection="fake")
    assert await kernel.lifecycle.checkpoints(session.id) == []
    await say("the last question " + "padding " * 300)
    (checkpoint,) = await kernel.lifecycle.checkpoints(session.id)
    assert checkpoint.automatic
    user = [m for m in await kernel.store.read(valid_messages, session.id) if m.role == "user"][-1]
    assert checkpoint.covers_seq == user.seq - 1
    system, texts = _sent(fake)
    assert SUMMARY_HEADING in system and texts == [user.text]
    assert "compaction" in [e.phase for e in rec.of(PhaseChanged)]  # type: ignore[attr-defined]
    assert _sent(fake, -2)[0] == SUMMARY_SYSTEM


async def test_old_tool_outputs_are_elided_from_requests_not_from_the_store(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say, project: Path) -> None:
    await kernel.lifecycle.set_compaction_policy(tool_output_budget=600)  # 2,400 characters
    (project / "big.txt").write_text("x" * 2_000)
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "big.txt"}, id="r1")]),
                Reply(text="read it"),
                Reply(tool_calls=[ToolCallSpec("read_file", {"path": "big.txt"}, id="r2")]),
                Reply(text="read it again"))
    await say("read it")
    await say("read it again")
    await say("and now?")
    tool_msgs = [m for m in fake.requests[-1].body["messages"] if m["role"] == "tool"]
    assert "elided" in tool_msgs[0]["content"] and "x" * 1000 in tool_msgs[1]["content"]
    stored = [m.tool_result for m in await kernel.store.read(valid_messages, session.id) if m.tool_result]
    assert all(r is not None and "x" * 1000 in r.content for r in stored)


async def test_compaction_refused_while_busy_and_stoppable(
        kernel: Kernel, fake: FakeProviderServer, session: Session, say: Say, rec: Recorder) -> None:
    await say("hello")
    fake.script(Reply(text="slow " * 100, chunk_size=5, delay_per_chunk=0.02))
    await kernel.turns.send(session.id, "busy")
    with pytest.raises(InvalidOperation, match="busy"):
        await kernel.lifecycle.compact(session.id)
    await kernel.turns.stop(session.id, keep_queue=False)
    fake.script(Reply(text="slow summary " * 100, chunk_size=5, delay_per_chunk=0.02))
    job = asyncio.create_task(kernel.lifecycle.compact(session.id))
    await wait_for(lambda: kernel.turns.phase(session.id) == "compaction")
    queued = await kernel.turns.send(session.id, "waits for the compaction")
    assert queued.queue_item_id is not None
    await kernel.turns.stop(session.id, keep_queue=False)
    with pytest.raises(InvalidOperation, match="stopped"):
        await job
    assert await kernel.lifecycle.checkpoints(session.id) == []
    assert kernel.turns.phase(session.id) == "idle"


async def test_the_request_history_is_compiled_once_per_step_off_the_event_loop_thread(
        kernel: Kernel, session: Session, say: Say, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: compiling the history for a request never runs on the loop thread (the GUI
    thread in the window: the first message into a 50,000-message session froze it), once per
    step, and in chunks of at most ``READ_CHUNK`` messages."""
    feeds: list[tuple[threading.Thread, int]] = []
    finishes: list[threading.Thread] = []
    real_feed, real_finish = ContextCompiler.feed, ContextCompiler.finish

    def feed(self: ContextCompiler, messages: list[Message]) -> None:
        feeds.append((threading.current_thread(), len(messages)))
        real_feed(self, messages)

    def finish(self: ContextCompiler) -> list[LlmMessage]:
        finishes.append(threading.current_thread())
        return real_finish(self)

    monkeypatch.setattr(ContextCompiler, "feed", feed)
    monkeypatch.setattr(ContextCompiler, "finish", finish)
    monkeypatch.setattr(context_window, "READ_CHUNK", 2)
    loop_thread = threading.current_thread()
    await say("first question")
    assert len(finishes) == 1 and [n for _t, n in feeds] == [1]
    await say("second question")
    assert len(finishes) == 2 and [n for _t, n in feeds] == [1, 2, 1]  # 3 messages, chunks of 2
    assert loop_thread not in finishes + [t for t, _n in feeds]
