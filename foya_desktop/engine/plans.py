"""Confirming a plan or planning on: the kernel's half of the agent mode (Foya seed F15).

The mode itself, its prompts and the move to ``awaiting_confirmation`` after
a plan turn live in ``engine/session/agent_mode.py``; answering that wait
sends a message, which only the kernel can do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import AgentMode, Session
from foya_desktop.engine.session.agent_mode import CONFIRM_TEXT

if TYPE_CHECKING:
    from foya_desktop.engine.kernel import Kernel, SendReceipt
    from foya_desktop.engine.services import Services


class AgentModeOps:
    """Mixin for the kernel: confirm a plan or keep planning."""

    svc: Services

    async def confirm_plan(self, session_id: str) -> SendReceipt:
        """Switch to ``execute`` and tell the VP to carry out its plan (a new turn, or queued)."""
        await self._awaiting(session_id)
        kernel = cast("Kernel", self)
        await kernel.update_session(session_id, agent_mode=AgentMode.EXECUTE)
        return await kernel.send(session_id, CONFIRM_TEXT)

    async def keep_planning(self, session_id: str) -> Session:
        """Back to ``plan``: the person wants to discuss the plan further."""
        await self._awaiting(session_id)
        return await cast("Kernel", self).update_session(session_id, agent_mode=AgentMode.PLAN)

    async def _awaiting(self, session_id: str) -> None:
        session = await self.svc.store.get_session(session_id)
        if session.agent_mode != AgentMode.AWAITING_CONFIRMATION:
            raise InvalidOperation("There is no plan waiting for confirmation in this session "
                                   f"(agent mode is {session.agent_mode}).")
