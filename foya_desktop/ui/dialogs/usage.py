"""The usage window: this session's and all-time tokens from the usage ledger.

Grouped by day, connection and model; cost only where a price is set for that
connection and model ("no price" otherwise, never $0). The ledger outlives
deleted sessions, so all-time totals include them. A price is set here (pick
a row, "Set price…") or with ``foya usage price CONNECTION MODEL --input USD
--output USD``; both go through the engine's one price check. Input counts
every prompt token, cache included, whichever vendor reported it (the
provider adapters do that conversion, ``providers/*_decoder.py``).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import FoyaError
from foya_desktop.engine.connections.usage import UsageReport
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.aio import TaskRunner, run_dialog
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi

ROW_KEY = Qt.ItemDataRole.UserRole
"""A line's (connection, model); the total row has none."""


def columns() -> list[str]:
    """The tables' column titles, in the window's language."""
    translate = QCoreApplication.translate
    return [translate("UsageDialog", "day"), translate("UsageDialog", "connection / model"),
            translate("UsageDialog", "requests"), translate("UsageDialog", "input (incl. cache)"),
            translate("UsageDialog", "cache read"), translate("UsageDialog", "cache write"),
            translate("UsageDialog", "output"), translate("UsageDialog", "cost")]


def cost_label(cost: float | None) -> str:
    """``$0.0123``, or "no price" in the window's language (never $0 for an unpriced model)."""
    return QCoreApplication.translate("UsageDialog", "no price") if cost is None else f"${cost:.4f}"


class UsageDialog(QDialog):
    """Two tables: the session's usage and all-time usage; "Set price…" for the selected row."""

    def __init__(self, kernel: KernelApi, runner: TaskRunner, session_id: str | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self._session_id = kernel, runner, session_id
        self.price_dialog: PriceDialog | None = None
        """The open price editor (tests drive it)."""
        self.setWindowTitle(self.tr("Token usage"))
        self.setMinimumWidth(900)
        box = QVBoxLayout(self)
        self.tables: list[QTreeWidget] = []
        self.session_table = self._table() if session_id else None
        if self.session_table is not None:
            box.addWidget(QLabel(self.tr("<b>This session</b>")))
            box.addWidget(self.session_table)
        self.all_table = self._table()
        box.addWidget(QLabel(self.tr("<b>All time</b> (deleted sessions included)")))
        box.addWidget(self.all_table)
        note = QLabel(self.tr("Input counts every prompt token, cached ones included, for every service. "
                              "Cost appears only for models with a price (USD per million tokens): pick a "
                              "row and set its price."))
        note.setWordWrap(True)
        note.setStyleSheet(f"color: {theme.dim_color().name()}")
        box.addWidget(note)
        self.price_button = QPushButton(self.tr("Set price…"))
        self.price_button.setEnabled(False)
        self.price_button.clicked.connect(self._edit_price)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.price_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        box.addWidget(buttons)

    def _table(self) -> QTreeWidget:
        table = QTreeWidget()
        table.setHeaderLabels(columns())
        table.setRootIsDecorated(False)
        table.itemSelectionChanged.connect(lambda: self._selected(table))
        self.tables.append(table)
        return table

    async def reload(self) -> None:
        """Read both reports from the ledger again (after a price changed, for one)."""
        if self.session_table is not None and self._session_id:
            _fill(self.session_table, await self._kernel.usage.report(self._session_id))
        _fill(self.all_table, await self._kernel.usage.report(None))
        self.price_button.setEnabled(self.selected_key() is not None)

    def _selected(self, table: QTreeWidget) -> None:
        for other in self.tables:
            if other is not table and table.selectedItems():
                other.clearSelection()
        self.price_button.setEnabled(self.selected_key() is not None)

    def selected_key(self) -> tuple[str, str] | None:
        """(connection, model) of the selected line, or ``None``."""
        for table in self.tables:
            for item in table.selectedItems():
                key = item.data(0, ROW_KEY)
                if key:
                    return (str(key[0]), str(key[1]))
        return None

    def _edit_price(self) -> None:
        key = self.selected_key()
        if key is not None:
            self._runner.spawn(self.set_price(*key), self.tr("Setting a price"))

    async def set_price(self, connection: str, model: str) -> bool:
        """Ask for the price of one connection and model; save it and show the new costs."""
        dialog = PriceDialog(connection, model, self)
        self.price_dialog = dialog

        async def save() -> None:
            try:
                await self._kernel.usage.set_price(connection, model, *dialog.values())
            except (FoyaError, ValueError) as exc:
                dialog.show_error(error_text(exc) if isinstance(exc, FoyaError) else str(exc))
                return
            dialog.accept()

        dialog.save_requested.connect(lambda: self._runner.spawn(save(), self.tr("Saving the price")))
        try:
            saved = await run_dialog(dialog) == QDialog.DialogCode.Accepted
        finally:
            dialog.deleteLater()
        if saved:
            await self.reload()
        return saved


class PriceDialog(QDialog):
    """USD per million tokens for one connection and model; empty cache prices use the input price.

    Signals:
        save_requested(): Save was pressed (the usage window checks and stores the values).
    """

    save_requested = Signal()

    def __init__(self, connection: str, model: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Price of {model}").format(model=model))
        self.input = QLineEdit(placeholderText=self.tr("for example 3.00"))
        self.output = QLineEdit(placeholderText=self.tr("for example 15.00"))
        self.cache_read = QLineEdit(placeholderText=self.tr("same as input"))
        self.cache_write = QLineEdit(placeholderText=self.tr("same as input"))
        form = QFormLayout()
        form.addRow(self.tr("Connection / model"), QLabel(f"{connection}/{model}"))
        form.addRow(self.tr("Input, USD per million tokens"), self.input)
        form.addRow(self.tr("Output, USD per million tokens"), self.output)
        form.addRow(self.tr("Cache read (optional)"), self.cache_read)
        form.addRow(self.tr("Cache write (optional)"), self.cache_write)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(f"color: {theme.error_color().name()}")
        self.error.hide()
        for edit in (self.input, self.output, self.cache_read, self.cache_write):
            edit.textEdited.connect(self.error.hide)  # a refusal is about the values as they were
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.save_requested)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)

    def values(self) -> tuple[float | None, float | None, float | None, float | None]:
        """The four prices; empty is ``None``. Raises ``ValueError`` with a sentence for a non-number."""
        def number(edit: QLineEdit, what: str) -> float | None:
            text = edit.text().strip().lstrip("$").replace(",", ".")
            if not text:
                return None
            try:
                return float(text)
            except ValueError:
                raise ValueError(self.tr("{what}: “{text}” is not a number of dollars.").format(
                    what=what, text=edit.text().strip())) from None
        return (number(self.input, self.tr("Input")), number(self.output, self.tr("Output")),
                number(self.cache_read, self.tr("Cache read")),
                number(self.cache_write, self.tr("Cache write")))

    def show_error(self, text: str) -> None:
        """Say why the price was refused and stay open."""
        self.error.setText(text)
        self.error.show()


