"""What deserves a notification, and how notifications are grouped (no Qt here).

Why a Qt-free piece: the rules are the part worth testing exhaustively, and
they do not depend on how a desktop shows a message. The tray agent feeds it
the bridge's typed events and turns its answers into words and a message.

Rules:

* A notification is made only for a session that is not in view (the window
  hidden, minimised or inactive, or another session shown) and only for a
  kind the person left on (finished, failed, needs you).
* One per turn end: a turn that ends is reported once, whatever else arrives
  for it. A stopped turn is not reported (the person stopped it).
* Needs you is reported once per session until the person has seen that
  session: a second approval or question of the same session joins the
  first one instead of making a new message.
* Everything not yet seen is grouped: each new message summarises all unseen
  alerts (newest first), and clicking it opens the newest one's session.
* Showing a session clears its alerts; an answered request drops its alert.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

AlertKind = Literal["finished", "failed", "needs_you"]


@dataclass(frozen=True, slots=True)
class Alert:
    """One thing the person may want to know about one session."""

    kind: AlertKind
    session_id: str
    target: str = ""
    """The approval request or question id to open at (needs you), else ""."""
    detail: str = ""
    """A short description: the tool asking, the question, the error."""
    turn_id: str = ""


@dataclass(frozen=True, slots=True)
class Digest:
    """A message to show: every unseen alert, newest first. ``alerts[0]`` is what a click opens."""

    alerts: tuple[Alert, ...]

    @property
    def newest(self) -> Alert:
        return self.alerts[0]


class AlertDesk:
    """Decides, from engine events, when the person gets a notification.

    ``in_view(session_id)`` says whether the person is looking at a session;
    ``enabled(kind)`` whether that kind of notification is on.
    """

    def __init__(self, in_view: Callable[[str], bool], enabled: Callable[[AlertKind], bool]) -> None:
        self._in_view, self._enabled = in_view, enabled
        self._unseen: list[Alert] = []  # oldest first
        self._reported_turns: set[str] = set()

    @property
    def unseen(self) -> tuple[Alert, ...]:
        """Alerts not yet seen, newest first."""
        return tuple(reversed(self._unseen))

    def turn_finished(self, session_id: str, turn_id: str, status: str, error: str = "") -> Digest | None:
        """A turn ended (``completed``, ``stopped`` or ``error``)."""
        if turn_id in self._reported_turns or status == "stopped":
            return None
        self._reported_turns.add(turn_id)
        kind: AlertKind = "failed" if status == "error" else "finished"
        # the turn is over: what it waited for is over too
        self._unseen = [a for a in self._unseen if not (a.kind == "needs_you" and a.session_id == session_id
                                                           and a.turn_id in ("", turn_id))]
        return self._add(Alert(kind, session_id, detail=error, turn_id=turn_id))

    def needs_you(self, session_id: str, target: str, detail: str, turn_id: str = "") -> Digest | None:
        """A turn waits for an approval or an answer."""
        if any(a.kind == "needs_you" and a.session_id == session_id for a in self._unseen):
            return None  # grouped with the unseen one of this session
        return self._add(Alert("needs_you", session_id, target=target, detail=detail, turn_id=turn_id))

    def resolved(self, target: str) -> None:
        """An approval or question was answered or dropped."""
        self._unseen = [a for a in self._unseen if a.target != target or a.kind != "needs_you"]

    def seen(self, session_id: str) -> None:
        """The person is looking at ``session_id``: its alerts are read."""
        self._unseen = [a for a in self._unseen if a.session_id != session_id]

    def forget(self, session_id: str) -> None:
        """The session was deleted."""
        self.seen(session_id)

    def _add(self, alert: Alert) -> Digest | None:
        if self._in_view(alert.session_id) or not self._enabled(alert.kind):
            return None
        self._unseen.append(alert)
        return Digest(self.unseen)
