"""The turn runner: one VP's agent loop for one user message.

model step → persist the reply → run its tool calls (through the gate) →
persist results → next step, until the VP stops calling tools or reaches
its step limit. A request the server refuses as longer than its context window is sent once
more after compaction (``request.build.fit_after_overflow``); a reply cut at the length limit
ends the run, kept and marked so (``turn.failures``). A step whose tool calls the model got
wrong (``call_checks``), or whose reply the server could not read (``UnreadableReply``), does not end
the turn: the model is told what failed and tries again; only a model that
keeps failing meets the step limit, and that end says so.

Settings are read from the database before every model
request and again before every tool call (never cached: another ``foya``
process may change them), so a change of connection, model, effort or
approval mode applies to the very next request or call, never to a request
in flight (Foya seed F22-F24). A sub-agent's child session is held to its parent's
approval and agent modes (``store.ops_children.session_in_effect``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from foya_desktop.core.errors import ContextTooLong, FoyaError, ProviderError, ReplyCutOff, UnreadableReply
from foya_desktop.core.events import (
    DeltaKind,
    MessageAdded,
    MessageUpdated,
    PartDelta,
    StreamEnded,
    StreamStarted,
    VPState,
    VPStatus,
)
from foya_desktop.core.figures import FigureCounter, Usage
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.llm import LlmRequest, ReasoningDelta, TextDelta, ToolCallDelta
from foya_desktop.core.messages import Message, MessageStatus, Part, ToolCallPart, ToolState
from foya_desktop.core.model import VP, Session
from foya_desktop.engine.request.build import build_request, fit_after_overflow
from foya_desktop.engine.request.context import UNREADABLE_REPLY
from foya_desktop.engine.request.step import StepAccumulator
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.owner import SessionOwner
from foya_desktop.engine.turn.debug_trace import StepTiming, record_step, record_tool
from foya_desktop.engine.turn.failures import CUT_AT_LIMIT
from foya_desktop.engine.turn.tool_exec import (
    ClosedHow,
    ToolRun,
    TurnStopped,
    Unreadable,
    interrupted_result,
    run_tool_call,
)
from foya_desktop.store.history import append_message, complete_tool_call, update_message
from foya_desktop.store.ledger import request_ended, request_started
from foya_desktop.store.ops_children import session_in_effect

log = logging.getLogger(__name__)


@dataclass
class VPRun:
    """One VP's share of a turn, with its counters."""

    session_id: str
    turn_id: str
    vp: VP
    roster: list[VP]
    owner: SessionOwner
    """The session's owner: automatic compaction shows its phase through it."""
    compaction_lock: asyncio.Lock
    """Shared by the parallel VPs of one turn, so they compact once, not twice."""
    counter: FigureCounter = field(default_factory=FigureCounter)
    """Live figures for the status line; dropped with the run (never kept as history)."""
    failure_shown: bool = False
    """A stored message already says why this run ended (a cut reply, what streamed before a
    failure): no failure row is added for it (``turn.failures``)."""

    @property
    def usage(self) -> Usage:
        """What the provider reported for this run's requests."""
        return self.counter.usage


class StepLimitReached(FoyaError):
    """The VP used all its model steps without finishing."""


async def run_vp(svc: Services, run: VPRun) -> None:
    """Loop model steps and tools until done; raises ``ProviderError``/``TurnStopped``."""
    _status(svc, run, "running")
    failing = 0  # steps in a row that ran nothing: all calls malformed, or an unreadable reply
    overflowed = False  # a context-length refusal is recovered from once per run
    for _ in range(run.vp.max_steps):
        session = await svc.store.read(session_in_effect, run.session_id)
        try:
            message, unreadable = await _model_step(svc, run, session)
        except ContextTooLong as exc:
            if overflowed or run.failure_shown or not await fit_after_overflow(
                    svc, session, run.vp, run.roster, run.turn_id, run.owner, run.compaction_lock,
                    exc.window):
                raise
            overflowed = True
            message, unreadable = await _model_step(
                svc, run, await svc.store.read(session_in_effect, run.session_id))
        if message.meta.get(UNREADABLE_REPLY):
            failing += 1
            continue
        if not message.tool_calls:
            _status(svc, run, "done")
            return
        failing = failing + 1 if await _run_tools(svc, run, message, unreadable) else 0
    raise _step_limit(run.vp, failing)


KEPT_FAILING = 2
"""Failed steps in a row at the limit from which its sentence blames the failing calls."""


def _step_limit(vp: VP, failing: int) -> StepLimitReached:
    if failing < KEPT_FAILING:
        return StepLimitReached(f"{vp.name} reached its limit of {vp.max_steps} steps.",
                                vp=vp.name, max_steps=vp.max_steps)
    return StepLimitReached(
        f"{vp.name} reached its limit of {vp.max_steps} steps because its tool calls kept failing: in "
        f"the last {failing} steps it sent none that could run (each failure was returned to it).",
        code="step_limit_failing_calls", vp=vp.name, max_steps=vp.max_steps, failing=failing)


