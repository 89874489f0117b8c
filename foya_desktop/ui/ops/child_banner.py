"""The strip above the composer about sub-agents: "this is one" or "these are running".

A child session is a sub-agent's own history (DESIGN §2): the person may read
it, but a message typed there would reach nobody (the sub-agent takes its
task from the parent), so the composer is disabled and the strip says why,
with a way back to the parent. On a parent, the strip lists the sub-agents
running right now with links to watch them — cheap, since the session tree
already knows every session's phase.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from foya_desktop.core.model import Session
from foya_desktop.ui import theme

READ_ONLY_PLACEHOLDER = str(QT_TRANSLATE_NOOP("ChildBanner", "Read-only: this is a sub-agent's session"))
"""Marked for translation; shown as ``QCoreApplication.translate("ChildBanner", READ_ONLY_PLACEHOLDER)``."""


def agent_name(session: Session) -> str:
    """The sub-agent's persona name from the creation snapshot, or a plain word."""
    agent = session.child_snapshot.get("agent")
    name = agent.get("name") if isinstance(agent, dict) else None
    return str(name) if name else QCoreApplication.translate("ChildBanner", "A sub-agent")


class SubAgentBanner(QFrame):
    """"Sub-agent session — read-only" with a button to the parent, or the running sub-agents.

    Signals:
        open_requested(str): the person asked to open this session id (the parent, or a child).
    """

    open_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("subAgentBanner")
        self._target = ""
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.linkActivated.connect(self.open_requested)
        self.parent_button = QPushButton(self.tr("Open parent session"))
        self.parent_button.setToolTip(self.tr("Go to the session that started this sub-agent"))
        self.parent_button.clicked.connect(lambda: self.open_requested.emit(self._target))
        row = QHBoxLayout(self)
        row.setContentsMargins(14, 6, 12, 6)
        row.addWidget(self.text, 1)
        row.addWidget(self.parent_button)
        self.hide()

    @property
    def mode(self) -> str:
        """``child``, ``running`` or ``""`` (hidden) — what the strip shows now."""
        return str(self.property("mode") or "")

    def show_child(self, session: Session, parent_title: str, running: bool) -> None:
        """``session`` is a sub-agent's: explain the read-only history, offer the parent."""
        self._target = session.parent_id or ""
        parent = html.escape(parent_title or self.tr("its parent session"))
        text = (
            self.tr(
                "<b>Sub-agent session — read-only.</b> {agent} is working on this task for <b>{parent}</b>."
            )
            if running
            else self.tr(
                "<b>Sub-agent session — read-only.</b> {agent} worked on this task for <b>{parent}</b>."
            )
        )
        self.text.setText(
            text.format(agent=html.escape(agent_name(session)), parent=parent)
            + " "
            + self.tr(
                "You can read its history here; to follow up, write in the parent session "
                "(or branch from a reply)."
            )
        )
        self.parent_button.setVisible(bool(self._target))
        self._style(theme.speaker_color("omni", 2).name())
        self._set_mode("child")

    def show_running(self, children: Sequence[Session]) -> None:
        """The session on screen has sub-agents running now (none: hide the strip)."""
        if not children:
            self.clear()
            return
        untitled = self.tr("untitled")  # NOTE: lupdate finds no tr() inside an f-string
        links = ", ".join(f"<a href='{html.escape(c.id)}'>{html.escape(c.title or untitled)}</a>"
                          for c in children)
        self.text.setText(
            "● " + self.tr("%n sub-agent(s) running: {links}", "", len(children)).format(links=links)
        )
        self.parent_button.hide()
        self._style(theme.dim_color().name())
        self._set_mode("running")

    def clear(self) -> None:
        """Nothing to say about sub-agents."""
        self._set_mode("")

    def _set_mode(self, mode: str) -> None:
        self.setProperty("mode", mode)
        self.setVisible(bool(mode))

    def _style(self, accent: str) -> None:
        self.setStyleSheet(f"#subAgentBanner {{ border-left: 4px solid {accent};"
                           " background: palette(alternate-base); }")
