"""The history outline: a side list of the person's messages and the VP blocks under them.

A long session is read by its questions. The outline lists every user turn
of the whole session (from the store, not the timeline's window) with the
VP blocks that answered indented under it; a click brings that message on
screen even when its page is not loaded (``jump.reveal`` reloads the window
there). While the person scrolls, the entry being read is highlighted. New
messages extend the list without asking the store again.

Installed into the window from outside (like the find bar): it splits the
timeline's place in the pane, adds View ▸ History outline and a header
button, and remembers whether it was open (``Preferences.outline_shown``).
"""

from __future__ import annotations

import bisect

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QFont, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.store.outline import OutlineEntry
from foya_desktop.ui import theme
from foya_desktop.ui.reading.jump import reveal
from foya_desktop.ui.timeline import summaries
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.window_parts import WindowParts

OUTLINE = str(QT_TRANSLATE_NOOP("HistoryOutline", "History outline"))
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1
AnyIndex = QModelIndex | QPersistentModelIndex


class HistoryOutline(QWidget):
    """The list beside the timeline.

    Signals:
        (none; a click reveals the message through the window's task runner)
    """

    def __init__(self, window: WindowParts, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._w = window
        self._session: str | None = None
        self._entries: list[OutlineEntry] = []
        self._seqs: list[int] = []
        self._ids: set[str] = set()
        self.setObjectName("historyOutline")
        self.title = QLabel(self.tr(OUTLINE))
        font = QFont(theme.small_font())
        font.setBold(True)
        self.title.setFont(font)
        self.list = QListWidget()
        self.list.setFrameShape(QListWidget.Shape.NoFrame)
        self.list.setWordWrap(False)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setUniformItemSizes(True)
        self.list.setSpacing(1)
        self.list.itemClicked.connect(self._open)
        self.list.itemActivated.connect(self._open)
        self.empty = QLabel(self.tr("Your messages appear here; click one to jump to it."))
        self.empty.setWordWrap(True)
        self.empty.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 4, 8)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.empty)
        self.setMinimumWidth(180)
        self._follow = QTimer(self, singleShot=True, interval=60)
        self._follow.timeout.connect(self.follow_view)
        model = window.pane.timeline_model
        model.modelReset.connect(self._on_reset)
        model.rowsInserted.connect(self._on_rows_inserted)
        model.dataChanged.connect(  # a finished stream becomes its stored message in place
            lambda top, bottom, *_roles: self._on_rows_inserted(QModelIndex(), top.row(), bottom.row()))
        window.pane.timeline_view.rows_moved.connect(self._follow.start)

    # ---- filling --------------------------------------------------------------------------

    def _on_reset(self) -> None:
        """Another session starts the list over; the same session shown again means its history
        changed under the view (a rewind, a compaction), so the list is read again too: rows a
        rewind took away must leave the outline with the timeline's, not at the next message."""
        session = self._w.pane.timeline_model.session_id
        if session != self._session:
            self._session = session
            self._set_entries([])
        if session is not None and self.isVisible():
            self._w.runner.spawn(self.reload(), self.tr("Loading the outline"))

    async def reload(self) -> None:
        """Read the outline of the session on screen from the store."""
        session = self._session
        if session is None:
            return
        entries = await self._w.kernel.search.outline(session)
        if session == self._session:
            self._set_entries(entries)

    def showEvent(self, event: QShowEvent) -> None:
        """Opened: (re)read the list, which is not kept up to date while hidden."""
        super().showEvent(event)
        self._session = self._w.pane.timeline_model.session_id
        self._w.runner.spawn(self.reload(), self.tr("Loading the outline"))

    def _set_entries(self, entries: list[OutlineEntry]) -> None:
        self._entries, self._seqs, self._ids = [], [], set()
        self.list.clear()
        for entry in entries:
            self._add(entry)
        self._update_empty()

    def _add(self, entry: OutlineEntry) -> None:
        if entry.message_id in self._ids:
            return
        self._entries.append(entry)
        self._seqs.append(entry.seq)
        self._ids.add(entry.message_id)
        item = QListWidgetItem(self._text(entry))
        item.setData(ENTRY_ROLE, entry.message_id)
        item.setToolTip(entry.preview or self._text(entry))
        speakers = self._w.speakers
        if entry.is_turn:
            font = QFont(theme.small_font())
            font.setWeight(QFont.Weight.DemiBold)
            item.setFont(font)
        else:
            item.setFont(theme.small_font())
            item.setForeground(speakers.color(entry.speaker))
        self.list.addItem(item)

    def _text(self, entry: OutlineEntry) -> str:
        if entry.is_turn:
            return entry.preview or self.tr("(attachment)")
        name = self._w.speakers.name(entry.speaker)
        return f"    {name} · {entry.preview}" if entry.preview else f"    {name}"

    def _update_empty(self) -> None:
        self.empty.setVisible(not self._entries)

    def _on_rows_inserted(self, parent: AnyIndex, first: int, last: int) -> None:
        """New messages at the tail extend the list (older pages paged in are already listed)."""
        model = self._w.pane.timeline_model
        if parent.isValid() or not self.isVisible() or model.session_id != self._session:
            return
        for i in range(first, last + 1):
            row = model.row_at(i)
            if not isinstance(row, MessageRow) or row.message.role not in ("user", "assistant"):
                continue
            message = row.message
            if self._seqs and message.seq <= self._seqs[-1]:
                continue  # an older page, or already listed
            who = "" if message.role == "user" else (message.speaker or "?")
            last_entry = self._entries[-1] if self._entries else None
            if who and last_entry is not None and last_entry.speaker == who and self._last_is_block(who):
                continue  # the same VP block goes on
            preview = summaries.first_line(message.text, 120) if message.text.strip() else ""
            self._add(OutlineEntry(message.id, message.seq, who, message.created_at, preview))
        self._update_empty()

    def _last_is_block(self, who: str) -> bool:
        return bool(self._entries) and self._entries[-1].speaker == who

    # ---- using it -------------------------------------------------------------------------

    def entry_ids(self) -> list[str]:
        """Message ids in list order (tests)."""
        return [e.message_id for e in self._entries]

    def item_for(self, message_id: str) -> QListWidgetItem | None:
        """The list item of an entry (tests click it)."""
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item.data(ENTRY_ROLE) == message_id:
                return item
        return None

    def _open(self, item: QListWidgetItem) -> None:
        message_id = str(item.data(ENTRY_ROLE) or "")
        if message_id:
            self.list.setCurrentItem(item)  # at once; ``follow_view`` agrees once the jump has scrolled
            self._w.runner.spawn(reveal(self._w.pane, self._w.kernel, message_id),
                                 self.tr("Opening the message"))

    def follow_view(self) -> None:
        """Highlight the entry the person is reading: the last one at or above the middle of the view
        (where a jump puts its target)."""
        if not self._entries or not self.isVisible():
            return
        view = self._w.pane.timeline_view
        index = view.indexAt(QPoint(1, view.viewport().height() // 2))
        row = self._w.pane.timeline_model.row_at(index.row()) if index.isValid() else None
        if not isinstance(row, MessageRow):
            return
        at = bisect.bisect_right(self._seqs, row.seq) - 1
        if at >= 0 and self.list.currentRow() != at:
            self.list.blockSignals(True)
            self.list.setCurrentRow(at)
            self.list.blockSignals(False)
            self.list.scrollToItem(self.list.item(at))


class OutlineActions(QObject):
    """View ▸ History outline, the header button, the splitter beside the timeline, the remembered state.

    Signals:
        (none)
    """

    def __init__(self, window: WindowParts) -> None:
        super().__init__(window.pane)
        self._w = window
        pane = window.pane
        self.outline = HistoryOutline(window)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setHandleWidth(1)
        layout = pane.layout()
        assert layout is not None
        layout.replaceWidget(pane.timeline_view, self.splitter)
        self.splitter.addWidget(pane.timeline_view)
        self.splitter.addWidget(self.outline)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)
        self.action = QAction(QCoreApplication.translate("HistoryOutline", OUTLINE), self)  # its context
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.action.setToolTip(self.tr("Show or hide the list of your messages beside the timeline"))
        self.action.toggled.connect(self._toggled)
        menu = window.menuBar().addMenu(self.tr("&View"))
        menu.addAction(self.action)
        self.button = QToolButton()
        self.button.setDefaultAction(self.action)
        self.button.setText(self.tr("Outline"))
        self.button.setAutoRaise(True)
        pane.add_header_action(self.button)
        shown = window.prefs.current.outline_shown
        self.outline.setVisible(shown)
        self.action.setChecked(shown)
        if shown:
            self.splitter.setSizes([900, 240])

    def _toggled(self, shown: bool) -> None:
        self.button.setText(self.tr("Outline"))
        was = self.outline.isVisible()
        self.outline.setVisible(shown)
        if shown and not was:
            total = max(400, self.splitter.width())
            self.splitter.setSizes([total - 240, 240])
        if self._w.prefs.current.outline_shown != shown:
            self._w.prefs.update(outline_shown=shown)