def _fill(table: QTreeWidget, report: UsageReport) -> None:
    table.clear()
    for line in report.lines:
        u = line.usage
        item = QTreeWidgetItem([
            line.day, f"{line.connection or '?'}/{line.model}", i18n.number(line.requests),
            i18n.tokens(u.input_tokens), i18n.tokens(u.cache_read_tokens),
            i18n.tokens(u.cache_write_tokens), i18n.tokens(u.output_tokens), cost_label(line.cost)])
        if line.connection:
            item.setData(0, ROW_KEY, (line.connection, line.model))
        table.addTopLevelItem(item)
    t = report.total
    translate = QCoreApplication.translate
    cost = cost_label(report.cost)
    if report.cost is not None and report.unpriced_lines:  # a sum that leaves lines out says so
        cost = translate("UsageDialog", "{cost} + %n line(s) without a price", "",
                         report.unpriced_lines).format(cost=cost)
    total = QTreeWidgetItem([
        translate("UsageDialog", "Total"), "", i18n.number(report.requests), i18n.tokens(t.input_tokens),
        i18n.tokens(t.cache_read_tokens), i18n.tokens(t.cache_write_tokens), i18n.tokens(t.output_tokens),
        cost])
    font = total.font(0)
    font.setBold(True)
    for col in range(table.columnCount()):
        total.setFont(col, font)
    table.addTopLevelItem(total)
    for col in range(table.columnCount()):
        table.resizeColumnToContents(col)


async def open_usage(kernel: KernelApi, runner: TaskRunner, session_id: str | None,
                     parent: QWidget | None) -> UsageDialog:
    """Load both reports and show the window (non-blocking ``open()``)."""
    dialog = UsageDialog(kernel, runner, session_id, parent)
    await dialog.reload()
    dialog.open()
    return dialog
