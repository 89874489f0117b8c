"""Connection settings: list, add or change, remove model services.

API keys go to the OS keyring and nowhere else. When the desktop has no
secure keyring, the dialog says so once, at the top, with a button that takes
the environment-variable route right here (the key field is hidden instead of
repeating the warning); nothing is ever stored in a file.

*Test connection* sends one real minimal request with what the form says
(the typed key, else the stored one) and shows the provider's answer or its
error in plain words, then asks the server for its context window (a local
server's is often far below the 128,000 tokens assumed: ``connections.window``)
and shows it in the *Context window* field, saved with the connection; *List
models* reads the provider's models endpoint into the model field's completion
list — any other name can still be typed.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, QStringListModel, Qt, SignalInstance
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
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

from foya_desktop.core.errors import FoyaError, KeyringUnavailable
from foya_desktop.core.events import CatalogChanged
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.ui import i18n
from foya_desktop.ui.aio import TaskRunner, describe_error
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.fit import fit_placeholder
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.confirm import ConfirmDialog, confirm

DEFAULT_URLS = {ProviderKind.OPENAI: "https://api.openai.com/v1",
                ProviderKind.ANTHROPIC: "https://api.anthropic.com"}
KEY_VARIABLES = {ProviderKind.OPENAI: "OPENAI_API_KEY", ProviderKind.ANTHROPIC: "ANTHROPIC_API_KEY"}
"""The usual environment variable of each kind (placeholder and the no-keyring route)."""
DEFAULT_WINDOW = Connection("", ProviderKind.OPENAI, "").context_window
"""What a new connection assumes until its server says (*Test connection*)."""


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
        self._select = ""
        """The connection the next reload selects (what was just saved), whichever reload ends first."""
        self._clean: tuple[object, ...] = ()
        """The form as last shown or saved: anything else is unsaved (Esc asks before dropping it)."""
        self._leaving = False
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
        fit_placeholder(self.api_key)
        self.key_env = QLineEdit()
        self.context_window = QLineEdit(str(DEFAULT_WINDOW))
        self.context_window.setValidator(QIntValidator(1, 2_000_000_000, self.context_window))
        self.problem = QLabel(wordWrap=True)
        self.use_env_button = QPushButton(self.tr("Use an environment variable"))
        self.use_env_button.clicked.connect(self.use_env_variable)
        self.use_env_button.hide()
        self.message = QLabel(wordWrap=True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.models = QStringListModel(self)
        completer = QCompleter(self.models, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.model.setCompleter(completer)
        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.clicked.connect(self._test)
        self.models_button = QPushButton(self.tr("List models"))
        self.models_button.clicked.connect(self._list_models)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._layout()
        self._apply_keyring_problem(kernel.connections.keyring_problem())
        self.new_connection()
        self._kind_changed()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Kind"), self.kind)
        form.addRow(self.tr("Base URL"), self.base_url)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.models_button)
        form.addRow(self.tr("Default model"), model_row)
        form.addRow(self.tr("API key"), self.api_key)
        form.addRow(self.tr("Key from env var"), self.key_env)
        form.addRow(self.tr("Context window (tokens)"), self.context_window)
        self._form = form
        buttons = QHBoxLayout()
        buttons.addWidget(self.test_button)
        buttons.addStretch(1)
        for text, slot in ((self.tr("New"), self.new_connection), (self.tr("Remove"), self._remove),
                           (self.tr("Save"), self._save)):
            button = QPushButton(text)
            button.clicked.connect(slot)
            button.setAutoDefault(slot == self._save)
            button.setDefault(slot == self._save)  # Enter in a field saves; the blue button says so
            buttons.addWidget(button)
        for secondary in (self.test_button, self.models_button, self.use_env_button):
            secondary.setAutoDefault(False)  # never the highlighted default (it was "List models")
        right = QVBoxLayout()
        problem_row = QHBoxLayout()
        problem_row.addWidget(self.problem, 1)
        problem_row.addWidget(self.use_env_button, 0, Qt.AlignmentFlag.AlignTop)
        right.addLayout(problem_row)
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
        """Say it once, at the top, with the environment-variable route next to it."""
        self.problem.setVisible(bool(problem))
        self.use_env_button.setVisible(bool(problem))
        if problem:
            hint = self.tr(
                "API keys cannot be saved here; set an environment variable and enter its name below."
            )
            self.problem.setText(f"⚠ {problem}\n{hint}")
            self.problem.setStyleSheet("color: #b26a00; font-weight: bold;")
        self.api_key.setEnabled(not problem)
        self._form.setRowVisible(self.api_key, not problem)

    def _kind(self) -> ProviderKind:
        return ProviderKind(self.kind.currentData())

    def _kind_changed(self) -> None:
        """The key variable placeholder names the usual variable of the chosen kind."""
        self.key_env.setPlaceholderText(self.tr("e.g. {variable} (read from the environment instead)").format(
            variable=KEY_VARIABLES[self._kind()]))
        self.key_env.setToolTip("")  # the placeholder names the kind's variable: the tooltip follows it
        fit_placeholder(self.key_env)

    def use_env_variable(self) -> None:
        """The no-keyring route: fill in the kind's usual variable name and focus it."""
        if not self.key_env.text().strip():
            self.key_env.setText(KEY_VARIABLES[self._kind()])
        self.key_env.setFocus()
        self.key_env.selectAll()

    def follow(self, changes: SignalInstance) -> None:
        """Reload the list whenever the engine says the connections changed (``CatalogChanged``),
        whoever changed them: what was just saved is listed at once, not when the dialog opens again."""
        changes.connect(self._on_catalog)

    def _on_catalog(self, event: CatalogChanged) -> None:
        if event.catalog == "connections":
            self._runner.spawn(self.refresh(), self.tr("Connections"))

    async def refresh(self, select: str = "") -> None:
        """Reload the list from the kernel, then select ``select`` (a name) when given, else the
        connection selected now; the form is refilled only when ``select`` asks, so a reload that an
        engine event causes keeps what the person is typing."""
        if select:
            self._select = select
        connections = await self._kernel.connections.list_connections()
        selected = self.list.selectedItems()
        wanted, self._select = self._select or (selected[0].text() if selected else ""), ""
        self._connections = {c.name: c for c in connections}
        with QSignalBlocker(self.list):
            self.list.clear()
            self.list.addItems(list(self._connections))
            matches = self.list.findItems(wanted, Qt.MatchFlag.MatchExactly) if wanted else []
            if matches:
                self.list.setCurrentItem(matches[0])
        if select and matches:
            self._show(select)

    def new_connection(self) -> None:
        """Clear the form for a new service."""
        self.list.clearSelection()
        self.name.clear()
        self.model.clear()
        self.key_env.clear()
        self.api_key.clear()
        self.context_window.setText(str(DEFAULT_WINDOW))
        self.kind.setCurrentIndex(0)
        self.base_url.setText(DEFAULT_URLS[ProviderKind.OPENAI])
        self.name.setFocus()
        self._clean = self._form_state()

    def _show(self, name: str) -> None:
        conn = self._connections.get(name)
        if conn is None:
            return
        self.name.setText(conn.name)
        self.kind.setCurrentIndex(self.kind.findData(str(conn.kind)))
        self.base_url.setText(conn.base_url)
        self.model.setText(conn.model)
        self.key_env.setText(conn.api_key_env)
        self.context_window.setText(str(conn.context_window))
        self.api_key.clear()
        self._clean = self._form_state()

    def _form_state(self) -> tuple[object, ...]:
        return (self.name.text(), self.kind.currentData(), self.base_url.text(), self.model.text(),
                self.api_key.text(), self.key_env.text(), self.context_window.text())

    def unsaved(self) -> bool:
        """Whether the form holds typing that Save has not stored."""
        return self._form_state() != self._clean

    def reject(self) -> None:
        """Esc or Close: an unsaved form is dropped only once the person says so."""
        if self._leaving or not self.unsaved():
            super().reject()
            return
        self._runner.spawn(self._ask_to_leave(), self.tr("Connections"))

    async def _ask_to_leave(self) -> None:
        name = self.name.text().strip()
        ask = ConfirmDialog(
            self.tr("Connections"), self.tr("Close without saving?"),
            self.tr("The changes to “{name}” are not saved.").format(name=name) if name
            else self.tr("The connection you were entering is not saved."),
            self.tr("Close without saving"), parent=self)
        if await confirm(ask):
            self._leaving = True
            self.reject()

    def _suggest_url(self) -> None:
        if self.base_url.text().strip() in ("", *DEFAULT_URLS.values()):
            self.base_url.setText(DEFAULT_URLS[self._kind()])

    def form_connection(self) -> Connection | None:
        """The connection described by the form, or ``None`` (with a message) if incomplete."""
        name, url = self.name.text().strip(), self.base_url.text().strip()
        if not name or not url:
            self._say(self.tr("A connection needs a name and a base URL."), error=True)
            return None
        return Connection(name=name, kind=ProviderKind(self.kind.currentData()), base_url=url,
                          model=self.model.text().strip(), api_key_env=self.key_env.text().strip(),
                          context_window=int(self.context_window.text() or DEFAULT_WINDOW))

    def _save(self) -> None:
        conn = self.form_connection()
        if conn is not None:
            self._runner.spawn(self.save(conn, self.api_key.text().strip() or None),
                               self.tr("Saving the connection"))

    async def save(self, conn: Connection, api_key: str | None) -> None:
        """Store the connection (and key); report the outcome inside the dialog."""
        try:
            await self._kernel.connections.add_connection(conn, api_key)
        except KeyringUnavailable as error:
            self._apply_keyring_problem(error_text(error))
            self._say(describe_error(error), error=True)
            return
        self.api_key.clear()
        self._say(self.tr("Saved “{name}”.").format(name=conn.name))
        await self.refresh(select=conn.name)

    def _test(self) -> None:
        conn = self._form_for_request()
        if conn is not None:
            self._runner.spawn(self.test(conn, self.api_key.text().strip() or None),
                               self.tr("Testing the connection"))

    def _list_models(self) -> None:
        conn = self._form_for_request()
        if conn is not None:
            self._runner.spawn(self.list_models(conn, self.api_key.text().strip() or None),
                               self.tr("Listing models"))

    def _form_for_request(self) -> Connection | None:
        url = self.base_url.text().strip()
        if not url:
            self._say(self.tr("Enter the base URL first."), error=True)
            return None
        return Connection(name=self.name.text().strip() or "test", kind=self._kind(), base_url=url,
                          model=self.model.text().strip(), api_key_env=self.key_env.text().strip())

    async def test(self, conn: Connection, api_key: str | None) -> bool:
        """One real minimal request; the outcome in the dialog, in plain words."""
        self._say(self.tr("Testing…"))
        self.test_button.setEnabled(False)
        try:
            await self._kernel.connections.test_connection(conn, api_key)
        except FoyaError as error:
            self._say(self.tr("The test failed: {reason}").format(reason=error_text(error)), error=True)
            return False
        finally:
            self.test_button.setEnabled(True)
        works = self.tr("The connection works: {model} answered.").format(model=conn.model)
        self._say(works + await self._server_window(conn, api_key))
        return True

    async def _server_window(self, conn: Connection, api_key: str | None) -> str:
        """The window the server states, put in the form; what to add to the test's sentence."""
        facts = await self._kernel.connections.server_facts(conn, api_key)
        said = ""
        if facts.window:
            self.context_window.setText(str(facts.window))
            said = " " + self.tr("The server's context window is {tokens} tokens.").format(
                tokens=i18n.number(facts.window))
        if facts.tools_dropped:
            said += " " + self.tr("Its chat template does not pass tools to the model; tools are off.")
        return said

    async def list_models(self, conn: Connection, api_key: str | None) -> list[str]:
        """Fill the model field's list from the provider (free entry stays)."""
        try:
            models = await self._kernel.connections.models(conn, api_key)
        except FoyaError as error:
            self._say(self.tr("Cannot list the models: {reason}").format(reason=error_text(error)),
                      error=True)
            return []
        self.models.setStringList(models)
        if models and not self.model.text().strip():
            self.model.setText(models[0])
        self._say(self.tr("{count} models offered; type to filter, or enter any other name.").format(
            count=len(models)))
        completer = self.model.completer()
        if models and completer is not None and self.model.isVisible():
            completer.setCompletionPrefix("")
            completer.complete()
        return models

    def _remove(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self._runner.spawn(self.remove(item.text()), self.tr("Removing the connection"))

    async def remove(self, name: str) -> None:
        """Delete a connection (its key is removed from the keyring by the kernel)."""
        await self._kernel.connections.remove_connection(name)
        self._say(self.tr("Removed “{name}”.").format(name=name))
        await self.refresh()
        self.new_connection()

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #c62828;" if error else "")
