"""The usage window: this session's and all-time tokens from the usage ledger.

Grouped by day, connection and model; cost only where a price is set for that
connection and model ("no price" otherwise, never $0). The ledger outlives
deleted sessions, so all-time totals include them. Prices are set with
``foya usage price CONNECTION MODEL --input USD --output USD``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.engine.connections.usage import UsageReport, cost_text
from foya_desktop.ui import i18n
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.kernel_api import KernelApi


def columns() -> list[str]:
    """The tables' column titles, in the window's language."""
    translate = QCoreApplication.translate
    return [translate("UsageDialog", "day"), translate("UsageDialog", "connection / model"),
            translate("UsageDialog", "requests"), translate("UsageDialog", "input (incl. cache)"),
            translate("UsageDialog", "cache read"), translate("UsageDialog", "cache write"),
            translate("UsageDialog", "output"), translate("UsageDialog", "cost")]


class UsageDialog(QDialog):
    """Two tables: the session's usage and all-time usage."""

    def __init__(self, session_report: UsageReport | None, all_time: UsageReport,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Token usage"))
        self.setMinimumWidth(760)
        box = QVBoxLayout(self)
        self.tables: list[QTreeWidget] = []
        if session_report is not None:
            box.addWidget(QLabel(self.tr("<b>This session</b>")))
            box.addWidget(self._table(session_report))
        box.addWidget(QLabel(self.tr("<b>All time</b> (deleted sessions included)")))
        box.addWidget(self._table(all_time))
        note = QLabel(self.tr("Cost appears only for models with a price: foya usage price CONNECTION MODEL "
                              "--input USD --output USD (per million tokens)."))
        note.setWordWrap(True)
        note.setEnabled(False)
        box.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)

    def _table(self, report: UsageReport) -> QTreeWidget:
        table = QTreeWidget()
        table.setHeaderLabels(columns())
        table.setRootIsDecorated(False)
        for line in report.lines:
            u = line.usage
            table.addTopLevelItem(QTreeWidgetItem([
                line.day, f"{line.connection or '?'}/{line.model}", str(line.requests),
                i18n.tokens(u.input_tokens), i18n.tokens(u.cache_read_tokens),
                i18n.tokens(u.cache_write_tokens), i18n.tokens(u.output_tokens), cost_text(line.cost)]))
        t = report.total
        table.addTopLevelItem(QTreeWidgetItem([
            self.tr("Total"), "", str(report.requests), i18n.tokens(t.input_tokens),
            i18n.tokens(t.cache_read_tokens),
            i18n.tokens(t.cache_write_tokens), i18n.tokens(t.output_tokens), cost_text(report.cost)]))
        for col in range(table.columnCount()):
            table.resizeColumnToContents(col)
        self.tables.append(table)
        return table


async def open_usage(kernel: KernelApi, runner: TaskRunner, session_id: str | None,
                     parent: QWidget | None) -> UsageDialog:
    """Load both reports and show the window (non-blocking ``open()``)."""
    del runner  # loading is the only work; the caller already runs us on the runner
    mine = await kernel.usage_report(session_id) if session_id else None
    dialog = UsageDialog(mine, await kernel.usage_report(None), parent)
    dialog.open()
    return dialog
