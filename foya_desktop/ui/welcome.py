"""What the window shows before any session exists: a proper empty state.

A first-time user needs two things — a model service and a session — so the
page offers exactly those as numbered steps, marks the step already done, says
plainly when keys cannot be stored, tells what happens once a session is open
(step 3: write the task; changes wait for your approval), and ends with the
three shortcuts worth knowing from day one. As on the peers' start pages, the
quickest way in is one click: "Open a folder…" starts a session there with the
Preferences' defaults (what ``foya PATH`` does); "New session…" asks for all
its settings.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.ui import theme
from foya_desktop.ui.icons import app_pixmap, icon


class WelcomePage(QWidget):
    """The empty state with the first steps.

    Signals:
        new_session_requested(): "New session…" clicked.
        open_folder_requested(): "Open a folder…" clicked (pick a folder, start a session there).
        connections_requested(): "Set up a model service" clicked.
    """

    new_session_requested = Signal()
    open_folder_requested = Signal()
    connections_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        logo = QLabel()
        logo.setPixmap(app_pixmap(64))
        logo.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel(self.tr("Welcome to Foya"))
        title.setFont(theme.scaled_font("display", bold=True))
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lead = QLabel(self.tr("A workbench for AI agents: each session works in a project folder, "
                              "with one or more agent personas (VPs) that read, edit and run "
                              "commands under the approval rules you set."),
                      wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        lead.setFont(theme.scaled_font("reading"))
        lead.setEnabled(False)  # secondary text colour
        lead.setMaximumWidth(520)
        self.connections_button = QPushButton()
        self.connections_button.setIcon(icon("connections"))
        self.connections_button.clicked.connect(self.connections_requested)
        self.open_button = QPushButton(self.tr("Open a folder…"))
        self.open_button.setIcon(icon("folder"))
        self.open_button.setToolTip(self.tr("Pick a project folder and start a session there at once"))
        self.open_button.clicked.connect(self.open_folder_requested)
        self.new_button = QPushButton(self.tr("New session…"))
        self.new_button.setIcon(icon("new"))
        self.new_button.setToolTip(self.tr("Choose the folder, the VPs, the model and the approval mode"))
        self.new_button.clicked.connect(self.new_session_requested)
        for button in (self.connections_button, self.open_button, self.new_button):
            button.setMinimumHeight(theme.HIT_SIZE)
            button.setIconSize(QSize(18, 18))
        self.step_service = _StepLabel()
        self.step_session = _StepLabel()
        self.step_session.set_text(
            "2", self.tr("Start a session"),
            self.tr("Open the project folder the agents work in; New session… also picks the VPs and "
                    "the model."), done=False)
        self.step_task = _StepLabel()
        self.step_task.set_text(
            "3", self.tr("Say what you want done"),
            self.tr("Write the task in the box at the bottom. The VPs read, edit and run commands; whatever "
                    "changes your files or runs a command waits for your approval first."), done=False)
        self.body = QLabel(wordWrap=True)
        """The keyring warning, when there is one."""
        self.body.setFont(theme.scaled_font("body"))
        self.body.hide()
        self.hint = QLabel(self.tr("Ctrl+N new session  ·  Ctrl+K jump to a session or command  ·  "
                                   "F1 all shortcuts"), alignment=Qt.AlignmentFlag.AlignCenter)
        self.hint.setFont(theme.scaled_font("caption"))
        self.hint.setEnabled(False)
        self._layout(logo, title, lead)
        self.set_has_connections(False, None)

    def _steps(self) -> QFrame:
        steps = QFrame()
        steps.setObjectName("welcomeSteps")
        steps.setStyleSheet("#welcomeSteps { border: 1px solid palette(mid); border-radius: 12px;"
                            " background: palette(base); }"
                            " #welcomeSteps QPushButton { border: 1px solid palette(mid); border-radius: 8px;"
                            " padding: 4px 14px; background: palette(button); text-align: left; }"
                            " #welcomeSteps QPushButton:hover { border: 1px solid palette(dark); }"
                            # the next thing to do is the accent button (the one Enter presses)
                            " #welcomeSteps QPushButton:default { background: palette(highlight);"
                            " color: palette(highlighted-text); border: 1px solid palette(highlight); }")
        steps.setMaximumWidth(600)
        grid = QGridLayout(steps)
        grid.setContentsMargins(2 * theme.SPACE, 2 * theme.SPACE, 2 * theme.SPACE, 2 * theme.SPACE)
        grid.setHorizontalSpacing(2 * theme.SPACE)
        grid.setVerticalSpacing(2 * theme.SPACE)
        grid.addWidget(self.step_service, 0, 0)
        grid.addWidget(self.connections_button, 0, 1)
        grid.addWidget(self.step_session, 1, 0)
        session_buttons = QVBoxLayout()
        session_buttons.setSpacing(theme.SPACE)
        session_buttons.addWidget(self.open_button)
        session_buttons.addWidget(self.new_button)
        grid.addLayout(session_buttons, 1, 1)
        grid.addWidget(self.step_task, 2, 0, 1, 2)
        grid.addWidget(self.body, 3, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        self._grid = grid
        return steps

    def add_offers(self, widget: QWidget) -> None:
        """Place the first-run offers (ui/first_run.py) under the steps."""
        self._grid.addWidget(widget, 4, 0, 1, 2)

    def _layout(self, logo: QLabel, title: QLabel, lead: QLabel) -> None:
        # the page scrolls in a short window instead of making the window taller than it was left
        content = QWidget()
        scroll = QScrollArea()
        scroll.setObjectName("welcomeScroll")
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setStyleSheet("#welcomeScroll { background: transparent; }")
        scroll.viewport().setAutoFillBackground(False)
        content.setAutoFillBackground(False)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        layout = QVBoxLayout(content)
        layout.setContentsMargins(4 * theme.SPACE, 4 * theme.SPACE, 4 * theme.SPACE, 4 * theme.SPACE)
        layout.addStretch(2)
        layout.addWidget(logo)
        layout.addSpacing(2 * theme.SPACE)
        layout.addWidget(title)
        layout.addSpacing(theme.SPACE)
        lead_row = QHBoxLayout()  # centred by stretches: an aligned word-wrapped label gets clipped
        lead_row.addStretch(1)
        lead_row.addWidget(lead, 1000)
        lead_row.addStretch(1)
        layout.addLayout(lead_row)
        layout.addSpacing(3 * theme.SPACE)
        row = QHBoxLayout()
        row.addWidget(self._steps())
        layout.addLayout(row)
        layout.addSpacing(3 * theme.SPACE)
        layout.addWidget(self.hint)
        layout.addStretch(3)

    def set_has_connections(self, has: bool, keyring_problem: str | None) -> None:
        """Point at the missing first step."""
        self._state = (has, keyring_problem)
        self.step_service.set_text(
            "1", self.tr("Add a model service"),
            self.tr("A model service is ready.") if has else
            self.tr("An OpenAI-compatible or Anthropic endpoint, or a local server (Ollama, LM Studio)."),
            done=has)
        self.connections_button.setText(
            self.tr("Connections…") if has else self.tr("Set up a model service…"))
        self.open_button.setDefault(has)
        self.connections_button.setDefault(not has)
        if keyring_problem:
            self.body.setText(self.tr("⚠ This system has no secure keyring, so API keys cannot be saved; "
                                      "Connections… lets you name an environment variable instead."))
        self.body.setVisible(bool(keyring_problem))


    def changeEvent(self, event: QEvent) -> None:
        """A theme switch re-colours the step marks."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and hasattr(self, "_state"):
            self.set_has_connections(*self._state)


class _StepLabel(QLabel):
    """A numbered step: a round number (a tick when done), a bold line and a dim explanation."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)

    def set_text(self, number: str, title: str, detail: str, *, done: bool) -> None:
        mark = "✓" if done else number
        accent = theme.success_color().name() if done else theme.speaker_color("omni").name()
        self.setText(f"<span style='color:{accent}; font-weight:600'>{mark}&nbsp;&nbsp;</span>"
                     f"<b>{_escape(title)}</b><br><span style='color:{theme.dim_color().name()}'>"
                     f"{_escape(detail)}</span>")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
