"""The Memory window: every scope's entries, who wrote them and where, with add / edit / remove.

One tab per scope (docs/window/memory.md "Memory"): *You* (user), *VPs* (each VP's memory in every
session), *VPs in this session* and *This session* (the last two for the session on
screen). Each entry shows its text, the VP whose scope it is, who wrote it (a VP or
you), the session it was written in and when. Double-click the text to edit it;
*Remove* deletes the selected entries; the line at the bottom adds one to the tab's
scope (with the VP chosen beside it for the VP scopes). A VP's save elsewhere shows
up here at once (the window's bridge hands ``MemoryChanged`` to ``SessionActions``).
"""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.memory import PERSON, MemoryEntry, MemoryScope
from foya_desktop.core.model import VP, Session
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi

SCOPES = (MemoryScope.USER, MemoryScope.VP, MemoryScope.SESSION_VP, MemoryScope.SESSION)
ID_ROLE = Qt.ItemDataRole.UserRole


class MemoryDialog(QDialog):
    """Memory of every scope, for the session on screen (``session`` may be ``None``)."""

    def __init__(self, kernel: KernelApi, runner: TaskRunner, session: Session | None, vps: list[VP],
                 titles: dict[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self._session = kernel, runner, session
        self._vps = {vp.id: vp for vp in vps}
        self._titles = titles
        self._filling = False
        self.entries: dict[MemoryScope, list[MemoryEntry]] = {s: [] for s in SCOPES}
        self.setWindowTitle(self.tr("Memory — {title}").format(title=session.title) if session
                            else self.tr("Memory"))
        self.setMinimumSize(900, 480)
        self.tabs = QTabWidget()
        self.trees: dict[MemoryScope, QTreeWidget] = {}
        self._labels = labels = {
            MemoryScope.USER: self.tr("You (every session)"), MemoryScope.VP: self.tr("VPs (every session)"),
            MemoryScope.SESSION_VP: self.tr("VPs in this session"),
            MemoryScope.SESSION: self.tr("This session (shared)")}
        for scope in SCOPES:
            tree = self._tree()
            self.trees[scope] = tree
            index = self.tabs.addTab(tree, labels[scope])
            if scope.needs_session and session is None:
                self.tabs.setTabEnabled(index, False)
        self.hint = QLabel(wordWrap=True)
        self.new_text = QLineEdit(placeholderText=self.tr("A fact or preference to remember…"))
        self.vp_choice = QComboBox()
        for vp in vps:
            if session is None or vp.id in session.roster or not session.roster:
                self.vp_choice.addItem(vp.name, vp.id)
        self.add_button = QPushButton(self.tr("Add"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.message = QLabel(wordWrap=True)
        self._layout()
        self.tabs.currentChanged.connect(self._tab_changed)
        self.add_button.clicked.connect(lambda: self._runner.spawn(self.add(), self.tr("Add to memory")))
        self.new_text.returnPressed.connect(self.add_button.click)
        self.remove_button.clicked.connect(lambda: self._runner.spawn(self.remove_selected(),
                                                                      self.tr("Remove from memory")))
        self._tab_changed(0)

    def _tree(self) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setColumnCount(5)
        tree.setHeaderLabels([self.tr("Entry"), self.tr("VP"), self.tr("Written by"), self.tr("In session"),
                              self.tr("Saved")])
        tree.setRootIsDecorated(False)
        tree.setSelectionMode(QTreeWidget.SelectionMode.ExtendedSelection)
        for column, width in enumerate((290, 80, 80, 240)):
            tree.setColumnWidth(column, width)
        tree.setEditTriggers(QTreeWidget.EditTrigger.DoubleClicked | QTreeWidget.EditTrigger.EditKeyPressed)
        tree.itemChanged.connect(self._edited)
        tree.itemSelectionChanged.connect(self._update_buttons)
        return tree

    def _layout(self) -> None:
        root = QVBoxLayout(self)
        root.addWidget(self.tabs, 1)
        root.addWidget(self.hint)
        add_row = QHBoxLayout()
        add_row.addWidget(self.new_text, 1)
        add_row.addWidget(self.vp_choice)
        add_row.addWidget(self.add_button)
        add_row.addWidget(self.remove_button)
        root.addLayout(add_row)
        root.addWidget(self.message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        root.addWidget(buttons)

    # ---- state ---------------------------------------------------------------------------------

    @property
    def scope(self) -> MemoryScope:
        """The scope of the tab on screen."""
        return SCOPES[self.tabs.currentIndex()]

    def _tab_changed(self, _index: int) -> None:
        scope = self.scope
        self.vp_choice.setVisible(scope.needs_vp)
        self.hint.setText({
            MemoryScope.USER: self.tr("Your lasting preferences: every VP sees them in every session. VPs "
                                      "may add here only with your approval."),
            MemoryScope.VP: self.tr("Each VP's own knowledge: seen by that VP in every session."),
            MemoryScope.SESSION_VP: self.tr("Each VP's knowledge in this session only; deleted with the "
                                            "session, never copied by fork, branch or merge."),
            MemoryScope.SESSION: self.tr("Shared facts of this collaboration: every VP of this session sees "
                                         "them; deleted with the session, never copied by fork, branch or "
                                         "merge."),
        }[scope])
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.trees[self.scope].selectedItems()))

    def _name(self, vp_id: str) -> str:
        if vp_id == PERSON:
            return self.tr("you")
        vp = self._vps.get(vp_id)
        return vp.name if vp is not None else vp_id

    def _session_text(self, session_id: str) -> str:
        if not session_id:
            return "—"
        title = self._titles.get(session_id)
        return f"{title} ({session_id})" if title is not None else self.tr("deleted session ({id})").format(
            id=session_id)

    async def refresh(self) -> None:
        """Read every scope again."""
        sid = self._session.id if self._session is not None else None
        for scope in SCOPES:
            if scope.needs_session and sid is None:
                self.entries[scope] = []
            else:
                self.entries[scope] = await self._kernel.memory.list_memory(
                    scope, session_id=sid if scope.needs_session else None)
        self._fill()

    def _fill(self) -> None:
        self._filling = True
        try:
            for scope, tree in self.trees.items():
                tree.clear()
                for entry in self.entries[scope]:
                    when = dt.datetime.fromtimestamp(entry.created_at / 1000).strftime("%Y-%m-%d %H:%M")
                    item = QTreeWidgetItem([entry.text, self._name(entry.vp_id) if entry.vp_id else "—",
                                            self._name(entry.author),
                                            self._session_text(entry.source_session_id), when])
                    item.setData(0, ID_ROLE, entry.id)
                    item.setToolTip(0, entry.text)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                    tree.addTopLevelItem(item)
        finally:
            self._filling = False
        for index, scope in enumerate(SCOPES):
            count = len(self.entries[scope])
            self.tabs.setTabText(index, self._labels[scope] + (f"  · {count}" if count else ""))
        self._update_buttons()

    # ---- edits -------------------------------------------------------------------------------

    async def add(self) -> MemoryEntry | None:
        """Add the typed text to the tab's scope."""
        scope = self.scope
        vp = str(self.vp_choice.currentData() or "") if scope.needs_vp else None
        sid = self._session.id if self._session is not None else None
        try:
            entry = await self._kernel.memory.add_memory(scope, self.new_text.text(), vp=vp, session_id=sid)
        except FoyaError as error:
            self.message.setText(error_text(error))
            return None
        self.new_text.clear()
        self.message.setText(self.tr("Saved."))
        await self.refresh()
        return entry

    def _edited(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0:
            return
        entry_id = str(item.data(0, ID_ROLE))
        self._runner.spawn(self.edit(entry_id, item.text(0)), self.tr("Edit memory"))

    async def edit(self, entry_id: str, text: str) -> MemoryEntry | None:
        """New text for an entry."""
        try:
            entry = await self._kernel.memory.edit_memory(entry_id, text)
        except FoyaError as error:
            self.message.setText(error_text(error))
            await self.refresh()
            return None
        self.message.setText(self.tr("Saved."))
        await self.refresh()
        return entry

    async def remove_selected(self) -> int:
        """Remove the selected entries of the tab on screen; how many went."""
        ids = [str(item.data(0, ID_ROLE)) for item in self.trees[self.scope].selectedItems()]
        removed = 0
        for entry_id in ids:
            try:
                await self._kernel.memory.remove_memory(entry_id)
                removed += 1
            except FoyaError as error:
                self.message.setText(error_text(error))
        if removed:
            self.message.setText(self.tr("Removed %n entry(ies).", "", removed))
        await self.refresh()
        return removed
