"""The working-directory picker dialog (Yeaft "选择工作目录").

One dialog for every place a folder is chosen: a new session, binding a
session from Recents, a new project, relinking a project. Its rules:

* The path reads compactly and every segment is a button: the leading ``/``
  (or drive) jumps to the root, any other segment straight back to it. Long
  paths fold their middle segments into a "…" menu — still one click each.
* Parent goes one folder up (on Windows, above a drive root: the drive list).
* The path box takes a typed or pasted path; Enter or Go loads it; a
  relative path starts at the default working directory.
* A single click on a folder enters it. Confirm always takes the folder being
  browsed — there is no second "selected" folder.
* Confirm is disabled while a folder loads, after a read error, and while the
  path box holds a path that has not been loaded. Errors show in the dialog;
  the person edits and retries.
* Listing runs on a worker thread; a stale result (the person clicked on)
  is dropped. Choosing a folder moves nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import PurePath

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.ui import theme
from foya_desktop.ui.aio import run_dialog
from foya_desktop.ui.picker import folders
from foya_desktop.ui.picker.folders import FolderError, Listing, Segment

Lister = Callable[[str], Listing]
SHOWN_SEGMENTS = 4
"""Segments after the root shown as buttons; earlier ones fold into the "…" menu."""
FOLDER_ROLE = Qt.ItemDataRole.UserRole



def folder_error_text(error: FolderError) -> str:
    """A folder problem in the window's language (``folders`` stays Qt-free and gives a code)."""
    translate = QCoreApplication.translate
    p = error.params
    texts = {
        "empty": lambda: translate("FolderPicker", "Type a folder path, for example ~/code/project."),
        "missing": lambda: translate("FolderPicker", "{path} does not exist.").format(**p),
        "file": lambda: translate("FolderPicker", "{path} is a file, not a folder.").format(**p),
        "denied": lambda: translate("FolderPicker", "Foya is not allowed to read {path}.").format(**p),
        "unreadable": lambda: translate("FolderPicker", "{path} could not be read: {reason}.").format(**p),
    }
    make = texts.get(error.code)
    return make() if make is not None else str(error)

