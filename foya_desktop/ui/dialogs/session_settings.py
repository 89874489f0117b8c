"""The session settings dialog: title, announcement, roster and default VP,
connection / model / reasoning effort, approval mode and agent mode.

The bound folder is shown read-only: a bound session never moves (Foya seed
F09). An unbound session offers "Bind to a folder…", which runs the app's one
binding flow (``ui/projects/actions.py``): the working-directory picker, then
the confirmation that binding cannot be undone. It binds at once (not on
Save) and then shows the folder read-only like any bound session — so it
happens once. Other changes apply from the next model request or tool call;
the kernel validates them and the dialog shows its sentence when one is
refused.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import VP, AgentMode, Connection, Session
from foya_desktop.engine.project_files.rules import RULES_BUDGET_CHARS, Rules
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.composer.status_line import approval_labels, effort_choices
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi


def agent_mode_labels() -> dict[AgentMode, str]:
    """The agent modes' names, in the window's language."""
    translate = QCoreApplication.translate
    return {AgentMode.EXECUTE: translate("SessionSettingsDialog", "Execute"),
            AgentMode.PLAN: translate("SessionSettingsDialog", "Plan (read and discuss only)"),
            AgentMode.AWAITING_CONFIRMATION: translate("SessionSettingsDialog", "Plan awaiting confirmation")}


Binder = Callable[[str, QWidget], Awaitable[Session | None]]
"""Picks a folder and binds the session after the irreversible confirmation (``ProjectActions``)."""


class SessionSettingsDialog(QDialog):
    """Edits one session's settings. Open with ``open()``; the pane applies ``apply_requested``.

    Signals:
        apply_requested(dict): the changed fields.
        bind_requested(): "Bind to a folder…" was pressed (unbound sessions only).
    """

    apply_requested = Signal(dict)
    bind_requested = Signal()

    def __init__(self, session: Session, vps: list[VP], connections: list[Connection],
                 parent: QWidget | None = None, rules: Rules | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Session settings"))
        self.setMinimumWidth(520)
        self._session = session
        self.title = QLineEdit(session.title)
        self.announcement = QPlainTextEdit(session.announcement)
        self.announcement.setPlaceholderText(self.tr("Shown to every VP in this session"))
        self.announcement.setFixedHeight(80)
        self.roster = {vp.id: QCheckBox(f"{vp.display_name} (@{vp.name})") for vp in vps}
        for vp_id, box in self.roster.items():
            box.setChecked(vp_id in session.roster)
        self.default_vp = QComboBox()
        for vp in vps:
            self.default_vp.addItem(vp.display_name, vp.id)
        self.default_vp.setCurrentIndex(max(0, self.default_vp.findData(session.default_vp)))
        self.connection = QComboBox()
        self.connection.addItem(self.tr("First configured"), "")
        for conn in connections:
            self.connection.addItem(conn.name, conn.name)
        self.connection.setCurrentIndex(max(0, self.connection.findData(session.connection)))
        self.model = QLineEdit(session.model, placeholderText=self.tr("The connection's default model"))
        self.effort = _combo(effort_choices(), session.reasoning_effort)
        self.approval = _combo([(str(m), label) for m, label in approval_labels().items()],
                               str(session.approval_mode))
        self.agent_mode = _combo([(str(m), label) for m, label in agent_mode_labels().items()],
                                 str(session.agent_mode))
        self.folder = QLineEdit(session.workdir)
        self.folder.setReadOnly(True)
        self.bind_button = QPushButton(self.tr("Bind to a folder…"))
        self.bind_button.setToolTip(self.tr("Choose the folder this session works in. Binding is for good: "
                                            "a bound session stays in its project."))
        self.bind_button.clicked.connect(self.bind_requested)
        self._show_folder(session)
        self.not_used = QPlainTextEdit()  # scrolls: refused paths are long and may be many
        self.not_used.setReadOnly(True)
        self.not_used.setFixedHeight(110)
        self.not_used.setStyleSheet(f"color: {theme.error_color().name()}")
        self.rules = self._rules_label(rules)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.error_color().name()}")
        self.error.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._apply)
        self.buttons.rejected.connect(self.reject)
        self._layout()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Title"), self.title)
        form.addRow(self.tr("Announcement"), self.announcement)
        roster = QVBoxLayout()
        for check in self.roster.values():
            roster.addWidget(check)
        form.addRow(self.tr("VPs"), roster)
        form.addRow(self.tr("Default VP"), self.default_vp)
        form.addRow(self.tr("Connection"), self.connection)
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("Reasoning effort"), self.effort)
        form.addRow(self.tr("Approval mode"), self.approval)
        form.addRow(self.tr("Agent mode"), self.agent_mode)
        folder = QHBoxLayout()
        folder.addWidget(self.folder, 1)
        folder.addWidget(self.bind_button)
        form.addRow(self.tr("Folder"), folder)
        rules = QVBoxLayout()
        rules.addWidget(self.rules)
        rules.addWidget(self.not_used)
        form.addRow(self.tr("Rules in effect"), rules)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)

    def _rules_label(self, rules: Rules | None) -> QLabel:
        """The AGENTS.md / CLAUDE.md files the next request carries (read-only; edit the files)."""
        label = QLabel()
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._fill_rules(label, rules)
        return label

    def _fill_rules(self, label: QLabel, rules: Rules | None) -> None:
        self._fill_not_used(rules)
        if rules is None or not rules.files:
            label.setText(self.tr("None (no AGENTS.md or CLAUDE.md in the folder or the data folder)"))
            label.setToolTip("")
            return
        lines = [f.path if not f.truncated else self.tr("{path} (only {sent} of {total} characters sent)")
                 .format(path=f.path, sent=f"{f.sent_chars:,}", total=f"{f.chars:,}") for f in rules.files]
        if rules.truncated:
            lines.append(self.tr("Truncated to the rules budget of {budget} characters.")
                         .format(budget=f"{RULES_BUDGET_CHARS:,}"))
        label.setText("\n".join(lines))
        label.setToolTip(self.tr("Re-read before every request: edit the files and the next request "
                                 "uses them."))

    def _fill_not_used(self, rules: Rules | None) -> None:
        """Rules files that failed, and project files confinement refused (a link out of the project,
        a hard link, a pseudo-file, too large): shown in the error colour, since nothing of them is
        sent and the person may have expected it to be."""
        problems = (*rules.problems, *rules.other_refusals) if rules is not None else ()
        self.not_used.setVisible(bool(problems))
        if not problems:
            self.not_used.clear()
            return
        lines = [self.tr("Not used (nothing of these is sent):")]
        lines += [f"• {p.path or p.kind}: {p.reason}" for p in problems]
        self.not_used.setPlainText("\n".join(lines))

    def changes(self) -> dict[str, Any]:
        """The fields that differ from the session as it was opened."""
        s = self._session
        wanted: dict[str, Any] = {
            "title": self.title.text(), "announcement": self.announcement.toPlainText(),
            "roster": tuple(vp for vp, box in self.roster.items() if box.isChecked()),
            "default_vp": self.default_vp.currentData(), "connection": self.connection.currentData(),
            "model": self.model.text().strip(), "reasoning_effort": self.effort.currentData(),
            "approval_mode": self.approval.currentData(), "agent_mode": self.agent_mode.currentData()}
        current = {"title": s.title, "announcement": s.announcement, "roster": s.roster,
                   "default_vp": s.default_vp, "connection": s.connection, "model": s.model,
                   "reasoning_effort": s.reasoning_effort, "approval_mode": str(s.approval_mode),
                   "agent_mode": str(s.agent_mode)}
        return {k: v for k, v in wanted.items() if v != current[k]}

    def _show_folder(self, session: Session) -> None:
        if session.workdir:
            self.folder.setText(session.workdir)
            self.folder.setCursorPosition(0)
            self.folder.setToolTip(session.workdir + "\n" + self.tr(
                "A bound session keeps its folder; fork it to work elsewhere."))
            self.bind_button.hide()
        else:
            self.folder.clear()
            self.folder.setPlaceholderText(self.tr("Not bound (Recents)"))

    def show_bound(self, session: Session, rules: Rules | None) -> None:
        """The session was bound: its folder read-only, binding not offered again, the folder's rules."""
        self._show_folder(session)
        self._fill_rules(self.rules, rules)

    def _apply(self) -> None:
        self.apply_requested.emit(self.changes())

    def show_error(self, text: str) -> None:
        """The kernel refused a change: say why and stay open."""
        self.error.setText(text)
        self.error.show()


