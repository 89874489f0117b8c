"""Background task records of one session as a table model (newest first).

Rows map 1:1 onto records; a ``TaskChanged`` updates one row in place or
inserts a new one at the top, never a reset (selection and scroll survive).
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from foya_desktop.core.records import TaskRecord
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.summaries import first_line

AnyIndex = QModelIndex | QPersistentModelIndex
RECORD_ROLE = Qt.ItemDataRole.UserRole + 1
"""The ``TaskRecord`` of a row."""
COLUMNS = (
    str(QT_TRANSLATE_NOOP("TaskListModel", "State")),
    str(QT_TRANSLATE_NOOP("TaskListModel", "Command")),
    str(QT_TRANSLATE_NOOP("TaskListModel", "Started")),
)
"""Column titles (English; shown through ``tr``)."""


def _state_words() -> dict[str, str]:
    translate = QCoreApplication.translate
    return {
        "running": translate("TaskListModel", "● running"),
        "completed": translate("TaskListModel", "✓ done"),
        "failed": translate("TaskListModel", "✗ failed"),
        "cancelled": translate("TaskListModel", "■ cancelled"),
        "lost": translate("TaskListModel", "? lost (app restarted)"),
    }


def state_text(record: TaskRecord) -> str:
    """The state in words, with the exit code when it failed."""
    word = _state_words().get(record.state, record.state)
    if record.state == "failed" and record.exit_code is not None:
        word += QCoreApplication.translate("TaskListModel", " (exit {code})").format(code=record.exit_code)
    return word


class TaskListModel(QAbstractTableModel):
    """A session's task records.

    Signals:
        (only QAbstractItemModel's)
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._records: list[TaskRecord] = []

    def set_tasks(self, records: list[TaskRecord]) -> None:
        """Replace every row (another session is shown)."""
        self.beginResetModel()
        self._records = sorted(records, key=lambda r: r.created_at, reverse=True)
        self.endResetModel()

    def upsert(self, record: TaskRecord) -> None:
        """A record was created (new top row) or changed (its row updates)."""
        row = self.row_of(record.id)
        if row is None:
            self.beginInsertRows(QModelIndex(), 0, 0)
            self._records.insert(0, record)
            self.endInsertRows()
            return
        self._records[row] = record
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def row_of(self, task_id: str) -> int | None:
        """Where a task's row is."""
        return next((i for i, r in enumerate(self._records) if r.id == task_id), None)

    def record(self, row: int) -> TaskRecord | None:
        """The record of a row."""
        return self._records[row] if 0 <= row < len(self._records) else None

    def records(self) -> list[TaskRecord]:
        """All records, newest first."""
        return list(self._records)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """One row per task; a table has no children."""
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        """State, command, start time."""
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal \
                and 0 <= section < len(COLUMNS):
            return self.tr(COLUMNS[section])
        return None

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Words per column; the state coloured; the full command as a tooltip."""
        record = self.record(index.row()) if index.isValid() else None
        if record is None:
            return None
        if role == RECORD_ROLE:
            return record
        if role == Qt.ItemDataRole.DisplayRole:
            words = (state_text(record), first_line(record.title, 120), _clock(record.created_at))
            return words[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return record.title
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == 0:
            return {"running": theme.speaker_color("omni"), "completed": theme.success_color(),
                    "failed": theme.error_color()}.get(record.state, theme.dim_color())
        return None


def _clock(ms: int) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ms / 1000)) if ms > 0 else ""
