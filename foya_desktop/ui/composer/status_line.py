"""The line above the composer: what the session is doing; and the session's pickers.

The pickers (approval mode, service, model, effort) belong to this line — it
reflects the session and emits the choices — but sit in the composer beside
Send (``pickers``; the pane hands it to ``Composer.add_pickers``), compact, as
the peers' composers put the model picker.

Per-VP progress (``VPStatusPanel``) shows what the provider reported — tokens,
requests, executions, failures — never a guess. Connection, model, reasoning
effort, approval mode and agent mode are session settings; changing them here
applies from the next model request or tool call. The agent mode has its own
one-click switch, apart from the approval mode: plan mode is the mechanism
that keeps a VP to reading and discussing.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.events import VPStatus
from foya_desktop.core.model import AgentMode, ApprovalMode, Connection, Phase, Session, effective_connection
from foya_desktop.ui import theme
from foya_desktop.ui.composer.vp_status import VPStatusBlock, VPStatusPanel
from foya_desktop.ui.fit import stack_when_narrow
from foya_desktop.ui.icons import icon
from foya_desktop.ui.speakers import SpeakerDirectory


def effort_choices() -> tuple[tuple[str, str], ...]:
    """(value, label) of the reasoning efforts, in the window's language."""
    translate = QCoreApplication.translate
    return (
        ("", translate("StatusLine", "Default effort")),
        ("minimal", translate("StatusLine", "Minimal effort")),
        ("low", translate("StatusLine", "Low effort")),
        ("medium", translate("StatusLine", "Medium effort")),
        ("high", translate("StatusLine", "High effort")),
    )


def approval_labels() -> dict[ApprovalMode, str]:
    """The approval modes' names, in the window's language."""
    translate = QCoreApplication.translate
    return {
        ApprovalMode.READ_ONLY: translate("StatusLine", "Read-only"),
        ApprovalMode.ASK: translate("StatusLine", "Ask before acting"),
        ApprovalMode.AUTO_EDIT: translate("StatusLine", "Auto-edit files"),
        ApprovalMode.AUTO: translate("StatusLine", "Full auto"),
    }


def _mode_text(mode: AgentMode) -> str:
    translate = QCoreApplication.translate
    return {
        AgentMode.EXECUTE: translate("StatusLine", "Mode: Execute"),
        AgentMode.PLAN: translate("StatusLine", "Mode: Plan"),
        AgentMode.AWAITING_CONFIRMATION: translate("StatusLine", "Mode: Plan (awaiting confirmation)"),
    }[mode]


def _phase_text(phase: Phase) -> str:
    translate = QCoreApplication.translate
    return {Phase.IDLE: translate("StatusLine", "Idle"), Phase.TURN: translate("StatusLine", "Working…"),
            Phase.COMPACTION: translate("StatusLine", "Compacting history…")}.get(phase, str(phase))


