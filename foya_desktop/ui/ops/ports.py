"""What the session operations need from the rest of the window, and nothing more.

The operations (``flows.py``, ``session_actions.py``) used to take the whole
``MainWindow`` and reach into it, which tied them to its layout and made an
import circle (window → actions → flows → window). They now name each thing
they use as a small Protocol; the window hands over the pieces that satisfy
them (the session tree view, the status bar, the session pane) when it wires
itself, so these modules never import the window.
"""

from __future__ import annotations

from typing import Protocol

from foya_desktop.core.model import Session


class SessionSelector(Protocol):
    """The session tree's selection: open a session, or ask which one the cursor is on."""

    def select_session(self, session_id: str) -> None: ...

    def current_session_id(self) -> str | None: ...


class StatusReporter(Protocol):
    """Shows a short outcome in words for a while (the window's status bar)."""

    def showMessage(self, text: str, /, timeout: int | None = ...) -> None: ...


class ComposerFiller(Protocol):
    """Puts words back into the composer of a session, if that session is on screen."""

    def put_back(self, session_id: str, text: str) -> None: ...


class ShownSession(Protocol):
    """The session on screen, if any (the session pane)."""

    session: Session | None