def _combo(choices: Any, current: str) -> QComboBox:
    box = QComboBox()
    for value, label in choices:
        box.addItem(label, value)
    box.setCurrentIndex(max(0, box.findData(current)))
    return box


async def open_session_settings(kernel: KernelApi, runner: TaskRunner, session: Session,
                                parent: QWidget | None, bind: Binder | None = None) -> SessionSettingsDialog:
    """Show the dialog (non-blocking ``open()``); Save applies through the kernel.

    ``bind``: the window's binding flow; without it an unbound session offers no binding.
    """
    vps, connections = await kernel.vps.list_vps(), await kernel.connections.list_connections()
    dialog = SessionSettingsDialog(session, vps, connections, parent,
                                   rules=await kernel.files.rules_in_effect(session.id))
    if bind is None or session.parent_id is not None:
        dialog.bind_button.hide()

    async def apply(changes: dict[str, Any]) -> None:
        try:
            if changes:
                await kernel.sessions.update_session(session.id, **changes)
        except FoyaError as exc:
            dialog.show_error(error_text(exc))
            return
        dialog.accept()

    async def bind_now() -> None:
        assert bind is not None
        bound = await bind(session.id, dialog)
        if bound is not None and bound.workdir:
            dialog.show_bound(bound, await kernel.files.rules_in_effect(session.id))

    translate = QCoreApplication.translate
    dialog.apply_requested.connect(
        lambda changes: runner.spawn(apply(changes),
                                     translate("SessionSettingsDialog", "Saving session settings")))
    dialog.bind_requested.connect(
        lambda: runner.spawn(bind_now(), translate("SessionSettingsDialog", "Binding the session")))
    dialog.open()
    return dialog