async def _model_step(svc: Services, run: VPRun,
                      session: Session) -> tuple[Message, dict[str, Unreadable]]:
    """The model's reply, stored, and its calls whose arguments could not be read.

    A reply the server could not read (``UnreadableReply``) is stored as a failed reply saying
    so (``MessageStatus.ERROR``, the ``UNREADABLE_REPLY`` meta): the next request tells the model
    what failed (``request.context``) instead of the turn ending.
    """
    provider, model = await svc.providers.resolve(session, run.vp)
    connection = (await svc.providers.connection_for(session)).name
    request = await _build_request(svc, run, session, model)
    timing, retries_before = StepTiming(now_ms()), svc.providers.retries.get(run.session_id, 0)
    error = ""
    unreadable_reply: UnreadableReply | None = None
    step = StepAccumulator()
    message_id = new_id("msg")  # the stream is named by the message it becomes
    svc.bus.publish(StreamStarted(run.session_id, message_id, run.vp.id, run.turn_id))
    # recorded as sent, so `foya sessions status` in another process counts it as the window does
    ledger_row = await asyncio.shield(svc.store.write(request_started, run.session_id, run.turn_id,
                                                      run.vp.id, model, connection))
    run.counter.request()
    _status(svc, run, "running")
    try:
        async with contextlib.aclosing(provider.stream(request)) as stream:
            async for event in stream:
                timing.first_byte = timing.first_byte or now_ms()
                step.feed(event)
                _publish_delta(svc, run, message_id, event)
    except UnreadableReply as exc:  # the model wrote wrongly: tell it (below), the turn goes on
        error, unreadable_reply = str(exc), exc
    except (asyncio.CancelledError, ProviderError) as exc:
        error = "stopped" if isinstance(exc, asyncio.CancelledError) else str(exc)
        await _keep_partial(svc, run, message_id, step, exc)
        raise
    finally:
        timing.ended = now_ms()
        svc.bus.publish(StreamEnded(run.session_id, message_id, run.vp.id))
        run.counter.reported(step.usage)
        await asyncio.shield(svc.store.write(request_ended, ledger_row, step.usage))
        await asyncio.shield(record_step(
            svc, run.session_id, run.turn_id, run.vp.id, session.workdir, connection=connection,
            request=request, usage=step.usage, stop_reason=step.finish, timing=timing,
            retries=svc.providers.retries.get(run.session_id, 0) - retries_before, error=error))
    _status(svc, run, "running")  # the request's tokens now, not after its tool calls (or approvals)
    if unreadable_reply is not None:
        said = (f"Not readable as a tool call or text; {run.vp.name} was told and may try again — "
                f"{unreadable_reply}")
        failed = _message(run, message_id, step.partial(), MessageStatus.ERROR, model=model, error=said,
                          **{UNREADABLE_REPLY: str(unreadable_reply)})
        return await _persist(svc, failed), {}
    if step.finish == "length":
        raise await _cut_off(svc, run, message_id, step, model, request.max_tokens)
    message = _message(run, message_id, step.parts(), MessageStatus.COMPLETE, model=model)
    return await _persist(svc, message), step.unreadable


async def _cut_off(svc: Services, run: VPRun, message_id: str, step: StepAccumulator, model: str,
                   max_tokens: int) -> ReplyCutOff:
    """Keep a reply that ended at the length limit as cut off (never complete, docs/index.md "Honest
    history"), without its tool calls (the last one's arguments may be cut too), and the error that
    ends this VP's run: the person may ask it to continue."""
    cut = _message(run, message_id, step.partial(), MessageStatus.INTERRUPTED, model=model,
                   interrupted_reason=CUT_AT_LIMIT)
    await _persist(svc, cut)
    run.failure_shown = True
    return ReplyCutOff(f"{run.vp.name}'s reply was cut off at the length limit ({max_tokens:,} tokens); "
                       "ask it to continue.", vp=run.vp.name, max_tokens=max_tokens)


async def _build_request(svc: Services, run: VPRun, session: Session, model: str) -> LlmRequest:
    """Checkpoint summary + history after it, within the context window (see ``request/build.py``)."""
    return await build_request(svc, session, run.vp, run.roster, run.turn_id, model, run.owner,
                               run.compaction_lock)


DELTA_KINDS: dict[type, DeltaKind] = {TextDelta: "text", ReasoningDelta: "reasoning",
                                      ToolCallDelta: "tool_args"}


def _publish_delta(svc: Services, run: VPRun, message_id: str, event: object) -> None:
    kind = DELTA_KINDS.get(type(event))
    if kind is not None:
        text = event.fragment if isinstance(event, ToolCallDelta) else getattr(event, "text", "")
        svc.bus.publish(PartDelta(run.session_id, message_id, run.vp.id, kind, text))


