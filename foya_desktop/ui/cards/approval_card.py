"""One approval request as a card: what the tool wants to do, and the four answers.

The card shows everything the decision rests on — the tool, its arguments,
the exact diff of an edit or the exact command, and why Foya asks — and the
answers exactly as far as they reach: once, for this session (not kept),
always for this project (a narrow persisted rule), or deny. A denial with
words lets the agent try another way; a bare denial stops the turn, and the
Deny button says which one it is.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QWidget,
)

from foya_desktop.core.events import ApprovalRequested
from foya_desktop.ui import theme
from foya_desktop.ui.cards.common import button, card_frame, label
from foya_desktop.ui.cards.diff_view import DiffView
from foya_desktop.ui.error_text import approval_reason_text, approval_summary_text
from foya_desktop.ui.fit import fit_placeholder
from foya_desktop.ui.timeline.summaries import first_line


def no_rule_tip() -> str:
    """Why "Always for this project" is disabled for a call no narrow rule can describe."""
    return QCoreApplication.translate(
        "ApprovalCard", "No narrow rule can be made for this call (a pipeline or compound command, a network "
        "command, or no single path). Allow it once or for this session instead.")


def no_session_tip() -> str:
    """Why "Allow for this session" is disabled: Foya would ask again for such a call anyway."""
    return QCoreApplication.translate(
        "ApprovalCard", "Foya asks for this call every time (a network command, a file that looks like "
        "it holds secrets, a file a trusted MCP server runs, or several files at once), so it cannot be "
        "allowed for the session. Allow it once instead.")


def no_project_tip() -> str:
    """Why "Always for this project" is disabled in a session without a project."""
    return QCoreApplication.translate(
        "ApprovalCard", "This session has no project folder, so there is no project to keep a rule for.")


def _answer_labels() -> dict[str, str]:
    translate = QCoreApplication.translate
    return {"once": translate("ApprovalCard", "Allow once"),
            "session": translate("ApprovalCard", "Allow for this session"),
            "always": translate("ApprovalCard", "Always for this project")}


def argument_lines(arguments: dict[str, Any], *, limit: int = 100, short_only: bool = False) -> str:
    """``key: value`` per argument, each on one line; long text says how long it is.

    ``short_only`` leaves out multi-line and long values (the diff or command shows them).
    """
    lines = []
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        count = text.count("\n") + 1
        if short_only and (count > 1 or len(text) > limit):
            continue
        shown = first_line(text, limit) if text.strip() else '""'
        more = QCoreApplication.translate("ApprovalCard", "  … (%n lines)", "", count) if count > 1 else ""
        lines.append(f"{key}: {shown}" + more)
    return "\n".join(lines)


class ApprovalCard(QFrame):
    """The request at the head of a session's approval queue.

    Signals:
        answered(str, str, str): request id, answer (once | session | always | deny), feedback.
        show_call(str): the person asked to see the request's tool call in the timeline (call id).
    """

    answered = Signal(str, str, str)
    show_call = Signal(str)

    def __init__(self, request: ApprovalRequested, who: str, *, waiting: int = 0,
                 has_project: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        warn = theme.warning_color()
        layout = card_frame(self, warn)
        head = QHBoxLayout()
        head.addWidget(label("⚠  " + self.tr("{who} wants to use {tool}").format(who=who, tool=request.tool),
                             color=warn, bold=True), 1)
        self.waiting = label(self._more_waiting(waiting), color=theme.dim_color())
        self.waiting.setVisible(waiting > 0)
        head.addWidget(self.waiting)
        self.show_call_button = QToolButton(self)  # a parent now: setVisible on an orphan opens a window
        self.show_call_button.setText(self.tr("Show the call ↑"))
        self.show_call_button.setToolTip(
            self.tr("Scroll the timeline to the tool call this request is about"))
        self.show_call_button.setAutoRaise(True)
        self.show_call_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.show_call_button.setVisible(bool(request.call_id))
        self.show_call_button.clicked.connect(lambda: self.show_call.emit(request.call_id))
        head.addWidget(self.show_call_button)
        layout.addLayout(head)
        if request.summary.strip() != request.command.strip():  # the command itself is shown below
            layout.addWidget(label(approval_summary_text(request.summary), select=True))
        self._add_arguments(layout.addWidget)
        if request.command:
            layout.addWidget(self._mono(request.command, 4))
        if request.diff:
            self.diff: DiffView | None = DiffView(request.diff)
            layout.addWidget(self.diff)
        else:
            self.diff = None
        if request.reason:
            reason = approval_reason_text(request.reason_code, request.reason_params, request.reason)
            layout.addWidget(label(self.tr("Why you are asked: {reason}").format(reason=reason),
                                   color=theme.dim_color()))
        self.feedback = QLineEdit(placeholderText=self.tr("Why not? (optional)"))
        self.feedback.setToolTip(self.tr("Optional: the agent reads why you said no and tries another way"))
        fit_placeholder(self.feedback)
        self.buttons: dict[str, QPushButton] = {}
        layout.addLayout(self._answer_row(has_project))
        self.state = label("", color=theme.dim_color())
        self.state.hide()
        layout.addWidget(self.state)

    def _add_arguments(self, add: Any) -> None:
        shown_elsewhere = bool(self.request.diff or self.request.command)
        command = self.request.command.strip()
        rest = {k: v for k, v in self.request.arguments.items()
                if not (command and isinstance(v, str) and v.strip() == command)}  # the command box shows it
        text = argument_lines(rest, short_only=shown_elsewhere)
        if text:
            args = label(text, color=theme.dim_color(), select=True)
            args.setFont(theme.mono_font())
            add(args)
        values = [v if isinstance(v, str) else json.dumps(v) for v in self.request.arguments.values()]
        if any("\n" in v or len(v) > 100 for v in values):  # something above was shortened or left out
            full = json.dumps(self.request.arguments, indent=2, ensure_ascii=False)
            self.all_arguments = self._mono(full, 10)
            self.all_arguments.hide()
            self.toggle = QToolButton()
            self.toggle.setText(self.tr("▸ All arguments"))
            self.toggle.setAutoRaise(True)
            self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
            link = theme.speaker_color("omni").name()
            self.toggle.setStyleSheet(f"color: {link}; border: none; padding: 0;")
            self.toggle.clicked.connect(self._toggle)
            add(self.toggle)
            add(self.all_arguments)

    def _toggle(self) -> None:
        self.all_arguments.setVisible(not self.all_arguments.isVisible())
        self.toggle.setText(("▾ " if self.all_arguments.isVisible() else "▸ ") + self.tr("All arguments"))

    @staticmethod
    def _mono(text: str, max_lines: int) -> QPlainTextEdit:
        view = QPlainTextEdit(text)
        view.setReadOnly(True)
        view.setFont(theme.mono_font())
        count = max(1, text.count("\n") + 1)
        lines = min(max_lines, count)
        if count <= max_lines:  # it all fits: no scroll bar beside a one-line command
            view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        margin = 2 * round(view.document().documentMargin())
        view.setFixedHeight(lines * view.fontMetrics().lineSpacing() + 2 * view.frameWidth() + margin + 6)
        return view

    def _answer_row(self, has_project: bool) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(6)
        for kind, text in _answer_labels().items():
            self.buttons[kind] = button(text, lambda k=kind: self._answer(k))  # type: ignore[misc]
            row.addWidget(self.buttons[kind])
        self.buttons["once"].setObjectName("primaryAnswer")  # the usual answer stands out (theme.py)
        always = self.buttons["always"]
        if not self.request.can_always or not has_project:
            always.setEnabled(False)
            always.setToolTip(no_rule_tip() if not self.request.can_always else no_project_tip())
        else:
            always.setToolTip(self.tr("Keep a narrow rule for exactly this command or path in this project."))
        session = self.buttons["session"]
        if not self.request.can_session:
            session.setEnabled(False)
            session.setToolTip(no_session_tip())
        else:
            session.setToolTip(self.tr("Until the app quits; not kept, not copied by branch or fork. A "
                                       "chain of commands is allowed exactly as written."))
        row.addSpacing(12)
        row.addWidget(self.feedback, 1)
        self.buttons["deny"] = button(self.tr("Deny && stop"), lambda: self._answer("deny"))
        self.feedback.textChanged.connect(self._deny_text)
        self.feedback.returnPressed.connect(self.buttons["deny"].click)
        self._deny_text("")
        row.addWidget(self.buttons["deny"])
        return row

    def _deny_text(self, text: str) -> None:
        deny = self.buttons["deny"]
        if text.strip():
            deny.setText(self.tr("Deny && tell the agent"))
            deny.setToolTip(self.tr("The agent gets your words as the tool's result and continues."))
        else:
            deny.setText(self.tr("Deny && stop"))
            deny.setToolTip(self.tr("Without a reason the turn stops here."))

    def _answer(self, kind: str) -> None:
        feedback = self.feedback.text().strip() if kind == "deny" else ""
        for widget in (*self.buttons.values(), self.feedback):
            widget.setEnabled(False)
        self.state.setText(self.tr("Sending your answer…"))
        self.state.show()
        self.answered.emit(self.request.request_id, kind, feedback)

    def set_waiting(self, count: int) -> None:
        """How many more requests of this session wait behind this one."""
        self.waiting.setText(self._more_waiting(count))
        self.waiting.setVisible(count > 0)

    def _more_waiting(self, count: int) -> str:
        return self.tr("+%n more waiting", "", count) if count else ""

    def refused(self, text: str) -> None:
        """The engine no longer had this request (the turn ended meanwhile)."""
        self.state.setText(text)
        self.state.show()
