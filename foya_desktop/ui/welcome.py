"""What the window shows before any session exists: a proper empty state.

A first-time user needs two things — a model service and a session — so the
page offers exactly those, and says plainly when keys cannot be stored.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from foya_desktop.ui import theme
from foya_desktop.ui.icons import app_pixmap


class WelcomePage(QWidget):
    """The empty state with the first steps.

    Signals:
        new_session_requested(): "New session" clicked.
        connections_requested(): "Set up a model service" clicked.
    """

    new_session_requested = Signal()
    connections_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        logo = QLabel()
        logo.setPixmap(app_pixmap(72))
        logo.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel(self.tr("Welcome to Foya"))
        font = theme.body_font()
        font.setPointSizeF(font.pointSizeF() + 8)
        font.setBold(True)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.body = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.body.setFont(theme.body_font())
        self.body.setMaximumWidth(520)
        self.new_button = QPushButton(self.tr("New session"))
        self.new_button.setDefault(True)
        self.new_button.clicked.connect(self.new_session_requested)
        self.connections_button = QPushButton(self.tr("Set up a model service…"))
        self.connections_button.clicked.connect(self.connections_requested)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.connections_button)
        buttons.addWidget(self.new_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addWidget(logo)
        layout.addSpacing(8)
        layout.addWidget(title)
        layout.addSpacing(6)
        layout.addWidget(self.body, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addSpacing(18)
        layout.addLayout(buttons)
        layout.addStretch(3)
        self.set_has_connections(False, None)

    def set_has_connections(self, has: bool, keyring_problem: str | None) -> None:
        """Point at the missing first step."""
        steps = self.tr("Bind a session to a project folder and work with one or more agent personas. "
                        "They read and edit files and run commands under the approval rules you set.")
        if not has:
            steps += "\n\n" + self.tr("First, add a model service (OpenAI-compatible or Anthropic).")
        if keyring_problem:
            steps += "\n\n⚠ " + self.tr("This system has no secure keyring, so API keys cannot be saved; "
                                    "Connections… lets you name an environment variable instead.")
        self.body.setText(steps)
        self.connections_button.setText(
            self.tr("Set up a model service…") if not has else self.tr("Connections…"))
