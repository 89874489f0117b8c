"""The awaitable approval broker: pending requests the window answers by id.

An ``ask`` verdict of the policy (``engine/permissions/policy.py``) becomes an
:class:`ApprovalRequested` event that the window answers; with nobody to ask
(``foya run``), ask means deny.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from foya_desktop.core.events import ApprovalRequested, ApprovalResolved
from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import ToolCallPart
from foya_desktop.engine.bus import EventBus
from foya_desktop.tools.base import Action

AnswerKind = Literal["once", "session", "always", "deny"]


@dataclass(frozen=True, slots=True)
class Answer:
    """The person's answer to one approval request."""

    kind: AnswerKind
    feedback: str = ""



@dataclass
class _Pending:
    event: ApprovalRequested
    future: asyncio.Future[Answer]


@dataclass
class ApprovalBroker:
    """Pending approval requests as futures; the UI answers them by id."""

    bus: EventBus
    interactive: bool = False
    """True while a window is attached that can answer."""
    _pending: dict[str, _Pending] = field(default_factory=dict)

    async def ask(self, session_id: str, speaker: str, call: ToolCallPart, action: Action,
                  reason: str, can_always: bool, code: str = "",
                  params: Mapping[str, object] | None = None, can_session: bool = True) -> Answer:
        """Publish a request and wait for the answer (deny at once when nobody can answer)."""
        if not self.interactive:
            if action.kind == "memory":  # every mode asks for the user scope: no mode helps here
                return Answer("deny", f"This needs approval ({reason}), and there is no window to ask. "
                                      "Tell the person instead; they can save it with `foya memory add`.")
            return Answer("deny", f"This needs approval ({reason}), and there is no window to "
                                  "ask. Re-run with a more permissive --approval mode.")
        request_id = new_id("apr")
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        event = ApprovalRequested(
            session_id, request_id, speaker, call.name, dict(call.arguments), action.summary,
            action.command, action.diff, tuple(str(p) for p in action.paths), reason, can_always,
            call.call_id, code, dict(params or {}), can_session)
        self._pending[request_id] = _Pending(event, future)
        self.bus.publish(event)
        try:
            return await future
        finally:
            self._pending.pop(request_id, None)
            self.bus.publish(ApprovalResolved(session_id, request_id,
                                              future.result().kind if future.done()
                                              and not future.cancelled() else "cancelled"))

    def answer(self, request_id: str, answer: Answer) -> bool:
        """Resolve a pending request; ``False`` if it no longer exists."""
        pending = self._pending.get(request_id)
        if pending is None or pending.future.done():
            return False
        pending.future.set_result(answer)
        return True

    def pending_requests(self, session_id: str) -> list[ApprovalRequested]:
        """Requests still waiting in a session, oldest first."""
        return [p.event for p in self._pending.values() if p.event.session_id == session_id]