class FolderPicker(QDialog):
    """Browse folders of this machine and confirm the one being browsed.

    Signals:
        loaded(str): a folder's listing is shown (its path); tests wait on it.
        failed(str): a folder could not be loaded (the sentence shown in the dialog).
    """

    loaded = Signal(str)
    failed = Signal(str)

    def __init__(self, start: str, default_dir: str, *, title: str = "",
                 confirm_text: str = "", cancel_text: str = "", intro: str = "",
                 lister: Lister = folders.list_folders,
                 pure: type[PurePath] = PurePath, parent: QWidget | None = None) -> None:
        """``intro``: plain text above the path saying what the folder is for (none by default);
        ``cancel_text``: the Cancel button's words when cancelling means more than closing."""
        super().__init__(parent)
        title = title or self.tr("Choose a folder")
        confirm_text = confirm_text or self.tr("Use this folder")
        self.setWindowTitle(title)
        self.setMinimumSize(560, 440)
        self._default_dir, self._lister, self._pure = default_dir, lister, pure
        self._current: str | None = None
        self._loading: str | None = None
        self._error = ""
        self._task: asyncio.Task[None] | None = None
        self._generation = 0
        self.crumbs = QHBoxLayout()
        self.crumbs.setSpacing(0)
        self.parent_button = _flat_button(self.tr("↑ Parent"), self.tr("Go to the folder above"))
        self.parent_button.clicked.connect(self.go_parent)
        self.path_edit = QLineEdit(placeholderText=self.tr("Type or paste a path, then Enter"))
        self.path_edit.textEdited.connect(lambda _t: self._refresh())
        self.path_edit.returnPressed.connect(self.go_typed)
        self.go_button = QPushButton(self.tr("Go"))
        self.go_button.clicked.connect(self.go_typed)
        self.list = QListWidget()
        self.list.setUniformItemSizes(True)
        self.list.itemClicked.connect(self._enter_item)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.confirm_button = QPushButton(confirm_text)
        self.buttons.addButton(self.confirm_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        if cancel_text:
            self.cancel_button.setText(cancel_text)
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        self.intro.setVisible(bool(intro))
        for button in (self.go_button, self.confirm_button, self.cancel_button):
            button.setAutoDefault(False)  # Enter in the path box means Go, never Confirm
        self.buttons.accepted.connect(self._confirm)
        self.buttons.rejected.connect(self.reject)
        self.finished.connect(lambda _code: self._cancel_load())
        self._layout()
        self._start = start or default_dir
        self._refresh()

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.parent_button)
        top.addLayout(self.crumbs, 1)
        typed = QHBoxLayout()
        typed.addWidget(self.path_edit, 1)
        typed.addWidget(self.go_button)
        hint = QLabel(self.tr("Relative paths start at {folder}. Choosing a folder moves no files and no "
                              "history.").format(folder=self._default_dir))
        hint.setWordWrap(True)
        hint.setFont(theme.small_font())
        hint.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(top)
        layout.addLayout(typed)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.message)
        layout.addWidget(hint)
        layout.addWidget(self.buttons)

    # ---- what the person does -------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        """The first folder loads when the dialog appears (a loop is running by then)."""
        super().showEvent(event)
        if self._current is None and self._loading is None and not self._error:
            self.load(self._start)

    def go_typed(self) -> None:
        """Load the path in the box (relative to the default working directory)."""
        try:
            self.load(folders.resolve_typed(self.path_edit.text(), self._default_dir))
        except FolderError as error:
            self._show_error(folder_error_text(error))

    def go_parent(self) -> None:
        """One folder up (above a Windows drive root: the drives)."""
        above = folders.parent(self._current or self._start, self._pure)
        if above is not None:
            self.load(above)

    def _enter_item(self, item: QListWidgetItem) -> None:
        self.load(str(item.data(FOLDER_ROLE)))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter in the path box loads it; Enter on a folder enters it; Enter never confirms."""
        if event.key() in (Qt.Key.Key_Enter, Qt.Key.Key_Return):
            if self.list.hasFocus() and (item := self.list.currentItem()) is not None:
                self._enter_item(item)
            elif self.confirm_button.hasFocus() and self.confirm_button.isEnabled():
                self._confirm()
            return  # the path box handled it through returnPressed
        super().keyPressEvent(event)

    def load(self, path: str) -> None:
        """Show ``path``'s sub-folders once they are read (off the GUI thread)."""
        self._cancel_load()
        self._generation += 1
        self._loading, self._error = path, ""
        self.path_edit.setText(folders.display(path))
        self.message.setText(self.tr("Loading…"))
        self.message.setStyleSheet("")
        self._refresh()
        self._task = asyncio.ensure_future(self._load(path, self._generation))

    async def _load(self, path: str, generation: int) -> None:
        try:
            listing = await asyncio.to_thread(self._lister, path)
        except FolderError as error:
            if generation == self._generation:
                self._show_error(folder_error_text(error))
            return
        except OSError as error:  # a lister that is not ours
            if generation == self._generation:
                self._show_error(
                    self.tr("{path} could not be read: {reason}.").format(path=path, reason=error)
                )
            return
        if generation == self._generation:
            self._show(listing)

    def _cancel_load(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    # ---- what the dialog shows -------------------------------------------------------------

    def _show(self, listing: Listing) -> None:
        self._current, self._loading, self._error = listing.path, None, ""
        self.path_edit.setText(folders.display(listing.path))
        self.list.clear()
        kind = QStyle.StandardPixmap
        icon = self.style().standardIcon(kind.SP_DriveHDIcon if listing.path == folders.DRIVES
                                         else kind.SP_DirIcon)
        for name in listing.folders:
            item = QListWidgetItem(icon, name)
            item.setData(FOLDER_ROLE, folders.child(listing.path, name, self._pure))
            self.list.addItem(item)
        self.message.setText("" if listing.folders else self.tr("This folder has no sub-folders."))
        self.message.setStyleSheet("")
        self._render_crumbs(folders.segments(listing.path, self._pure))
        self._refresh()
        self.loaded.emit(listing.path)

    def _show_error(self, text: str) -> None:
        self._loading, self._error = None, text
        self.message.setText("⚠ " + self.tr("{problem} Edit the path and press Enter to try again.").format(
            problem=text))
        self.message.setStyleSheet(f"color: {theme.error_color().name()};")
        self._refresh()
        self.failed.emit(text)

    def _render_crumbs(self, parts: list[Segment]) -> None:
        while self.crumbs.count():
            item = self.crumbs.takeAt(0)
            if item is not None and (widget := item.widget()) is not None:
                widget.deleteLater()
        root, rest = parts[0], parts[1:]
        self.crumbs.addWidget(self._crumb(root))
        folded, shown = rest[:-SHOWN_SEGMENTS], rest[-SHOWN_SEGMENTS:]
        previous = root.label
        if folded:
            more = _flat_button("…", self.tr("Folders further up"))
            menu = QMenu(more)
            for segment in folded:
                menu.addAction(segment.label, self._loader(segment.target))
            more.setMenu(menu)
            more.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            more.setStyleSheet("QToolButton::menu-indicator { image: none; }")
            self._add_separator(previous, root)
            self.crumbs.addWidget(more)
            previous = more.text()
        for segment in shown:
            self._add_separator(previous, root)
            self.crumbs.addWidget(self._crumb(segment))
            previous = segment.label
        self.crumbs.addStretch(1)

    def _add_separator(self, previous: str, root: Segment) -> None:
        if not previous.endswith(("/", "\\")):  # a root like "/" or "C:\\" is its own separator
            self.crumbs.addWidget(_separator(root))

    def _crumb(self, segment: Segment) -> QToolButton:
        tip = self.tr("Go to {folder}").format(folder=segment.target) if segment.target else self.tr(
            "Go to the drives")
        button = _flat_button(segment.label, tip)
        button.clicked.connect(self._loader(segment.target))
        return button

    def _loader(self, target: str) -> Callable[[], None]:
        return lambda: self.load(target)

    def _refresh(self) -> None:
        typed_pending = (self._current is not None and self._loading is None
                         and self.path_edit.text() != folders.display(self._current))
        self.confirm_button.setEnabled(self._current not in (None, folders.DRIVES)
                                       and self._loading is None and not self._error
                                       and not typed_pending)
        if typed_pending and not self._error:
            self.message.setText(self.tr("Press Enter or Go to load the typed path before confirming."))
            self.message.setStyleSheet("")
        self.parent_button.setEnabled(
            folders.parent(self._current or self._start, self._pure) is not None)

    # ---- the answer -----------------------------------------------------------------------

    def _confirm(self) -> None:
        if self.confirm_button.isEnabled():
            self.accept()

    def chosen(self) -> str | None:
        """The folder being browsed (what Confirm takes), or None before one loaded."""
        return self._current

    def confirm_enabled(self) -> bool:
        """Whether Confirm may be pressed now (tests)."""
        return self.confirm_button.isEnabled()

    def crumb_labels(self) -> list[str]:
        """The texts of the path buttons, in order (tests)."""
        out = []
        for i in range(self.crumbs.count()):
            item = self.crumbs.itemAt(i)
            widget = item.widget() if item is not None else None
            if isinstance(widget, QToolButton):
                out.append(widget.text())
        return out

    def crumb_button(self, label: str) -> QToolButton:
        """The path button reading ``label`` (tests click it)."""
        for i in range(self.crumbs.count()):
            item = self.crumbs.itemAt(i)
            widget = item.widget() if item is not None else None
            if isinstance(widget, QToolButton) and widget.text() == label:
                return widget
        raise KeyError(label)


def _flat_button(text: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    return button


def _separator(root: Segment) -> QLabel:
    label = QLabel("\\" if root.label.endswith("\\") else "/")
    label.setEnabled(False)
    return label


async def choose_folder(
    parent: QWidget | None,
    *,
    start: str,
    default_dir: str,
    title: str = "",
    confirm_text: str = "",
) -> str | None:
    """Show the picker and wait; the confirmed folder, or None when cancelled."""
    dialog = FolderPicker(start, default_dir, title=title, confirm_text=confirm_text, parent=parent)
    try:
        accepted = await run_dialog(dialog) == QDialog.DialogCode.Accepted
        return dialog.chosen() if accepted else None
    finally:
        dialog.deleteLater()
