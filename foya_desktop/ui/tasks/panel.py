"""A collapsible panel of the session's background task records: list, inspect, cancel.

Background jobs outlive the turn that started them, so the person needs to
see them without asking the VP: what runs, its output so far, and a way to
stop it. The panel stays out of the way (a one-line header) until the
session has tasks; the output of a running task refreshes while it is open.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.events import TaskChanged
from foya_desktop.core.records import TaskRecord
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.tasks.model import TaskListModel, state_text

REFRESH_MS = 1000
"""How often the output of the selected running task is re-read while the panel is open."""
BODY_HEIGHT = 220


class TasksPanel(QWidget):
    """Background tasks of the session on screen.

    Signals:
        (none of its own; kernel calls run on the window's TaskRunner)
    """

    def __init__(self, kernel: KernelApi, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner = kernel, runner
        self.session_id: str | None = None
        self._generation = 0
        self.model = TaskListModel(self)
        self.header = QToolButton()
        self.header.setCheckable(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setAutoRaise(True)
        self.header.setArrowType(Qt.ArrowType.RightArrow)
        self.header.toggled.connect(self._expand)
        self.table = QTreeView()
        self.title = QLabel()
        self.state = QLabel()
        self.output = QPlainTextEdit(readOnly=True)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.cancel_button = QPushButton(self.tr("Cancel task"))
        self.body = QSplitter(Qt.Orientation.Horizontal)
        self._timer = QTimer(self)
        self._build()
        self._timer.timeout.connect(self.refresh_selected)
        self.refresh_button.clicked.connect(self.refresh_selected)
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.model.rowsInserted.connect(self._update_header)
        self.model.dataChanged.connect(self._update_header)
        self.model.modelReset.connect(self._update_header)
        self.setVisible(False)

    def _build(self) -> None:
        t = self.table
        t.setModel(self.model)
        t.setRootIsDecorated(False)
        t.setUniformRowHeights(True)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.header().setStretchLastSection(False)
        t.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        t.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        t.header().setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        t.selectionModel().selectionChanged.connect(self._selected)
        self.title.setFont(theme.mono_font())
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.output.setFont(theme.mono_font())
        self.output.setPlaceholderText(self.tr("Select a task to see the tail of its output."))
        self.output.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        details = QWidget()
        box = QVBoxLayout(details)
        box.setContentsMargins(6, 0, 0, 0)
        box.addWidget(self.title)
        box.addWidget(self.state)
        box.addWidget(self.output, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.cancel_button)
        box.addLayout(buttons)
        self.body.addWidget(self.table)
        self.body.addWidget(details)
        self.body.setStretchFactor(0, 2)
        self.body.setStretchFactor(1, 3)
        self.body.setFixedHeight(BODY_HEIGHT)
        self.body.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 2, 12, 2)
        layout.setSpacing(2)
        layout.addWidget(self.header, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.body)
        self._show_record(None)

    # ---- session and events ----------------------------------------------------------------

    def show_session(self, session_id: str | None) -> None:
        """Another session is on screen: load its task records."""
        self._generation += 1
        self.session_id = session_id
        self.model.set_tasks([])
        if session_id is not None:
            self._runner.spawn(self._load(session_id, self._generation), self.tr("Loading background tasks"))

    async def _load(self, session_id: str, generation: int) -> None:
        records = await self._kernel.tasks.list_tasks(session_id)
        if generation == self._generation:
            self.model.set_tasks(records)

    def on_task_changed(self, event: TaskChanged) -> None:
        """A task of the session on screen was created or changed."""
        if event.session_id == self.session_id:
            self._update(event.task)

    def _update(self, record: TaskRecord) -> None:
        if record.session_id != self.session_id:
            return
        self.model.upsert(record)
        if self.selected() is not None and self.selected() == record.id:
            self._show_record(record)

    # ---- selection, inspect, cancel ----------------------------------------------------------

    def selected(self) -> str | None:
        """Id of the selected task."""
        rows = self.table.selectionModel().selectedRows()
        record = self.model.record(rows[0].row()) if rows else None
        return record.id if record is not None else None

    def select(self, task_id: str) -> None:
        """Select a task's row (and show its details)."""
        row = self.model.row_of(task_id)
        if row is not None:
            self.table.setCurrentIndex(self.model.index(row, 0))

    def _selected(self, _new: QItemSelection, _old: QItemSelection) -> None:
        task_id = self.selected()
        row = self.model.row_of(task_id) if task_id else None
        self._show_record(self.model.record(row) if row is not None else None)
        self.refresh_selected()

    def refresh_selected(self) -> None:
        """Re-read the selected task (live output tail while it runs)."""
        task_id, sid = self.selected(), self.session_id
        if task_id and sid:
            self._runner.spawn(self._inspect(sid, task_id), self.tr("Reading the task's output"))

    async def _inspect(self, session_id: str, task_id: str) -> None:
        self._update(await self._kernel.tasks.inspect_task(session_id, task_id))

    def cancel_selected(self) -> None:
        """Stop the selected running task (its whole process group)."""
        task_id, sid = self.selected(), self.session_id
        if task_id and sid:
            self.cancel_button.setEnabled(False)
            self._runner.spawn(self._cancel(sid, task_id), self.tr("Cancelling the task"))

    async def _cancel(self, session_id: str, task_id: str) -> None:
        self._update(await self._kernel.tasks.cancel_task(session_id, task_id))

    def _show_record(self, record: TaskRecord | None) -> None:
        running = record is not None and record.state == "running"
        self.title.setText(record.title if record else self.tr("No task selected"))
        self.state.setText(state_text(record) if record else "")
        self.state.setStyleSheet(f"color: {theme.dim_color().name()};")
        if record is not None and self.output.toPlainText() != record.output_tail:
            bar = self.output.verticalScrollBar()
            at_end = bar.value() >= bar.maximum() - 4
            self.output.setPlainText(record.output_tail)
            if at_end:
                bar.setValue(bar.maximum())
        elif record is None:
            self.output.clear()
        self.cancel_button.setEnabled(running)
        self.refresh_button.setEnabled(record is not None)
        self._follow(running)

    def _follow(self, running: bool) -> None:
        if running and self.header.isChecked():
            if not self._timer.isActive():
                self._timer.start(REFRESH_MS)
        else:
            self._timer.stop()

    # ---- header ------------------------------------------------------------------------------

    def _expand(self, open_: bool) -> None:
        self.header.setArrowType(Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow)
        self.body.setVisible(open_)
        if open_ and self.selected() is None and self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(0, 0))
        task_id = self.selected()
        row = self.model.row_of(task_id) if task_id else None
        record = self.model.record(row) if row is not None else None
        self._follow(record is not None and record.state == "running")

    def _update_header(self, *_args: object) -> None:
        records = self.model.records()
        running = sum(r.state == "running" for r in records)
        parts = [self.tr("%n running", "", running)] if running else []
        if len(records) > running:
            parts.append(self.tr("%n finished", "", len(records) - running))
        self.header.setText(self.tr("Background tasks · ") + self.tr(", ").join(parts))
        self.setVisible(bool(records))
