"""The VP editor: create, edit, duplicate and delete personas (File ▸ VPs…).

Every rule (name is one word, soul required, hint ``primary``/``fast``, known tools, ``#rrggbb``
colour, no removal while a roster uses it) lives in the engine's VP library; this dialog only
shows the kernel's refusal in words, inside the dialog.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, SignalInstance
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import CatalogChanged
from foya_desktop.core.model import MODEL_HINTS, VP
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner, run_dialog
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi


class VPLibraryDialog(QDialog):
    """List of VPs on the left, the selected one's fields on the right.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, kernel: KernelApi, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("VPs"))
        self.setMinimumSize(720, 460)
        self._kernel = kernel
        self._vps: list[VP] = []
        self._select = ""
        """The VP the next reload selects (what was just saved), whichever reload ends first."""
        self._runner: TaskRunner | None = None
        self.list = QListWidget()
        self.list.setMaximumWidth(200)
        self.name, self.display_name = QLineEdit(), QLineEdit()
        self.soul = QPlainTextEdit()
        self.soul.setPlaceholderText(self.tr("The system prompt: who this VP is and how it works"))
        self.hint = QComboBox()
        labels = {
            "primary": self.tr("primary (the session's model)"),
            "fast": self.tr("fast (a quicker model)"),
        }
        for hint in MODEL_HINTS:
            self.hint.addItem(labels.get(hint, hint), hint)
        self.tools = QLineEdit()
        self.tools.setPlaceholderText(
            self.tr("empty: every tool the session allows; else e.g. read_file,grep")
        )
        self.color = QLineEdit()
        self.color.setPlaceholderText(self.tr("#rrggbb (empty: from the roster order)"))
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.new_button, self.duplicate_button = (
            QPushButton(self.tr("New")),
            QPushButton(self.tr("Duplicate")),
        )
        self.delete_button, self.save_button = QPushButton(self.tr("Delete")), QPushButton(self.tr("Save"))
        self.close_button = QPushButton(self.tr("Close"))
        self.agent_file_button = QPushButton(self.tr("From agent file…"))
        self.agent_file_button.setToolTip(self.tr("Add a Claude Code / Foya agent definition "
                                                  "(.claude/agents/*.md, .foya/agents/*.md) as a VP"))
        self._lay_out()
        self.list.currentRowChanged.connect(self._show)
        self.close_button.clicked.connect(self.accept)

    def _lay_out(self) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Name (@handle)"), self.name)
        form.addRow(self.tr("Display name"), self.display_name)
        form.addRow(self.tr("Soul"), self.soul)
        form.addRow(self.tr("Model hint"), self.hint)
        form.addRow(self.tr("Allowed tools"), self.tools)
        form.addRow(self.tr("Colour"), self.color)
        right = QVBoxLayout()
        right.addLayout(form)
        right.addWidget(self.message)
        buttons = QHBoxLayout()
        for b in (self.new_button, self.duplicate_button, self.delete_button, self.agent_file_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)
        right.addLayout(buttons)
        top = QHBoxLayout(self)
        top.addWidget(self.list)
        top.addLayout(right, 1)

    def follow(self, changes: SignalInstance, runner: TaskRunner) -> None:
        """Reload the list whenever the engine says the VPs changed (``CatalogChanged``), whoever
        changed them: what was just saved is listed at once, not when the dialog opens again."""
        self._runner = runner
        changes.connect(self._on_catalog)

    def _on_catalog(self, event: CatalogChanged) -> None:
        if event.catalog == "vps" and self._runner is not None:
            self._runner.spawn(self.refresh(), self.tr("VPs"))

    async def refresh(self, select: str = "") -> None:
        """Reload the list from the kernel, then select ``select`` (an id) when given, else the VP
        selected now (a new VP being written stays unselected).

        The form is refilled only when the selection moves (or ``select`` asks): a reload that an
        engine event causes keeps what the person is typing.
        """
        if select:
            self._select = select
        vps = await self._kernel.vps.list_vps()
        shown = self.current()
        wanted, self._select = self._select or (shown.id if shown else ""), ""
        writing_new = shown is None and bool(self._vps)
        ids = [v.id for v in vps]
        row = ids.index(wanted) if wanted in ids else (-1 if writing_new else 0)
        self._vps = vps
        with QSignalBlocker(self.list):
            self.list.clear()
            for vp in vps:
                self.list.addItem(QListWidgetItem(self.tr("{name}  (built in)").format(name=vp.name)
                                                  if vp.builtin else vp.name))
            self.list.setCurrentRow(row)
        if select or (shown.id if shown else "") != (ids[row] if row >= 0 else ""):
            self._show(row)

    def current(self) -> VP | None:
        """The VP selected in the list (``None`` while a new one is being written)."""
        row = self.list.currentRow()
        return self._vps[row] if 0 <= row < len(self._vps) else None

    def _show(self, row: int) -> None:
        vp = self._vps[row] if 0 <= row < len(self._vps) else None
        self.name.setText(vp.name if vp else "")
        self.display_name.setText(vp.display_name if vp else "")
        self.soul.setPlainText(vp.soul if vp else "")
        self.hint.setCurrentIndex(max(0, self.hint.findData(vp.model_hint or "primary" if vp else "primary")))
        self.tools.setText(",".join(vp.tools) if vp else "")
        self.color.setText(vp.color if vp else "")
        self.delete_button.setEnabled(vp is not None and not vp.builtin)
        self.duplicate_button.setEnabled(vp is not None)

    def start_new(self) -> None:
        """Clear the form for a new VP (Save creates it)."""
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self._show(-1)
        self.name.setFocus()

    def _fields(self) -> dict[str, object]:
        return {"name": self.name.text(), "display_name": self.display_name.text(),
                "soul": self.soul.toPlainText(), "model_hint": str(self.hint.currentData()),
                "tools": tuple(t.strip() for t in self.tools.text().split(",") if t.strip()),
                "color": self.color.text().strip()}

    async def save(self) -> VP | None:
        """Create (no selection) or change the selected VP; the kernel's refusal shows here."""
        vp = self.current()
        fields = self._fields()
        try:
            if vp is None:
                saved = await self._kernel.vps.add_vp(VP(id="", **fields))  # type: ignore[arg-type]
            else:
                saved = await self._kernel.vps.edit_vp(vp.id, **fields)
        except FoyaError as exc:
            self._say(error_text(exc), error=True)
            return None
        await self.refresh(saved.id)
        self._say(self.tr("Saved {name}. Address it as @{name}.").format(name=saved.name))
        return saved

    async def duplicate(self) -> VP | None:
        """Copy the selected VP as "<name>Copy" (then rename it in the form)."""
        vp = self.current()
        if vp is None:
            return None
        try:
            copy = await self._kernel.vps.duplicate_vp(vp.id, f"{vp.name}Copy")
        except FoyaError as exc:
            self._say(error_text(exc), error=True)
            return None
        await self.refresh(copy.id)
        self._say(self.tr("Duplicated {name} as {copy}.").format(name=vp.name, copy=copy.name))
        return copy

    async def delete(self) -> bool:
        """Delete the selected VP (refused, with the reason, while a roster uses it)."""
        vp = self.current()
        if vp is None:
            return False
        try:
            await self._kernel.vps.remove_vp(vp.id)
        except FoyaError as exc:
            self._say(error_text(exc), error=True)
            return False
        await self.refresh()
        self._say(self.tr("Deleted {name}.").format(name=vp.name))
        return True

    async def add_agent_file(self, path: str = "") -> VP | None:
        """Add an agent file as a VP (asks for the file when ``path`` is empty)."""
        if not path:
            chooser = QFileDialog(self, self.tr("Agent file"))
            chooser.setFileMode(QFileDialog.FileMode.ExistingFile)
            chooser.setNameFilters([self.tr("Agent definitions (*.md)")])
            picked: list[str] = []
            chooser.fileSelected.connect(picked.append)
            try:
                if await run_dialog(chooser) != QDialog.DialogCode.Accepted or not picked:
                    return None
            finally:
                chooser.deleteLater()
            path = picked[-1]
        try:
            vp = await self._kernel.files.add_agent_file_vp(path)
        except FoyaError as exc:
            self._say(error_text(exc), error=True)
            return None
        await self.refresh(vp.id)
        self._say(self.tr("Added {name} from its agent file; put it on a roster in the session's "
                          "settings.").format(name=vp.name))
        return vp

    def _say(self, text: str, *, error: bool = False) -> None:
        color = theme.error_color() if error else theme.dim_color()
        self.message.setStyleSheet(f"color: {color.name()};")
        self.message.setText(text)
