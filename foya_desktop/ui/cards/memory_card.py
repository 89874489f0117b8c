"""A VP's memory save in the timeline: what was saved where, and *Undo* (docs/window/memory.md "Memory").

Drawn at the place of the VP's ``memory`` save call (``TimelineCards`` leaves the
room, like for AskUser cards). *Undo* removes the entry through the kernel; the
card then says so. When the entry is gone already (undone earlier, removed in the
Memory window or from the CLI, or its session scope was deleted) it says that
instead of offering an undo that cannot work. Re-reading history shows the same.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.memory import MemoryScope
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.cards.common import button, card_frame, label, recolor
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi


def scope_words(scope: str, vp: str) -> str:
    """Where an entry went, in the window's language (``vp``: the VP's display name)."""
    translate = QCoreApplication.translate
    words = {
        MemoryScope.USER.value: translate("MemoryCard", "your own memory (every session)"),
        MemoryScope.VP.value: translate("MemoryCard", "{vp}'s memory (every session)").format(vp=vp),
        MemoryScope.SESSION_VP.value: translate("MemoryCard", "{vp}'s memory in this session").format(vp=vp),
        MemoryScope.SESSION.value: translate("MemoryCard", "this session's shared memory"),
    }
    return words.get(scope, scope)


class MemorySaveCard(QFrame):
    """One save: "Omni saved to this session's shared memory: “…”" with *Undo*.

    Signals:
        changed(): the card's text changed (its row is re-measured).
    """

    changed = Signal()

    def __init__(self, kernel: KernelApi, runner: TaskRunner, entry_id: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self.entry_id = kernel, runner, entry_id
        self.state = "checking"
        """``checking``, ``saved`` (undo offered), ``undone`` or ``gone``."""
        self._layout = card_frame(self, theme.speaker_color("omni"))
        self._layout.setContentsMargins(10, 6, 10, 6)
        self.title = label(bold=True)
        self.text = label(select=True)
        self.status = label(color=theme.dim_color())
        self.undo_button = button(self.tr("Undo"), self.undo, self.tr("Remove this entry from memory again"))
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self.status, 1)
        line.addWidget(self.undo_button, 0, Qt.AlignmentFlag.AlignRight)
        for widget in (self.title, self.text, row):
            self._layout.addWidget(widget)
            widget.setVisible(True)
        self.undo_button.setVisible(False)
        self.status.setVisible(True)

    def describe(self, who: str, scope: str, vp: str, text: str) -> None:
        """What was saved, by whom, where."""
        self.title.setText(self.tr("{who} saved to {where}").format(who=who, where=scope_words(scope, vp)))
        self.text.setText(f"“{text}”")

    def height_for(self, width: int) -> int:
        """The height this card needs at ``width`` (it may not have been shown yet)."""
        self.ensurePolished()
        return max(self._layout.totalHeightForWidth(width), self._layout.totalMinimumSize().height())

    def set_state(self, state: str) -> None:
        """Show where the entry stands."""
        self.state = state
        self.undo_button.setVisible(state == "saved")
        self.undo_button.setEnabled(state == "saved")
        self.status.setText({
            "checking": "",
            "saved": self.tr("Saved. Undo removes it."),
            "undone": self.tr("Undone: the entry was removed from memory."),
            "gone": self.tr("No longer in memory (removed since)."),
        }.get(state, ""))
        recolor(self, theme.speaker_color("omni") if state == "saved" else theme.dim_color())
        self.changed.emit()

    async def check(self) -> None:
        """Ask the kernel whether the entry is still stored."""
        self.set_state("saved" if await self._kernel.memory.memory_exists(self.entry_id) else "gone")

    def undo(self) -> None:
        """Remove the entry (runs as a named task)."""
        self.undo_button.setEnabled(False)
        self._runner.spawn(self._undo(), self.tr("Undo memory save"))

    async def _undo(self) -> None:
        try:
            await self._kernel.memory.remove_memory(self.entry_id)
        except FoyaError as error:
            self.set_state("gone")
            self.status.setText(error_text(error))
            return
        self.set_state("undone")
