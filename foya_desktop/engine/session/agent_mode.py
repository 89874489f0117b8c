"""Agent mode: what the agent may do, separate from the phase (Foya seed F15).

* ``execute`` — as configured by the approval mode.
* ``plan`` — read and discuss only: the toolbox offers no tool that writes
  files, runs commands or starts sub-agents (``toolbox.planning``) and the
  system prompt says so. A turn that ends normally in plan mode moves the
  session to ``awaiting_confirmation``.
* ``awaiting_confirmation`` — the VP has stopped after its plan; the person
  either confirms (``execute`` and a message telling the VP to carry the plan
  out) or keeps planning (back to ``plan``). Tools stay read-only meanwhile.

A request like "investigate first, don't change code" in a message is not a
sandbox (Yeaft seed); this mode is. Confirming or keeping on planning is the
kernel's (``Kernel.confirm_plan``/``keep_planning``).
"""

from __future__ import annotations

from foya_desktop.core.events import SessionChanged
from foya_desktop.core.model import AgentMode, Session
from foya_desktop.engine.bus import EventBus
from foya_desktop.store.sessions import get_session, update_session
from foya_desktop.store.store import Store

PLAN_PROMPT = (
    "Plan mode: investigate and propose a plan. You may read files, list and search the project and "
    "discuss, but you have no tool that writes files, runs commands or starts sub-agents, and you "
    "must not ask for one. End with a clear, numbered plan; the person confirms it before anything "
    "is changed."
)
AWAITING_PROMPT = (
    "The person has not confirmed your plan yet: keep to reading and discussing (no writes, commands "
    "or sub-agents) and refine the plan if asked."
)
CONFIRM_TEXT = "Plan confirmed. Carry it out now."
"""The message a confirmation sends, so the timeline shows why the VP started acting."""


def mode_prompt(session: Session) -> str:
    """The system-prompt paragraph for the session's agent mode ('' in execute mode)."""
    if session.agent_mode == AgentMode.PLAN:
        return PLAN_PROMPT
    if session.agent_mode == AgentMode.AWAITING_CONFIRMATION:
        return AWAITING_PROMPT
    return ""


async def after_turn(store: Store, bus: EventBus, session_id: str, status: str) -> None:
    """A plan turn that completed waits for the person's confirmation."""
    session = await store.read(get_session, session_id)
    if status != "completed" or session.agent_mode != AgentMode.PLAN:
        return
    changed = await store.write(update_session, session_id, {"agent_mode": AgentMode.AWAITING_CONFIRMATION})
    bus.publish(SessionChanged(changed.id, changed))
