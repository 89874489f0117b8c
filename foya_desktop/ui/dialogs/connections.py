"""Connection settings: list, add or change, remove model services.

API keys go to the OS keyring and nowhere else. When the desktop has no
secure keyring, the key field is disabled and the dialog says why in plain
words, pointing at the alternative (an environment variable name) instead of
silently storing the key in a file.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import KeyringUnavailable
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.ui.aio import TaskRunner, describe_error
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi

DEFAULT_URLS = {ProviderKind.OPENAI: "https://api.openai.com/v1",
                ProviderKind.ANTHROPIC: "https://api.anthropic.com"}


class ConnectionsDialog(QDialog):
    """Manage model services. Open with ``run_dialog``; changes apply immediately.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, kernel: KernelApi, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Connections"))
        self.setMinimumSize(680, 380)
        self._kernel, self._runner = kernel, runner
        self._connections: dict[str, Connection] = {}
        self.list = QListWidget()
        self.list.currentTextChanged.connect(self._show)
        self.name, self.base_url, self.model = QLineEdit(), QLineEdit(), QLineEdit()
        self.kind = QComboBox()
        for kind in ProviderKind:
            label = self.tr("OpenAI-compatible") if kind == ProviderKind.OPENAI else "Anthropic"
            self.kind.addItem(label, str(kind))
        self.kind.currentIndexChanged.connect(self._suggest_url)
        self.api_key = QLineEdit(echoMode=QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(
            self.tr("Stored in the system keyring; leave empty to keep the current key"))
        self.key_env = QLineEdit(
            placeholderText=self.tr("e.g. OPENAI_API_KEY (read from the environment instead)"))
        self.problem = QLabel(wordWrap=True)
        self.message = QLabel(wordWrap=True)
        self._layout()
        self._apply_keyring_problem(kernel.keyring_problem())
        self.new_connection()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Kind"), self.kind)
        form.addRow(self.tr("Base URL"), self.base_url)
        form.addRow(self.tr("Default model"), self.model)
        form.addRow(self.tr("API key"), self.api_key)
        form.addRow(self.tr("Key from env var"), self.key_env)
        buttons = QHBoxLayout()
        for text, slot in ((self.tr("New"), self.new_connection), (self.tr("Remove"), self._remove),
                           (self.tr("Save"), self._save)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        right = QVBoxLayout()
        right.addWidget(self.problem)
        right.addLayout(form)
        right.addWidget(self.message)
        right.addStretch(1)
        right.addLayout(buttons)
        body = QHBoxLayout()
        body.addWidget(self.list, 1)
        body.addLayout(right, 2)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body)
        layout.addWidget(close)

    def _apply_keyring_problem(self, problem: str | None) -> None:
        self.problem.setVisible(bool(problem))
        if problem:
            hint = self.tr(
                "API keys cannot be saved here; set an environment variable and enter its name below."
            )
            self.problem.setText(f"⚠ {problem}\n{hint}")
            self.problem.setStyleSheet("color: #b26a00; font-weight: bold;")
        self.api_key.setEnabled(not problem)
        if problem:
            self.api_key.setPlaceholderText(self.tr("Unavailable: no secure keyring on this system"))

    async def refresh(self, select: str = "") -> None:
        """Reload the list from the kernel."""
        connections = await self._kernel.list_connections()
        self._connections = {c.name: c for c in connections}
        self.list.clear()
        self.list.addItems(list(self._connections))
        matches = self.list.findItems(select, Qt.MatchFlag.MatchExactly) if select else []
        if matches:
            self.list.setCurrentItem(matches[0])

    def new_connection(self) -> None:
        """Clear the form for a new service."""
        self.list.clearSelection()
        self.name.clear()
        self.model.clear()
        self.key_env.clear()
        self.api_key.clear()
        self.kind.setCurrentIndex(0)
        self.base_url.setText(DEFAULT_URLS[ProviderKind.OPENAI])
        self.name.setFocus()

    def _show(self, name: str) -> None:
        conn = self._connections.get(name)
        if conn is None:
            return
        self.name.setText(conn.name)
        self.kind.setCurrentIndex(self.kind.findData(str(conn.kind)))
        self.base_url.setText(conn.base_url)
        self.model.setText(conn.model)
        self.key_env.setText(conn.api_key_env)
        self.api_key.clear()

    def _suggest_url(self) -> None:
        if self.base_url.text().strip() in ("", *DEFAULT_URLS.values()):
            self.base_url.setText(DEFAULT_URLS[ProviderKind(self.kind.currentData())])

    def form_connection(self) -> Connection | None:
        """The connection described by the form, or ``None`` (with a message) if incomplete."""
        name, url = self.name.text().strip(), self.base_url.text().strip()
        if not name or not url:
            self._say(self.tr("A connection needs a name and a base URL."), error=True)
            return None
        return Connection(name=name, kind=ProviderKind(self.kind.currentData()), base_url=url,
                          model=self.model.text().strip(), api_key_env=self.key_env.text().strip())

    def _save(self) -> None:
        conn = self.form_connection()
        if conn is not None:
            self._runner.spawn(self.save(conn, self.api_key.text().strip() or None),
                               self.tr("Saving the connection"))

    async def save(self, conn: Connection, api_key: str | None) -> None:
        """Store the connection (and key); report the outcome inside the dialog."""
        try:
            await self._kernel.add_connection(conn, api_key)
        except KeyringUnavailable as error:
            self._apply_keyring_problem(error_text(error))
            self._say(describe_error(error), error=True)
            return
        self.api_key.clear()
        self._say(self.tr("Saved “{name}”.").format(name=conn.name))
        await self.refresh(select=conn.name)

    def _remove(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._runner.spawn(self.remove(item.text()), self.tr("Removing the connection"))

    async def remove(self, name: str) -> None:
        """Delete a connection (its key is removed from the keyring by the kernel)."""
        await self._kernel.remove_connection(name)
        self._say(self.tr("Removed “{name}”.").format(name=name))
        await self.refresh()
        self.new_connection()

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #c62828;" if error else "")
