"""The window's notices of memory saves that reach other projects, each with *Undo*
(docs/window/memory.md).

A VP's save to the person's own (``user``) memory or to its ``vp`` memory applies in
every session of every project, so wherever it happens — in the session on screen,
in one running in the background — the window says what was saved and where it
applies, above the sessions, until the person dismisses it. The timeline's card at
the call (``memory_card``) stays the record in the session itself; either *Undo*
removes the entry, and a notice whose entry is removed elsewhere goes away.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QVBoxLayout, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import MemoryChanged
from foya_desktop.core.memory import PERSON, MemoryScope
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.cards.common import button, card_frame, label, recolor
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.speakers import SpeakerDirectory

FAR_REACHING = (MemoryScope.USER.value, MemoryScope.VP.value)
"""Scopes that apply beyond the session they were saved in (and its project)."""
MAX_NOTICES = 3
"""The oldest goes when a fourth arrives: the strip must not push the sessions off screen."""


class MemoryNotice(QFrame):
    """"Omni saved to Omni's memory — it applies to Omni in every session of every project" + *Undo*.

    Signals:
        closed(): dismissed, or its entry was removed elsewhere (the strip drops it).
    """

    closed = Signal()

    def __init__(self, kernel: KernelApi, runner: TaskRunner, event: MemoryChanged,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self.entry_id = kernel, runner, event.entry_id
        self.scope = event.scope
        self.state = "saved"
        """``saved`` (undo offered) or ``undone``."""
        layout = card_frame(self, theme.warning_color())
        layout.setContentsMargins(10, 6, 10, 6)
        self.title = label(bold=True)
        self.text = label(f"“{event.text}”", select=True)
        self.status = label(color=theme.dim_color())
        self.undo_button = button(self.tr("Undo"), self.undo, self.tr("Remove this entry from memory again"))
        self.dismiss_button = button(self.tr("Dismiss"), self.dismiss, self.tr("Keep the entry and close "
                                                                             "this notice"))
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.status, 1)
        row.addWidget(self.undo_button, 0, Qt.AlignmentFlag.AlignRight)
        row.addWidget(self.dismiss_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        layout.addLayout(row)
        self._say(QCoreApplication.translate("MemorySaveCard", "Saved. Undo removes it."))

    def describe(self, who: str, vp: str) -> None:
        """Who saved, and where the entry applies (``vp``: the name of the VP whose memory it is)."""
        if self.scope == MemoryScope.USER.value:
            title = self.tr("{who} saved to your own memory. It applies to every VP in every session of "
                            "every project.").format(who=who)
        else:
            title = self.tr("{who} saved to {vp}'s memory. It applies to {vp} in every session of every "
                            "project.").format(who=who, vp=vp)
        self.title.setText(title)

    def _say(self, text: str) -> None:
        self.status.setText(text)

    def undo(self) -> None:
        """Remove the entry (runs as a named task)."""
        self.undo_button.setEnabled(False)
        self._runner.spawn(self._undo(), self.tr("Undo memory save"))

    async def _undo(self) -> None:
        self.state = "undone"  # the removal's own event must not close the notice before it says so
        try:
            await self._kernel.memory.remove_memory(self.entry_id)
        except FoyaError as error:
            self._say(error_text(error))
        else:
            translate = QCoreApplication.translate
            self._say(translate("MemorySaveCard", "Undone: the entry was removed from memory."))
        self.undo_button.hide()
        recolor(self, theme.dim_color())

    def dismiss(self) -> None:
        """Close the notice; the entry stays."""
        self.hide()
        self.closed.emit()


class MemoryNotices(QWidget):
    """The strip of notices at the top of the window (fed the engine's ``MemoryChanged``)."""

    def __init__(self, kernel: KernelApi, runner: TaskRunner, speakers: SpeakerDirectory,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self._speakers = kernel, runner, speakers
        self.notices: list[MemoryNotice] = []
        """Shown now, oldest first."""
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 6, 8, 0)
        self._layout.setSpacing(4)
        self.hide()

    def on_memory_changed(self, event: MemoryChanged) -> None:
        """A VP's far-reaching save gets a notice; an entry removed elsewhere loses its notice."""
        if event.change == "saved" and event.scope in FAR_REACHING and event.author != PERSON:
            self._add(event)
        elif event.change == "removed":
            for notice in [n for n in self.notices if n.entry_id == event.entry_id and n.state == "saved"]:
                notice.dismiss()

    def _add(self, event: MemoryChanged) -> None:
        notice = MemoryNotice(self._kernel, self._runner, event, self)
        notice.describe(self._speakers.name(event.author), self._speakers.name(event.vp_id))
        if any(self._speakers.vp(i) is None for i in (event.author, event.vp_id) if i):
            self._runner.spawn(self._name(notice, event), self.tr("Memory"))
        notice.closed.connect(lambda n=notice: self._drop(n))
        self.notices.append(notice)
        self._layout.addWidget(notice)
        while len(self.notices) > MAX_NOTICES:
            self.notices[0].dismiss()
        self.show()

    async def _name(self, notice: MemoryNotice, event: MemoryChanged) -> None:
        """A VP the window has not listed yet (added since it opened): its name from the library."""
        names = {vp.id: vp.name for vp in await self._kernel.vps.list_vps()}
        if notice in self.notices:
            notice.describe(names.get(event.author, event.author), names.get(event.vp_id, event.vp_id))

    def _drop(self, notice: MemoryNotice) -> None:
        if notice in self.notices:
            self.notices.remove(notice)
            notice.deleteLater()
        self.setVisible(bool(self.notices))
