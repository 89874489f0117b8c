"""The compaction summary: ask the session's model to condense history, and record it.

A checkpoint's ``summary`` stands in for every message up to ``covers_seq``
in later requests (``context_window.compose``); the timeline keeps every
message and draws a marker there. Manual compaction (``ops/compaction.py``)
and automatic compaction (``build.py``) both end here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import CompactionCheckpoint
from foya_desktop.core.llm import LlmMessage, LlmRequest
from foya_desktop.core.messages import ImagePart, Message, TextPart
from foya_desktop.core.model import VP, Session
from foya_desktop.core.records import Checkpoint
from foya_desktop.engine.request.context_window import reply_tokens
from foya_desktop.engine.request.step import StepAccumulator
from foya_desktop.engine.services import Services
from foya_desktop.store.history import history_page
from foya_desktop.store.ledger import record_usage
from foya_desktop.store.ops_checkpoints import add_checkpoint

SUMMARY_SYSTEM = (
    "You condense a conversation between a person and AI assistants so that it can continue "
    "without the full transcript. Keep: the person's goals and preferences, decisions made, facts "
    "learned, files read or changed and their current state, commands run and their outcome, open "
    "questions and next steps. Drop pleasantries and repetition. Write plain prose and short lists.")
SUMMARY_TOKENS = 4_096
"""The most a summary may take; less when the window leaves less (``reply_tokens``)."""
SUMMARY_ASK = "Write the summary of the conversation above now. Reply with the summary only."
CLIP_RESULT, CLIP_ARGS = 1_500, 500
TAIL_CHUNK = 250
"""Messages read per step while collecting the part of the history a summary can carry."""


async def write_checkpoint(svc: Services, session_id: str, covers_seq: int, summary: str, *,
                           automatic: bool) -> Checkpoint:
    """Persist a checkpoint, then announce it."""
    checkpoint = await asyncio.shield(svc.store.write(add_checkpoint, session_id, covers_seq, summary,
                                                      automatic))
    svc.bus.publish(CompactionCheckpoint(session_id, checkpoint))
    return checkpoint


async def summarise(svc: Services, session: Session, vp: VP, roster: list[VP],
                    previous: Checkpoint | None, messages: list[Message]) -> str:
    """Ask the session's model for a summary of ``previous`` + ``messages`` (no tools offered)."""
    provider, model = await svc.providers.resolve(session, vp)
    conn = await svc.providers.connection_for(session)
    # NOTE: on a worker thread, not the loop (the GUI thread in the window).
    transcript = await asyncio.to_thread(render_transcript, messages, {v.id: v.name for v in roster})
    room = transcript_room(conn.context_window)
    if len(transcript) > room:
        transcript = "[… earliest part cut …]\n" + transcript[-room:]
    earlier = f"Summary of what came before:\n{previous.summary}\n\n" if previous else ""
    prompt = f"{earlier}Conversation:\n\n{transcript}\n\n{SUMMARY_ASK}"
    request = LlmRequest(model=model, system=SUMMARY_SYSTEM,
                         messages=(LlmMessage("user", (TextPart(prompt),)),),
                         max_tokens=min(SUMMARY_TOKENS, reply_tokens(conn.context_window, len(prompt) // 4)))
    step = StepAccumulator()
    try:
        async with contextlib.aclosing(provider.stream(request)) as stream:
            async for event in stream:
                step.feed(event)
    finally:
        await asyncio.shield(svc.store.write(record_usage, session.id, "", "compaction", model, step.usage))
    summary = "".join(step.text).strip()
    if not summary:
        raise InvalidOperation("The model returned an empty summary; nothing was compacted.")
    return summary


def transcript_room(context_window: int) -> int:
    """Characters of transcript a summary request carries (its newest part; the rest is cut)."""
    return max(4_000, int(context_window * 4 * 0.6))


async def summary_tail(svc: Services, session_id: str, after_seq: int, before_seq: int,
                       names: dict[str, str], room: int) -> list[Message]:
    """The valid messages with ``after_seq < seq < before_seq`` that ``summarise`` can use: read
    newest first, a chunk at a time, only until their transcript is longer than ``room`` (the
    summary keeps that much of its end), so the summary of a 50,000-message session reads a few
    hundred, not all of them (issue 14). ``summarise`` sees the same transcript as with all."""
    chunks: list[list[Message]] = []
    rendered: list[int] = []
    before = before_seq
    while True:
        page = await svc.store.read(history_page, session_id, before_seq=before, limit=TAIL_CHUNK)
        chunk = [m for m in page if m.seq > after_seq]
        if chunk:
            chunks.insert(0, chunk)
            text = await asyncio.to_thread(render_transcript, chunk, names)
            if text:
                rendered.append(len(text))
        if len(chunk) < TAIL_CHUNK or sum(rendered) + 2 * (len(rendered) - 1) > room:
            return [m for c in chunks for m in c]
        before = chunk[0].seq


def render_transcript(messages: list[Message], names: dict[str, str]) -> str:
    """The history as plain text: who said what, which tools ran and (clipped) what they returned."""
    lines: list[str] = []
    for m in messages:
        who = "Person" if m.role == "user" else names.get(m.speaker or "", m.speaker or "assistant")
        result = m.tool_result
        if result is not None:
            flag = " (error)" if result.is_error else ""
            lines.append(f"[{who} ← {result.name}{flag}] {_clip(result.content, CLIP_RESULT)}")
            continue
        if m.text:
            lines.append(f"[{who}] {m.text}")
        lines += [f"[{who} → {c.name}] {_clip(json.dumps(c.arguments, ensure_ascii=False), CLIP_ARGS)}"
                  for c in m.tool_calls]
        lines += [f"[{who} attached image {p.name or p.artifact[:12]}]"
                  for p in m.parts if isinstance(p, ImagePart)]
    return "\n\n".join(lines)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]} […{len(text) - limit} more characters]"
