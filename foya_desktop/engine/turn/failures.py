"""What a failed or cut-off reply leaves in the session, and what the window offers on it.

docs/index.md "Honest history": a turn that failed is never silent and a cut reply is never shown as
complete. So every VP run that fails leaves a row saying why (a failure row: an assistant
message with status ``error``, no parts, ``meta[FAILED_TURN]`` = the error's code), unless what
it streamed before failing is already kept with the reason (``interrupted``). A reply that ended
at the length limit is kept ``interrupted`` with ``meta["interrupted_reason"] = CUT_AT_LIMIT``: the
decoders hand it on as ``Finish("length")`` from OpenAI's ``finish_reason: "length"`` ("the maximum
number of tokens specified in the request was reached", its API spec; llama.cpp and the other local
servers say the same when a reply meets ``max_tokens`` or the slot's end) and from Anthropic's
``stop_reason: "max_tokens"``.

The window offers *Retry* on a failure (the turn's message is sent again) and *Continue* on a
cut reply (the VP is asked to go on); both are new turns, nothing is rewritten.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from foya_desktop.core.events import MessageAdded
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, MessageStatus
from foya_desktop.engine.request.context import CUT_AT_LIMIT, FAILED_TURN
from foya_desktop.engine.services import Services
from foya_desktop.store.history import append_message

CONTINUE_TEXT = "Continue from exactly where your reply was cut off."
"""What *Continue* sends (addressed to the VP whose reply was cut, when the session has several)."""

__all__ = ["CONTINUE_TEXT", "CUT_AT_LIMIT", "FAILED_TURN", "ReplyAction", "record_failure", "reply_action"]

ReplyAction = Literal["retry", "continue"]


def reply_action(message: Message) -> ReplyAction | None:
    """What the window offers under ``message``: Continue on a cut reply, Retry on a failure (a
    failure row, or a reply kept after the request failed); ``None`` otherwise (a Stop is no
    failure)."""
    if message.role != "assistant":
        return None
    reason = str(message.meta.get("interrupted_reason") or "")
    if message.status == MessageStatus.INTERRUPTED:
        if reason == CUT_AT_LIMIT:
            return "continue"
        return None if reason in ("", "stopped") else "retry"
    if message.status == MessageStatus.ERROR and message.meta.get(FAILED_TURN):
        return "retry"
    return None


async def record_failure(svc: Services, session_id: str, turn_id: str, speaker: str, error: str,
                         code: str) -> Message:
    """Store and announce the failure row of one VP's failed run."""
    row = Message(id=new_id("msg"), session_id=session_id, role="assistant", parts=(), speaker=speaker,
                  status=MessageStatus.ERROR, turn_id=turn_id, created_at=now_ms(),
                  meta={"error": error, FAILED_TURN: code or "error"})
    stored = await asyncio.shield(svc.store.write(append_message, row))
    svc.bus.publish(MessageAdded(stored.session_id, stored))
    return stored
