"""The session's message queue under the composer: reorder, edit, remove, send next.

Queued messages are the person's words waiting their turn; they must be
visible and editable, never silently dropped. The widget only *asks* for
changes (signals); the list is rebuilt from the kernel's ``QueueChanged``
snapshots, so what is shown is always what the kernel will send.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.records import QueueItem
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.summaries import first_line

ID_ROLE = Qt.ItemDataRole.UserRole + 1
TEXT_ROLE = Qt.ItemDataRole.UserRole + 2
AnyIndex = QModelIndex | QPersistentModelIndex


class _EditDelegate(QStyledItemDelegate):
    """Edits the full (multi-line) text; the result goes to the kernel, not the list.

    Signals:
        (none of its own; edits are reported through the owning QueueWidget)
    """

    def __init__(self, owner: QueueWidget) -> None:
        super().__init__(owner)
        self._owner = owner

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: AnyIndex) -> QWidget:
        """A small multi-line editor: queued messages can span lines."""
        editor = QPlainTextEdit(parent)
        editor.setMinimumHeight(60)
        return editor

    def setEditorData(self, editor: QWidget, index: AnyIndex) -> None:
        """Start from the full queued text, not the one-line display."""
        assert isinstance(editor, QPlainTextEdit)
        editor.setPlainText(str(index.data(TEXT_ROLE) or ""))

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """Taller than the row so several lines fit."""
        rect = option.rect
        editor.setGeometry(rect.x(), rect.y(), rect.width(), max(60, rect.height()))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: AnyIndex) -> None:
        """Ask for the edit; the list refreshes from the kernel's next snapshot."""
        assert isinstance(editor, QPlainTextEdit)
        text = editor.toPlainText().strip()
        if text and text != index.data(TEXT_ROLE):
            self._owner.edit_requested.emit(str(index.data(ID_ROLE)), text)


class QueueWidget(QWidget):
    """Queued messages of the current session.

    Signals:
        move_requested(str, int): move a queue item to a new index.
        edit_requested(str, str): replace a queue item's text.
        remove_requested(str): drop a queue item.
        interrupt_requested(str): stop the current turn and send this item next.
        resume_requested(): the queue is paused after a stop; start sending again.
    """

    move_requested = Signal(str, int)
    edit_requested = Signal(str, str)
    remove_requested = Signal(str)
    interrupt_requested = Signal(str)
    resume_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: tuple[QueueItem, ...] = ()
        self.title = QLabel()
        self.resume_button = QPushButton(self.tr("Resume queue"))
        self.resume_button.clicked.connect(self.resume_requested)
        self.list = self._make_list()
        self.buttons = self._make_buttons()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 4, 12, 0)
        layout.setSpacing(2)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.resume_button)
        for button in self.buttons.values():
            header.addWidget(button)
        layout.addLayout(header)
        layout.addWidget(self.list)
        self.set_items((), paused=False)

    def _make_list(self) -> QListWidget:
        widget = QListWidget()
        widget.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        widget.setDefaultDropAction(Qt.DropAction.MoveAction)
        widget.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                               | QAbstractItemView.EditTrigger.EditKeyPressed)
        widget.setItemDelegate(_EditDelegate(self))
        widget.model().rowsMoved.connect(self._on_rows_moved)
        widget.currentRowChanged.connect(self._update_buttons)
        return widget

    def _make_buttons(self) -> dict[str, QToolButton]:
        specs = {"up": ("↑", self.tr("Move up"), lambda: self._move_current(-1)),
                 "down": ("↓", self.tr("Move down"), lambda: self._move_current(+1)),
                 "edit": ("✎", self.tr("Edit"), self._edit_current),
                 "remove": ("✕", self.tr("Remove from queue"), self._remove_current),
                 "send_now": (self.tr("Send now"), self.tr("Stop the current reply and send this next"),
                              self._interrupt_current)}
        buttons = {}
        for name, (text, tip, slot) in specs.items():
            button = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.setObjectName("queueButton")  # themed, and comfortable to hit (ui/theme.py)
            button.setMinimumSize(theme.SMALL_HIT, theme.SMALL_HIT)
            button.clicked.connect(slot)
            buttons[name] = button
        return buttons

    def set_items(self, items: tuple[QueueItem, ...], paused: bool) -> None:
        """Show a kernel snapshot, keeping the selected item selected."""
        current = self.current_id()
        self._items = items
        self.list.clear()
        for item in items:
            row = QListWidgetItem(first_line(item.text, 200))
            row.setData(ID_ROLE, item.id)
            row.setData(TEXT_ROLE, item.text)
            row.setToolTip(item.text)
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsDragEnabled)
            self.list.addItem(row)
            if item.id == current:
                self.list.setCurrentItem(row)
        count = len(items)
        title = self.tr("Queued (%n)", "", count)
        self.title.setText(title + self.tr(" — paused after stop") if paused else title)
        self.resume_button.setVisible(paused and count > 0)
        self.list.setFixedHeight(min(4, max(1, count)) * (self.list.sizeHintForRow(0) + 2) + 4)
        self.setVisible(count > 0)
        self._update_buttons()

    def items(self) -> tuple[QueueItem, ...]:
        """The snapshot on screen."""
        return self._items

    def current_id(self) -> str | None:
        """Id of the selected queue item."""
        item = self.list.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else None

    def _update_buttons(self, *_args: object) -> None:
        row = self.list.currentRow()
        has = row >= 0
        self.buttons["up"].setEnabled(has and row > 0)
        self.buttons["down"].setEnabled(has and row < self.list.count() - 1)
        for name in ("edit", "remove", "send_now"):
            self.buttons[name].setEnabled(has)

    def _move_current(self, delta: int) -> None:
        row, item_id = self.list.currentRow(), self.current_id()
        if item_id is not None and 0 <= row + delta < self.list.count():
            self.move_requested.emit(item_id, row + delta)

    def _edit_current(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.editItem(item)

    def _remove_current(self) -> None:
        item_id = self.current_id()
        if item_id is not None:
            self.remove_requested.emit(item_id)

    def _interrupt_current(self) -> None:
        item_id = self.current_id()
        if item_id is not None:
            self.interrupt_requested.emit(item_id)

    def _on_rows_moved(self, _parent: QModelIndex, start: int, _end: int, _dest: QModelIndex,
                       row: int) -> None:
        """A drag finished: ``row`` is the drop position before removal of the source."""
        new_index = row - 1 if row > start else row
        if 0 <= start < len(self._items):
            self.move_requested.emit(self._items[start].id, new_index)
