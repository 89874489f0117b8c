"""What the window's add-on parts (projects, reading) use of the main window, as a structural type.

Typing them against this protocol instead of ``MainWindow`` keeps ``ui/``
free of import cycles (the window builds them; they do not import it).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QMenuBar, QStatusBar

from foya_desktop.core.model import Session
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.session_actions import SessionActions
from foya_desktop.ui.prefs import PreferencesState
from foya_desktop.ui.session_pane import SessionPane
from foya_desktop.ui.sessions.tree_model import SessionTreeModel
from foya_desktop.ui.sessions.tree_view import SessionTreeView
from foya_desktop.ui.speakers import SpeakerDirectory


class WindowParts(Protocol):
    """The main window as its add-on parts see it."""

    kernel: KernelApi
    runner: TaskRunner
    tree_model: SessionTreeModel
    tree_view: SessionTreeView
    pane: SessionPane
    speakers: SpeakerDirectory
    session_actions: SessionActions
    prefs: PreferencesState

    def menuBar(self) -> QMenuBar:
        """The window's menu bar."""
        ...

    def statusBar(self) -> QStatusBar:
        """The window's status bar."""
        ...

    async def show_session(self, session: Session | None) -> None:
        """Switch the pane to ``session``."""
        ...
