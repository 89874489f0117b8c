"""Compaction: a checkpoint summary that changes only what later requests see.

Manual ("compact now", session idle): summarise every valid message after the
last checkpoint; phase ``compaction`` meanwhile, the session's queue waits.
Automatic (inside a turn): when the next request would exceed the policy's
share of the context window, summarise the history before the current turn,
so the turn itself stays verbatim. Either way a ``compaction_checkpoint``
event and row record the summary and the seq it covers; the timeline keeps
every message and draws a marker there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING

from foya_desktop.core.errors import FoyaError, InvalidOperation
from foya_desktop.core.events import Checkpoint, CompactionCheckpoint, Notice
from foya_desktop.core.llm import LlmMessage, LlmRequest
from foya_desktop.core.messages import ImagePart, Message, TextPart
from foya_desktop.core.model import VP, Phase, Session
from foya_desktop.engine.agents.vps import roster_of
from foya_desktop.engine.request.context_window import compose, estimate_tokens, load_policy
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.claims import claim, release_if_idle
from foya_desktop.engine.session.gate import set_phase
from foya_desktop.engine.turn.scope import TURN_SCOPE
from foya_desktop.engine.turn.step import StepAccumulator
from foya_desktop.store.ops_checkpoints import add_checkpoint, latest_checkpoint, turn_start_seq

if TYPE_CHECKING:
    from foya_desktop.engine.turn.turns import TurnManager

log = logging.getLogger(__name__)

SUMMARY_SYSTEM = (
    "You condense a conversation between a person and AI assistants so that it can continue "
    "without the full transcript. Keep: the person's goals and preferences, decisions made, facts "
    "learned, files read or changed and their current state, commands run and their outcome, open "
    "questions and next steps. Drop pleasantries and repetition. Write plain prose and short lists.")
SUMMARY_ASK = "Write the summary of the conversation above now. Reply with the summary only."
CLIP_RESULT, CLIP_ARGS = 1_500, 500


async def build_request(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str,
                        model: str) -> LlmRequest:
    """The next request for ``vp``; compacts older history first if it would not fit."""
    policy = await load_policy(svc.store)
    request = await compose(svc, session, vp, roster, turn_id, model, policy)
    conn = await svc.providers.connection_for(session)
    if estimate_tokens(request) > policy.threshold * conn.context_window and \
            await auto_compact(svc, session, vp, roster, turn_id):
        request = await compose(svc, session, vp, roster, turn_id, model, policy)
    return request


async def auto_compact(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str) -> bool:
    """Checkpoint everything before the current turn; ``True`` when a (new) checkpoint applies."""
    scope = TURN_SCOPE.get()
    async with scope.compaction_lock if scope else asyncio.Lock():
        current = await svc.store.read(latest_checkpoint, session.id)
        start = await svc.store.read(turn_start_seq, session.id, turn_id)
        if start is None:
            return False
        if current is not None and current.covers_seq >= start - 1:
            return True  # a sibling VP compacted while we waited for the lock
        older = [m for m in await svc.store.valid_messages(session.id, current.covers_seq if current else 0)
                 if m.seq < start]
        if not older:
            return False
        if scope is not None:
            await set_phase(svc, scope.rt, Phase.COMPACTION)
        try:
            summary = await summarise(svc, session, vp, roster, current, older)
        except FoyaError as exc:
            svc.bus.publish(Notice(session.id, "warning", f"Automatic compaction failed: {exc}"))
            return False
        finally:
            if scope is not None:
                await set_phase(svc, scope.rt, Phase.TURN)
        await write_checkpoint(svc, session.id, start - 1, summary, automatic=True)
        return True


async def compact_now(svc: Services, turns: TurnManager, session_id: str) -> Checkpoint:
    """Manual compaction of an idle session; a stop (``kernel.stop``) cancels it."""
    rt = turns.runtime(session_id)
    if rt.busy:
        raise InvalidOperation("The session is busy. Compact it when the turn has finished.")
    session = await svc.store.get_session(session_id)
    await claim(svc.store, session_id, "being compacted")
    if rt.busy:  # a turn of this process started while the claim was written; it holds the claim now
        raise InvalidOperation("The session is busy. Compact it when the turn has finished.")
    done: list[Checkpoint] = []
    task = asyncio.create_task(_manual(svc, session, done), name=f"compact-{session_id}")
    rt.task = task  # busy from here on: messages sent meanwhile are queued
    try:
        await set_phase(svc, rt, Phase.COMPACTION)
        (error,) = await asyncio.gather(task, return_exceptions=True)
    finally:
        if rt.task is task:
            rt.task = None
        await set_phase(svc, rt, Phase.IDLE)
        if not rt.paused:
            await turns.dispatch_next(rt)
        await release_if_idle(svc.store, rt)
    if isinstance(error, asyncio.CancelledError):
        raise InvalidOperation("Compaction was stopped; nothing was changed.")
    if isinstance(error, BaseException):
        raise error
    return done[0]


async def _manual(svc: Services, session: Session, done: list[Checkpoint]) -> None:
    roster = await roster_of(svc.store, session)
    vp = next((v for v in roster if v.id == session.default_vp), roster[0])
    current = await svc.store.read(latest_checkpoint, session.id)
    messages = await svc.store.valid_messages(session.id, current.covers_seq if current else 0)
    if not messages:
        raise InvalidOperation("Nothing new to compact since the last checkpoint.")
    summary = await summarise(svc, session, vp, roster, current, messages)
    done.append(await write_checkpoint(svc, session.id, messages[-1].seq, summary, automatic=False))


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
    transcript = render_transcript(messages, {v.id: v.name for v in roster})
    room = max(4_000, int(conn.context_window * 4 * 0.6))
    if len(transcript) > room:
        transcript = "[… earliest part cut …]\n" + transcript[-room:]
    earlier = f"Summary of what came before:\n{previous.summary}\n\n" if previous else ""
    prompt = f"{earlier}Conversation:\n\n{transcript}\n\n{SUMMARY_ASK}"
    request = LlmRequest(model=model, system=SUMMARY_SYSTEM,
                         messages=(LlmMessage("user", (TextPart(prompt),)),), max_tokens=4096)
    step = StepAccumulator()
    try:
        async with contextlib.aclosing(provider.stream(request)) as stream:
            async for event in stream:
                step.feed(event)
    finally:
        await asyncio.shield(svc.store.record_usage(session.id, "", "compaction", model, step.usage))
    summary = "".join(step.text).strip()
    if not summary:
        raise InvalidOperation("The model returned an empty summary; nothing was compacted.")
    return summary


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
