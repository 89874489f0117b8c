"""Ctrl+K: jump to any session or run any command of the window by typing a few letters.

The commands are the window's own menu actions, collected when the switcher
opens, so an action another part adds to a menu (export, MCP servers, …) is
offered without registering it here; disabled actions are left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QAction, QIcon, QKeyEvent, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.ui import theme
from foya_desktop.ui.icons import icon

_PAYLOAD = Qt.ItemDataRole.UserRole + 1
MAX_ITEMS = 200


@dataclass(frozen=True, slots=True)
class Choice:
    """One entry: a session to open or an action to trigger."""

    title: str
    detail: str
    session_id: str = ""
    action: QAction | None = None


def score(query: str, text: str) -> int | None:
    """How well ``query`` matches ``text`` (higher is better), or None for no match.

    Every query letter must appear in order (so "nss" finds "New session");
    a plain substring beats scattered letters, and a match at a word start
    beats one inside a word.
    """
    q, t = query.casefold().strip(), text.casefold()
    if not q:
        return 0
    at = t.find(q)
    if at >= 0:
        return 1000 - at + (200 if at == 0 or not t[at - 1].isalnum() else 0)
    pos, gaps = -1, 0
    for ch in q:
        nxt = t.find(ch, pos + 1)
        if nxt < 0:
            return None
        gaps += nxt - pos - 1
        pos = nxt
    return max(1, 500 - gaps)


def menu_actions(menus: list[QAction], path: str = "") -> list[tuple[str, QAction]]:
    """Every enabled, named action under the given menu-bar entries, with its submenu path.

    An action in a submenu is named "Submenu › Action" ("Merge with › Release notes"), so it
    cannot be mistaken for a session of the same name.
    """
    found: dict[QAction, str] = {}
    for entry in menus:
        menu = entry.menu()
        if not isinstance(menu, QMenu):
            continue
        for action in menu.actions():
            if action.isSeparator() or not action.isEnabled() or not action.isVisible():
                continue
            label = _plain(action.text())
            if action.menu() is not None:
                for sub_label, sub in menu_actions([action], f"{path}{label} › "):
                    found.setdefault(sub, sub_label)
            elif label:
                found.setdefault(action, path + label)
    return [(label, action) for action, label in found.items()]


def _plain(text: str) -> str:
    return text.split("\t", maxsplit=1)[0].replace("&", "").rstrip("…").strip()


class QuickSwitcher(QDialog):
    """A search field over sessions and commands; Enter picks, Esc closes.

    After ``accept()``, :attr:`chosen` holds what was picked.
    """

    def __init__(self, sessions: list[Choice], commands: list[Choice], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("quickSwitcher")
        self.setWindowTitle(self.tr("Go to a session or command"))
        self.setWindowFlag(Qt.WindowType.FramelessWindowHint)
        self.setMinimumWidth(560)
        self._choices = sessions + commands
        self.chosen: Choice | None = None
        self.input = QLineEdit()
        self.input.setObjectName("quickSwitcherInput")
        self.input.setPlaceholderText(self.tr("Type to find a session or a command…"))
        self.input.installEventFilter(self)
        self.list = QListWidget()
        self.list.setObjectName("quickSwitcherList")
        self.list.setUniformItemSizes(True)
        self.list.setMinimumHeight(320)
        self.list.itemActivated.connect(self._pick)
        self.list.setItemDelegate(_ChoiceDelegate(self.list))
        self.footer = QLabel(self.tr("↑↓ to move · Enter to open · Esc to close"))
        self.footer.setFont(theme.scaled_font("caption"))
        self.footer.setEnabled(False)
        self.setStyleSheet("#quickSwitcher { border: 1px solid palette(mid); border-radius: 10px; }"
                           " QListWidget { border: none; } QListWidget::item { padding: 6px 10px; }")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(1, 1, 1, theme.SPACE)
        layout.setSpacing(0)
        layout.addWidget(self.input)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.footer, 0, Qt.AlignmentFlag.AlignRight)
        self.footer.setContentsMargins(0, theme.SPACE // 2, 2 * theme.SPACE, 0)
        self.input.textChanged.connect(self.filter)
        self.filter("")

    def filter(self, query: str) -> None:
        """Show the matching entries, best first (sessions before commands on a tie)."""
        ranked: list[tuple[int, int, Choice]] = []
        for order, choice in enumerate(self._choices):
            s = score(query, f"{choice.title} {choice.detail}")
            if s is not None:
                ranked.append((-s, order, choice))
        ranked.sort(key=lambda r: (r[0], r[1]))
        self.list.clear()
        for _, _, choice in ranked[:MAX_ITEMS]:
            glyph = "chat" if choice.session_id else "switcher"
            item = QListWidgetItem(_icon(glyph), choice.title)
            item.setData(_PAYLOAD, choice)
            self.list.addItem(item)
        if self.list.count():
            self.list.setCurrentRow(0)

    def shown_titles(self) -> list[str]:
        """The entries' titles as listed now (tests)."""
        out = []
        for i in range(self.list.count()):
            item = self.list.item(i)
            if item is not None:
                out.append(item.data(_PAYLOAD).title)
        return out

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up/Down/PageUp/PageDown in the field move the selection; Enter picks."""
        if watched is self.input and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
                self.list.keyPressEvent(event)  # the list moves its own current row
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                current = self.list.currentItem()
                if current is not None:
                    self._pick(current)
                return True
        return super().eventFilter(watched, event)

    def _pick(self, item: QListWidgetItem) -> None:
        self.chosen = item.data(_PAYLOAD)
        self.accept()


class _ChoiceDelegate(QStyledItemDelegate):
    """The title on the left, the detail (project, shortcut) dim and right-aligned."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), theme.HIT_SIZE + 2))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        super().paint(painter, option, index)
        choice: Choice | None = index.data(_PAYLOAD)
        if choice is None or not choice.detail:
            return
        painter.save()
        painter.setFont(theme.scaled_font("caption"))
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.setPen(option.palette.color(QPalette.ColorRole.HighlightedText) if selected
                       else theme.dim_color())
        area = option.rect.adjusted(0, 0, -2 * theme.SPACE, 0)
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(area, int(align), choice.detail)
        painter.restore()


def command_choice(label: str, action: QAction) -> Choice:
    """A menu action as an entry: its menu path as the title, its shortcut as the detail."""
    keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    return Choice(label, keys, action=action)


def _icon(name: str) -> QIcon:
    return icon(name)