async def _keep_partial(svc: Services, run: VPRun, message_id: str, step: StepAccumulator,
                        exc: BaseException) -> None:
    """Keep what streamed before a stop or failure, marked interrupted (never complete)."""
    parts = step.partial()
    if not parts:
        return
    reason = "stopped" if isinstance(exc, asyncio.CancelledError) else str(exc)
    message = _message(run, message_id, parts, MessageStatus.INTERRUPTED, interrupted_reason=reason)
    await asyncio.shield(_persist(svc, message))
    run.failure_shown = True


async def _run_tools(svc: Services, run: VPRun, message: Message,
                     unreadable: Mapping[str, Unreadable]) -> bool:
    """Run the step's calls in order; whether every one was malformed (nothing could run)."""
    calls = message.tool_calls
    all_malformed = True
    for n, call in enumerate(calls):
        session = await svc.store.read(session_in_effect, run.session_id)  # the settings as they are now
        message = await _set_call_state(svc, message, call, ToolState.RUNNING)
        started = now_ms()
        try:
            result = await run_tool_call(svc, session, run.vp, run.turn_id, call,
                                         unreadable.get(call.call_id))
        except (asyncio.CancelledError, TurnStopped) as stop:
            how: ClosedHow = "denied" if isinstance(stop, TurnStopped) else "interrupted"
            await asyncio.shield(_close_calls(svc, run, session, message, calls[n:], how))
            raise
        outcome = result.message.tool_result
        failed = outcome is not None and outcome.is_error
        run.counter.tool(call.name, json.dumps(call.arguments, sort_keys=True), blocked=result.blocked,
                         failed=failed, output=outcome.content if outcome else "",
                         at=result.message.created_at)
        await asyncio.shield(record_tool(
            svc, run.session_id, run.turn_id, run.vp.id, session.workdir, call=call,
            result=outcome.content if outcome else "", is_error=failed, blocked=result.blocked,
            started=started))
        state = ToolState.ERROR if failed else ToolState.COMPLETED
        message = await _finish_call(svc, message, call, state, result)
        all_malformed = all_malformed and result.malformed
        _status(svc, run, "running")
    return all_malformed


async def _close_calls(svc: Services, run: VPRun, session: Session, message: Message,
                       calls: tuple[ToolCallPart, ...] | list[ToolCallPart], how: ClosedHow) -> None:
    """The turn stops at ``calls[0]`` (stopped or rejected): it and every later call get a result.

    NOTE: without one, a rejected call stayed "running" and the calls after a stopped one stayed
    "pending" until the next start-up repaired them (the timeline showed "running…" meanwhile).
    """
    for i, call in enumerate(calls):
        closed = interrupted_result(session, run.vp, run.turn_id, call, how if i == 0 else "not_started")
        message = await _finish_call(svc, message, call, ToolState.ERROR, ToolRun(closed))


async def _set_call_state(svc: Services, message: Message, call: ToolCallPart,
                          state: ToolState) -> Message:
    updated = _with_state(message, call, state)
    stored = await asyncio.shield(svc.store.write(update_message, updated))
    svc.bus.publish(MessageUpdated(stored.session_id, stored))
    return stored


async def _finish_call(svc: Services, message: Message, call: ToolCallPart, state: ToolState,
                       result: ToolRun) -> Message:
    """Persist the result and the call's final state in one transaction."""
    updated = _with_state(message, call, state)
    stored_call, stored_result = await asyncio.shield(
        svc.store.write(complete_tool_call, updated, result.message, result.changes))
    svc.bus.publish(MessageAdded(stored_result.session_id, stored_result))
    svc.bus.publish(MessageUpdated(stored_call.session_id, stored_call))
    return stored_call


def _with_state(message: Message, call: ToolCallPart, state: ToolState) -> Message:
    parts = tuple(replace(p, state=state) if isinstance(p, ToolCallPart) and p.call_id == call.call_id
                  else p for p in message.parts)
    return replace(message, parts=parts)


def _message(run: VPRun, message_id: str, parts: tuple[Part, ...], status: MessageStatus,
             **meta: str) -> Message:
    return Message(id=message_id, session_id=run.session_id, role="assistant",
                   parts=parts, speaker=run.vp.id, status=status,
                   turn_id=run.turn_id, created_at=now_ms(), meta=dict(meta))


async def _persist(svc: Services, message: Message) -> Message:
    stored = await asyncio.shield(svc.store.write(append_message, message))
    svc.bus.publish(MessageAdded(stored.session_id, stored))
    return stored


def _status(svc: Services, run: VPRun, state: VPState, error: str = "", code: str = "",
            params: Mapping[str, object] | None = None) -> None:
    figures = run.counter.snapshot()
    svc.bus.publish(VPStatus(run.session_id, run.turn_id, run.vp.id, state, figures.requests,
                             figures.executions, figures.failures, error, figures, code, dict(params or {})))


def publish_status(svc: Services, run: VPRun, state: VPState, error: str = "", *, code: str = "",
                   params: Mapping[str, object] | None = None) -> None:
    """Public form of the status event for the scheduler's final word (an error with its code)."""
    _status(svc, run, state, error, code, params)
