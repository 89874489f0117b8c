"""RouteForward: a VP hands a message to another VP of the same session (Yeaft "Handoff").

The ``route_forward`` tool is offered to every VP of a multi-VP session. A call
is checked (target on the roster, not the caller, hop limit not reached) and
booked for the running turn; its result — stored in the sender's turn block —
records the route. When the sender's run ends, the turn manager starts the
target's run in the same turn; the target sees the routed message at the place
of the sender's call (``engine.context``), and streams with its own speaker id.
A text ``@mention`` in a reply routes nothing: only this tool does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from foya_desktop.core.model import VP

__all__ = ["MAX_HOPS", "ROUTE_FORWARD", "Handoff", "RouteBook", "RouteForwardTool", "route_target"]
from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_str

ROUTE_FORWARD = "route_forward"
"""The hand-off tool's name (the request compiler reads its calls and results)."""

MAX_HOPS = 4
"""Hand-offs allowed per user turn: enough for implement → review → fix → re-review, and a
stop to two VPs handing one message back and forth for ever."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "vp": {"type": "string", "description": "Name of the VP on this session's roster to hand to."},
        "message": {"type": "string", "description": "What that VP should do, self-contained."},
    },
    "required": ["vp", "message"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class Handoff:
    """One booked route: who sent what to whom, from which call."""

    sender: str
    target: str
    message: str
    call_id: str


@dataclass
class _TurnRoutes:
    turn_id: str
    roster: list[VP]
    booked: list[Handoff] = field(default_factory=list)
    hops: int = 0


class RouteBook:
    """Routes of the running turn of each session (a session runs one turn at a time)."""

    def __init__(self) -> None:
        self._open: dict[str, _TurnRoutes] = {}

    def open(self, session_id: str, turn_id: str, roster: list[VP]) -> None:
        """A turn starts (before its user message is stored): routes booked now belong to it."""
        self._open[session_id] = _TurnRoutes(turn_id, roster)

    def close(self, session_id: str) -> None:
        """The turn ended; anything still booked is dropped with it."""
        self._open.pop(session_id, None)

    def take(self, session_id: str, sender: str) -> list[Handoff]:
        """The routes ``sender`` booked and nobody has started yet, in booking order."""
        routes = self._open.get(session_id)
        if routes is None:
            return []
        out = [h for h in routes.booked if h.sender == sender]
        routes.booked = [h for h in routes.booked if h.sender != sender]
        return out

    def book(self, session_id: str, sender: str, target_ref: str, message: str,
             call_id: str) -> tuple[VP | None, str]:
        """(target, "") when booked, else (None, the reason for the model)."""
        routes = self._open.get(session_id)
        if routes is None:
            return None, "route_forward only works inside a running turn of a multi-VP session."
        folded = target_ref.strip().lstrip("@").casefold()
        target = next((v for v in routes.roster if folded in (v.name.casefold(), v.id.casefold())), None)
        names = ", ".join(v.name for v in routes.roster if v.id != sender)
        if target is None:
            return None, (f"{target_ref!r} is not on this session's roster; nothing was routed. "
                          f"You can route to: {names or 'nobody'}.")
        if target.id == sender:
            return None, f"You are {target.name}: route to another VP ({names}) or answer yourself."
        if routes.hops >= MAX_HOPS:
            return None, (f"The hop limit of {MAX_HOPS} hand-offs per user turn is reached; nothing was "
                          "routed. Answer the person yourself with what you have.")
        routes.hops += 1
        routes.booked.append(Handoff(sender, target.id, message, call_id))
        return target, ""

    def active_turn(self, session_id: str) -> str:
        """The id of the session's running turn ("" when none): opened before its user message
        is stored, so a fork never copies an input that is just being committed."""
        routes = self._open.get(session_id)
        return routes.turn_id if routes else ""

    def hops(self, session_id: str) -> int:
        """Hand-offs made so far in the running turn."""
        routes = self._open.get(session_id)
        return routes.hops if routes else 0


class RouteForwardTool:
    """The tool the model calls; the booking rules live in :class:`RouteBook`."""

    name = ROUTE_FORWARD
    description = ("Hand a message to another VP of this session (by name). That VP answers in this "
                   "same turn, after you finish, with its own voice. Writing @Name in your text does "
                   "not reach anyone: only this tool hands work over.")
    parameters = SCHEMA

    def __init__(self, book: RouteBook) -> None:
        self._book = book

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Routing touches nothing outside Foya."""
        return Action(kind="other", summary=f"Hand to {args.get('vp', '?')}")

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Book the hand-off; the result says to whom, and how many hops are left."""
        target_ref = arg_str(args, "vp")
        message = arg_str(args, "message")
        target, reason = self._book.book(ctx.session_id, ctx.speaker, target_ref, message, ctx.call_id)
        if target is None:
            return ToolOutput(reason, is_error=True)
        left = MAX_HOPS - self._book.hops(ctx.session_id)
        return ToolOutput(f"Routed to {target.name}: they answer in this turn after you finish. "
                          f"{left} of {MAX_HOPS} hand-offs left in this user turn.")


def route_target(call_args: dict[str, Any], roster: list[VP]) -> VP | None:
    """The roster VP a stored ``route_forward`` call named (for the context compiler and the UI)."""
    ref = str(call_args.get("vp", "")).strip().lstrip("@").casefold()
    return next((v for v in roster if ref in (v.name.casefold(), v.id.casefold())), None)
