"""Turns and the queue: send, stop, interrupt, the plan confirmation; reorder or resume the queue.

A session's runtime state has one owner (``engine/session/owner.py``); these doors only
find the owner and ask it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.messages import ImagePart, Message
from foya_desktop.core.model import AgentMode, Phase, Session
from foya_desktop.core.records import QueueItem
from foya_desktop.engine.agents.vps import roster_of
from foya_desktop.engine.session.agent_mode import CONFIRM_TEXT
from foya_desktop.engine.session.status import TurnStatus, turn_status
from foya_desktop.engine.turn.debug_trace import traces
from foya_desktop.engine.turn.failures import CONTINUE_TEXT, reply_action
from foya_desktop.store.history import get_message, history_page
from foya_desktop.store.sessions import get_session
from foya_desktop.tools.common import image_mime

if TYPE_CHECKING:
    from foya_desktop.engine.areas.sessions import Sessions
    from foya_desktop.engine.services import Services
    from foya_desktop.engine.turn.turns import TurnManager


@dataclass(frozen=True, slots=True)
class SendReceipt:
    """Where a sent message went: straight into a turn, or into the queue."""

    message_id: str | None
    queue_item_id: str | None


def _image_attachment(name: str, data: bytes) -> tuple[str, bytes]:
    """(mime, bytes) of an attached image, its type read from the bytes, never the name."""
    mime = image_mime(data[:16])
    if mime is None:
        raise InvalidOperation(f"{name or 'The attachment'} is not a PNG, JPEG, GIF or WebP image; "
                               "only images can be attached to a message for now.")
    return mime, data


class Turns:
    """Start, stop and watch a session's turns."""

    def __init__(self, svc: Services, manager: TurnManager, sessions: Sessions) -> None:
        self._svc = svc
        self._manager = manager
        self._sessions = sessions

    async def send(self, session_id: str, text: str, *,
                   attachments: Sequence[tuple[str, bytes]] = ()) -> SendReceipt:
        """Start a turn now, or queue the message if the session is busy.

        ``attachments`` are (file name, bytes) pairs; images only (their type is
        read from the bytes).
        """
        if not text.strip() and not attachments:
            raise InvalidOperation("Nothing to send.")
        await self._svc.store.read(get_session, session_id)
        atts = tuple(_image_attachment(name, data) for name, data in attachments)
        sent = await self._manager.owner(session_id).send(text, atts)
        if isinstance(sent, Message):
            return SendReceipt(sent.id, None)
        return SendReceipt(None, sent.id)

    async def act_on_reply(self, session_id: str, message_id: str) -> SendReceipt:
        """*Retry* a failed reply (its turn's message is sent again) or *Continue* one cut off at the
        length limit (its VP is asked to go on), as ``turn.failures.reply_action`` offers: a new turn,
        or queued; nothing already stored is changed (docs/index.md "Honest history")."""
        message = await self._svc.store.read(get_message, message_id)
        action = reply_action(message) if message.session_id == session_id else None
        if action is None:
            raise InvalidOperation("This reply neither failed nor was cut off: there is nothing to retry "
                                   "or continue.")
        if action == "continue":
            roster = await roster_of(self._svc.store, await self._svc.store.read(get_session, session_id))
            vp = next((v for v in roster if v.id == message.speaker), None)
            mention = f"@{vp.name} " if vp is not None and len(roster) > 1 else ""
            return await self.send(session_id, mention + CONTINUE_TEXT)
        asked = await self._turn_message(session_id, message)
        images = [(p.name or "image", await self._svc.store.read(self._svc.store.files.get, p.artifact))
                  for p in asked.parts if isinstance(p, ImagePart)]
        return await self.send(session_id, asked.text, attachments=images)

    async def _turn_message(self, session_id: str, message: Message) -> Message:
        """The person's message that opened ``message``'s turn."""
        before: int | None = message.seq
        while before is not None:
            page = await self._svc.store.read(history_page, session_id, before_seq=before)
            for earlier in reversed(page):
                if earlier.role == "user" and earlier.turn_id == message.turn_id:
                    return earlier
            before = page[0].seq if page else None
        raise InvalidOperation("The message this reply answered is no longer in the session.")

    def phase(self, session_id: str) -> Phase:
        """The kernel-owned phase."""
        owner = self._manager.scheduler.peek(session_id)
        return owner.phase if owner else Phase.IDLE

    async def stop(self, session_id: str, *, keep_queue: bool = True) -> None:
        """Stop the running turn; keep the queue (paused) or clear it."""
        await self._manager.owner(session_id).stop(keep_queue=keep_queue)

    async def stop_vp(self, session_id: str, speaker: str) -> bool:
        """Stop one VP of the running turn (the others go on); ``False`` if it was not running."""
        return await self._manager.owner(session_id).stop_vp(speaker)

    async def interrupt(self, session_id: str, dispatch_item_id: str) -> None:
        """Stop the running turn, then send the chosen queued message next."""
        await self._manager.owner(session_id).interrupt(dispatch_item_id)

    async def wait_idle(self) -> None:
        """Wait until every session is idle with an empty (or paused) queue."""
        await self._manager.scheduler.wait_idle()

    # ---- agent mode (engine/session/agent_mode.py) ----------------------------------------

    async def confirm_plan(self, session_id: str) -> SendReceipt:
        """Switch to ``execute`` and tell the VP to carry out its plan (a new turn, or queued)."""
        await self._awaiting_confirmation(session_id)
        await self._sessions.update_session(session_id, agent_mode=AgentMode.EXECUTE)
        return await self.send(session_id, CONFIRM_TEXT)

    async def keep_planning(self, session_id: str) -> Session:
        """Back to ``plan``: the person wants to discuss the plan further."""
        await self._awaiting_confirmation(session_id)
        return await self._sessions.update_session(session_id, agent_mode=AgentMode.PLAN)

    async def _awaiting_confirmation(self, session_id: str) -> None:
        session = await self._svc.store.read(get_session, session_id)
        if session.agent_mode != AgentMode.AWAITING_CONFIRMATION:
            raise InvalidOperation("There is no plan waiting for confirmation in this session "
                                   f"(agent mode is {session.agent_mode}).")

    # ---- figures and debug -----------------------------------------------------------------

    async def turn_status(self, session_id: str) -> TurnStatus | None:
        """The running or last turn's figures per VP, from the store (``foya sessions status``)."""
        return await turn_status(self._svc.store, session_id)

    async def debug_traces(self, session_id: str, turn_id: str | None = None) -> list[dict[str, Any]]:
        """The session's debug traces (see ``engine.turn.debug_trace``), oldest first."""
        await self._svc.store.read(get_session, session_id)
        return await self._svc.store.read(traces, session_id, turn_id)


class Queue:
    """The messages waiting behind a session's turn (its rules: ``engine/session/queue.py``)."""

    def __init__(self, manager: TurnManager) -> None:
        self._manager = manager

    def items(self, session_id: str) -> tuple[QueueItem, ...]:
        """The queue as it is now."""
        return self._manager.owner(session_id).queue.items

    def move(self, session_id: str, item_id: str, index: int) -> None:
        """Reorder a queued message."""
        self._manager.owner(session_id).queue.move(item_id, index)

    def edit(self, session_id: str, item_id: str, text: str) -> None:
        """Edit a queued message."""
        self._manager.owner(session_id).queue.edit(item_id, text)

    def remove(self, session_id: str, item_id: str) -> None:
        """Remove a queued message."""
        self._manager.owner(session_id).queue.remove(item_id)

    def paused(self, session_id: str) -> bool:
        """Whether the queue waits after a "stop, keep queue"."""
        return self._manager.owner(session_id).paused

    def resume(self, session_id: str) -> None:
        """Let a paused queue run again."""
        self._manager.owner(session_id).resume()