class StatusLine(QWidget):
    """Phase, per-VP status, and the session's connection / model / approval selectors.

    Signals:
        connection_chosen(str, str): connection name and model picked by the person.
        approval_chosen(str): an ``ApprovalMode`` value picked by the person.
        effort_chosen(str): a reasoning effort ("" = the model's default).
        agent_mode_chosen(str): an ``AgentMode`` value (the one-click switch).
        confirm_plan(): "Confirm and execute" was pressed.
        keep_planning(): "Keep planning" was pressed.
        stop_requested(str): the Stop of this VP (speaker id) was pressed.
        debug_toggled(bool): show or hide the debug panel.
        usage_requested(): open the usage window.
    """

    connection_chosen = Signal(str, str)
    approval_chosen = Signal(str)
    effort_chosen = Signal(str)
    agent_mode_chosen = Signal(str)
    confirm_plan = Signal()
    keep_planning = Signal()
    stop_requested = Signal(str)
    debug_toggled = Signal(bool)
    usage_requested = Signal()

    def __init__(self, speakers: SpeakerDirectory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._speakers = speakers
        self._vps: dict[str, VPStatus] = {}
        self._connections: dict[str, Connection] = {}
        self._phase, self._waiting = Phase.IDLE, False
        self.phase_label = QLabel(_phase_text(Phase.IDLE))
        self.vp_panel = VPStatusPanel(speakers)
        self.effort = QComboBox()
        for value, label in effort_choices():
            self.effort.addItem(label, value)
        self.effort.setToolTip(self.tr("Reasoning effort for the next model request"))
        self.agent_mode = QPushButton(_mode_text(AgentMode.EXECUTE))
        self.agent_mode.setToolTip(
            self.tr(
                "Execute: tools as the approval mode allows. Plan: read and discuss "
                "only, then confirm the plan. Click to switch."
            )
        )
        self._mode = AgentMode.EXECUTE
        self.confirm_bar = QWidget()
        self.confirm_button = QPushButton(self.tr("Confirm and execute"))
        self.keep_button = QPushButton(self.tr("Keep planning"))
        # icon buttons: the row must fit a narrow window (issue 12: nothing clipped or pushed off)
        self.debug = _icon_button("debug", self.tr("Debug"))
        self.debug.setCheckable(True)
        self.debug.setToolTip(self.tr("Debug: show each model request and tool call of a turn as sent"))
        self.usage = _icon_button("usage", self.tr("Usage"))
        self.usage.setToolTip(self.tr("Usage: tokens and cost of this session and of all time"))
        self.vp_label = QLabel()
        self.vp_label.setTextFormat(Qt.TextFormat.RichText)
        self.vp_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.vp_label.setWordWrap(True)  # a long error wraps, never cut at the right edge
        self.copy_error = QToolButton()
        self.copy_error.setText(self.tr("Copy error"))
        self.copy_error.setToolTip(self.tr("Copy the whole error to the clipboard"))
        self.copy_error.setAutoRaise(True)
        self.copy_error.setFont(theme.small_font())
        self.copy_error.hide()
        self.copy_error.clicked.connect(self._copy_error)
        self._error = ""
        self.approval, self.connection, self.model = QComboBox(), QComboBox(), QComboBox()
        self.pickers = QWidget()
        """The selectors, for the composer's button row."""
        self._make_pickers()
        self._layout()
        self.approval.activated.connect(lambda _i: self.approval_chosen.emit(self.approval.currentData()))
        self.effort.activated.connect(lambda _i: self.effort_chosen.emit(self.effort.currentData()))
        self.agent_mode.clicked.connect(self._switch_mode)
        self.confirm_button.clicked.connect(self.confirm_plan)
        self.keep_button.clicked.connect(self.keep_planning)
        self.vp_panel.stop_requested.connect(self.stop_requested)
        self.debug.toggled.connect(self.debug_toggled)
        self.usage.clicked.connect(self.usage_requested)
        self.connection.activated.connect(self._on_connection)
        self.model.activated.connect(self._emit_choice)

    def _make_pickers(self) -> None:
        for mode, label in approval_labels().items():
            self.approval.addItem(label, str(mode))
        self.approval.setToolTip(self.tr("What tools may do without asking you"))
        self.connection.setToolTip(self.tr("Model service for this session"))
        self.connection.setPlaceholderText(self.tr("Choose a service"))
        self.connection.setMaximumWidth(180)  # a long service name is cut, the row still fits
        self.model.setEditable(True)
        self.model.setMinimumContentsLength(9)
        self.model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model.setToolTip(self.tr("Model name (type any name the service offers)"))
        for combo in (self.approval, self.effort, self.connection):  # as wide as their words
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for combo in (self.approval, self.connection, self.model, self.effort):
            combo.setObjectName("composerPicker")  # quiet until hovered (theme.style_sheet)
            combo.setFont(theme.small_font())

    def _layout(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        bar = QHBoxLayout(self.confirm_bar)
        bar.setContentsMargins(12, 2, 12, 2)
        bar.addWidget(QLabel(self.tr("The plan is ready.")))
        bar.addWidget(self.confirm_button)
        bar.addWidget(self.keep_button)
        bar.addStretch(1)
        self.confirm_bar.hide()
        outer.addWidget(self.confirm_bar)
        # what the session does | its settings: side by side when there is room, else stacked
        self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self._row.setContentsMargins(12, 2, 12, 2)
        self._row.setSpacing(8)
        # What the session does takes one place, two lines high: the VP blocks while a turn runs
        # (name and state | figures), else the phase over the last turn's error. One VP's block is
        # as high as the idle lines (the same labels, margins and spacing: VPStatusBlock), so a
        # turn starting or ending never resizes the timeline above — that was a 37 px jump of the
        # reading column and a full relayout twice per turn (issue 14) — and the phase is not said
        # twice ("Waiting for you" in the block and beside it).
        self._state_row = QVBoxLayout()
        self._state_row.setSpacing(0)
        self.idle_state = QWidget()
        lines = QVBoxLayout(self.idle_state)
        lines.setContentsMargins(VPStatusBlock.MARGINS)
        lines.setSpacing(VPStatusBlock.LINE_SPACING)
        lines.addWidget(self.phase_label)
        error_line = QHBoxLayout()
        error_line.setContentsMargins(0, 0, 0, 0)
        error_line.addWidget(self.vp_label, 1)
        error_line.addWidget(self.copy_error, 0, Qt.AlignmentFlag.AlignTop)
        lines.addLayout(error_line)
        self._state_row.addWidget(self.vp_panel)
        self._state_row.addWidget(self.idle_state)
        self._settings_row = QHBoxLayout()
        self._settings_row.setSpacing(8)
        for widget in (self.agent_mode, self.usage, self.debug):
            self._settings_row.addWidget(widget)
        pickers = QHBoxLayout(self.pickers)
        pickers.setContentsMargins(0, 0, 0, 0)
        pickers.setSpacing(2)
        for combo in (self.approval, self.connection, self.model, self.effort):
            pickers.addWidget(combo)
        self._row.addLayout(self._state_row, 1)
        self._row.addLayout(self._settings_row)
        outer.addLayout(self._row)
        outer.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)  # minimumSizeHint decides

    def _show_state_or_blocks(self) -> None:
        """The VP blocks stand in for the phase lines while a turn runs (compaction keeps its words)."""
        blocks = bool(self.vp_panel.blocks) and self._phase == Phase.TURN
        self.idle_state.setVisible(not blocks)

    def minimumSizeHint(self) -> QSize:
        """As narrow as the stacked layout allows (the rows stack below their side-by-side width)."""
        hint = super().minimumSizeHint()
        margins = self._row.contentsMargins()
        width = max(self._state_row.minimumSize().width(), self._settings_row.minimumSize().width())
        return QSize(width + margins.left() + margins.right(), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Stack the two rows when they do not fit side by side (nothing clipped, nothing pushed off)."""
        super().resizeEvent(event)
        if stack_when_narrow(self._row, self._state_row, self._settings_row, event.size().width()):
            self.updateGeometry()

    def stacked(self) -> bool:
        """Whether the state and the settings are on two lines now (tests)."""
        return self._row.direction() == QBoxLayout.Direction.TopToBottom

    def _switch_mode(self) -> None:
        """One click: execute ↔ plan (a plan awaiting confirmation goes back to execute)."""
        target = AgentMode.PLAN if self._mode == AgentMode.EXECUTE else AgentMode.EXECUTE
        self.agent_mode_chosen.emit(str(target))

    def set_phase(self, phase: str) -> None:
        """Show the kernel's phase for the session on screen."""
        self._phase = Phase(phase)
        self._show_phase()
        self._show_state_or_blocks()

    def set_waiting(self, speakers: set[str]) -> None:
        """The VPs whose approval or question waits for the person: their blocks and the phase say
        "Waiting for you", not "Working…" (nothing moves until the person answers)."""
        self._waiting = bool(speakers)
        self.vp_panel.set_waiting(speakers)
        self._show_phase()

    def _show_phase(self) -> None:
        waiting = self._waiting and self._phase == Phase.TURN
        self.phase_label.setText(self.tr("Waiting for you") if waiting else _phase_text(self._phase))

    def set_error(self, text: str) -> None:
        """A failed turn: the reason stays visible until the next turn starts, wrapped whole, with
        *Copy error* (a server's error is what one pastes into a report or a search)."""
        self.vp_label.setText(f"<span style='color:{theme.error_color().name()}'>✗ {_escape(text)}</span>")
        self._error = text
        self.copy_error.setText(self.tr("Copy error"))
        self.copy_error.setVisible(bool(text))

    def _copy_error(self) -> None:
        QGuiApplication.clipboard().setText(self._error)
        self.copy_error.setText(self.tr("Copied ✓"))

    def set_vp_status(self, status: VPStatus) -> None:
        """Update one VP's progress in the current turn."""
        self._vps[status.speaker] = status
        self.vp_label.clear()
        self._error = ""
        self.copy_error.hide()
        self.vp_panel.set_status(status)
        self._show_state_or_blocks()

    def clear_vp_status(self) -> None:
        """A new turn, a finished turn or another session: live figures are not kept."""
        self._vps.clear()
        self.vp_panel.clear()
        self._show_state_or_blocks()

    def set_connections(self, connections: list[Connection]) -> None:
        """The configured model services to choose from."""
        self._connections = {c.name: c for c in connections}
        with QSignalBlocker(self.connection):
            current = self.connection.currentText()
            self.connection.clear()
            self.connection.addItems(list(self._connections) or [self.tr("(no connection)")])
            self.connection.setCurrentText(current)
        self.connection.setEnabled(bool(connections))

    def show_session(self, session: Session) -> None:
        """Reflect a session's settings without emitting choices."""
        with QSignalBlocker(self.connection), QSignalBlocker(self.model), QSignalBlocker(self.approval), \
                QSignalBlocker(self.effort):
            # an empty setting runs on the first configured service: show that one, not "Choose"
            used = effective_connection(session.connection, list(self._connections.values()))
            self.connection.setCurrentIndex(self.connection.findText(used.name) if used else -1)
            # only an unset picker says "Choose a service": kept, the placeholder would size the
            # picker for itself and leave a gap after a short service name
            placeholder = "" if used else self.tr("Choose a service")
            if placeholder != self.connection.placeholderText():
                self.connection.setPlaceholderText(placeholder)
                # NOTE: QComboBox keeps the size hints it measured with the old placeholder; only
                # a style change forgets both (qcombobox.cpp changeEvent)
                QCoreApplication.sendEvent(self.connection, QEvent(QEvent.Type.StyleChange))
                self.connection.updateGeometry()
            self._fill_models(session.model)
            self.approval.setCurrentIndex(max(0, self.approval.findData(str(session.approval_mode))))
            self.effort.setCurrentIndex(max(0, self.effort.findData(session.reasoning_effort)))
        self._mode = session.agent_mode
        self.agent_mode.setText(_mode_text(session.agent_mode))
        self.confirm_bar.setVisible(session.agent_mode == AgentMode.AWAITING_CONFIRMATION)

    def _fill_models(self, current: str) -> None:
        conn = self._connections.get(self.connection.currentText())
        choices = [m for m in (current, conn.model if conn else "") if m]
        self.model.clear()
        self.model.addItems(list(dict.fromkeys(choices)))
        self.model.setCurrentText(current or (conn.model if conn else ""))

    def _on_connection(self, _index: int) -> None:
        conn = self._connections.get(self.connection.currentText())
        with QSignalBlocker(self.model):
            self._fill_models(conn.model if conn else "")
        self._emit_choice()

    def _emit_choice(self, *_args: object) -> None:
        name = self.connection.currentText()
        if name in self._connections:
            self.connection_chosen.emit(name, self.model.currentText().strip())


def _icon_button(glyph: str, name: str) -> QToolButton:
    button = QToolButton()
    button.setObjectName("composerButton")
    button.setIcon(icon(glyph))
    button.setIconSize(QSize(18, 18))
    button.setFixedSize(theme.HIT_SIZE, theme.HIT_SIZE)
    button.setAccessibleName(name)
    return button


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
