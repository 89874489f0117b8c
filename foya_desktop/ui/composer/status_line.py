"""The line above the composer: what the session is doing, and which model it uses.

Per-VP progress shows what the provider reported — requests, tool runs,
failures — never a guess. Connection, model and approval mode are session
settings; changing them here applies from the next model step.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from foya_desktop.core.events import VPStatus
from foya_desktop.core.model import ApprovalMode, Connection, Phase, Session
from foya_desktop.ui import theme
from foya_desktop.ui.speakers import SpeakerDirectory

APPROVAL_LABELS = {
    ApprovalMode.READ_ONLY: "Read-only",
    ApprovalMode.ASK: "Ask before acting",
    ApprovalMode.AUTO_EDIT: "Auto-edit files",
    ApprovalMode.AUTO: "Full auto",
}
_PHASE_TEXT = {Phase.IDLE: "Idle", Phase.TURN: "Working…", Phase.COMPACTION: "Compacting history…"}


class StatusLine(QWidget):
    """Phase, per-VP status, and the session's connection / model / approval selectors.

    Signals:
        connection_chosen(str, str): connection name and model picked by the person.
        approval_chosen(str): an ``ApprovalMode`` value picked by the person.
    """

    connection_chosen = Signal(str, str)
    approval_chosen = Signal(str)

    def __init__(self, speakers: SpeakerDirectory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._speakers = speakers
        self._vps: dict[str, VPStatus] = {}
        self._connections: dict[str, Connection] = {}
        self.phase_label = QLabel(_PHASE_TEXT[Phase.IDLE])
        self.vp_label = QLabel()
        self.vp_label.setTextFormat(Qt.TextFormat.RichText)
        self.vp_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.approval = QComboBox()
        for mode, label in APPROVAL_LABELS.items():
            self.approval.addItem(label, str(mode))
        self.approval.setToolTip("What tools may do without asking you")
        self.connection = QComboBox()
        self.connection.setToolTip("Model service for this session")
        self.connection.setPlaceholderText("Choose a service")
        self.connection.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.connection.setMinimumContentsLength(12)
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setMinimumContentsLength(14)
        self.model.setToolTip("Model name (type any name the service offers)")
        self._layout()
        self.approval.activated.connect(lambda _i: self.approval_chosen.emit(self.approval.currentData()))
        self.connection.activated.connect(self._on_connection)
        self.model.activated.connect(self._emit_choice)

    def _layout(self) -> None:
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 2, 12, 2)
        row.setSpacing(8)
        row.addWidget(self.phase_label)
        row.addWidget(self.vp_label, 1)
        row.addWidget(self.approval)
        row.addWidget(self.connection)
        row.addWidget(self.model)

    def set_phase(self, phase: str) -> None:
        """Show the kernel's phase for the session on screen."""
        self.phase_label.setText(_PHASE_TEXT.get(Phase(phase), phase))

    def set_error(self, text: str) -> None:
        """A failed turn: the reason stays visible until the next turn starts."""
        self.vp_label.setText(f"<span style='color:{theme.error_color().name()}'>✗ {_escape(text)}</span>")

    def set_vp_status(self, status: VPStatus) -> None:
        """Update one VP's progress in the current turn."""
        self._vps[status.speaker] = status
        self._render_vps()

    def clear_vp_status(self) -> None:
        """A new turn (or another session): forget per-VP progress."""
        self._vps.clear()
        self._render_vps()

    def _render_vps(self) -> None:
        chips = []
        for speaker, st in self._vps.items():
            color = self._speakers.color(speaker).name()
            parts = [st.state, f"{st.requests} req", f"{st.tool_runs} tools"]
            if st.tool_failures:
                parts.append(f"<span style='color:#c62828'>{st.tool_failures} failed</span>")
            if st.error:
                parts.append(f"<span style='color:#c62828'>{_escape(st.error)}</span>")
            chips.append(f"<b style='color:{color}'>{_escape(self._speakers.name(speaker))}</b> "
                         + " · ".join(parts))
        self.vp_label.setText("&nbsp;&nbsp;".join(chips))

    def set_connections(self, connections: list[Connection]) -> None:
        """The configured model services to choose from."""
        self._connections = {c.name: c for c in connections}
        with QSignalBlocker(self.connection):
            current = self.connection.currentText()
            self.connection.clear()
            self.connection.addItems(list(self._connections) or ["(no connection)"])
            self.connection.setCurrentText(current)
        self.connection.setEnabled(bool(connections))

    def show_session(self, session: Session) -> None:
        """Reflect a session's settings without emitting choices."""
        with QSignalBlocker(self.connection), QSignalBlocker(self.model), QSignalBlocker(self.approval):
            self.connection.setCurrentIndex(self.connection.findText(session.connection)
                                            if session.connection else -1)
            self._fill_models(session.model)
            self.approval.setCurrentIndex(max(0, self.approval.findData(str(session.approval_mode))))

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


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
