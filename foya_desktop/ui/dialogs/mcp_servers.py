"""The MCP servers panel: what is configured, trusted and running, with errors and *Restart*.

User-level servers (``mcp.json`` in the data folder) and the project's (``.mcp.json``)
are listed apart. Project servers wait for the person's trust: *Trust…* opens a
prompt (``mcp_trust_prompt``) listing everything that would run and be sent — command
line or URL, env and header values as written, the project files the command runs —
and, for a server that changed, what changed; only the person's *Trust* records it,
for exactly what was shown (``Kernel.mcp_trust``); *Revoke trust* takes it back and
stops them. The panel re-reads the state when the engine reports a change
(``Kernel.mcp_version``, polled once a second while the panel is open).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.engine.mcp.servers import ServerStatus
from foya_desktop.ui.aio import TaskRunner, describe_error
from foya_desktop.ui.dialogs.mcp_trust_prompt import McpTrustPrompt, server_lines
from foya_desktop.ui.kernel_api import KernelApi

POLL_MS = 1000


class McpServersDialog(QDialog):
    """One project's MCP servers (and the user-level ones). Open with ``run_dialog``."""

    def __init__(self, kernel: KernelApi, runner: TaskRunner, project_id: str | None,
                 project_name: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._kernel, self._runner, self._project_id = kernel, runner, project_id
        self._rows: list[ServerStatus] = []
        self._seen_version = -1
        self.prompt: McpTrustPrompt | None = None
        """The open trust prompt, if any (tests answer it)."""
        self.setWindowTitle(self.tr("MCP servers — {0}").format(project_name) if project_name
                            else self.tr("MCP servers"))
        self.setMinimumSize(760, 460)
        self.user_tree, self.project_tree = self._tree(), self._tree()
        self.user_label = QLabel(self.tr("User level (your own servers, from mcp.json in Foya's "
                                         "data folder)"))
        self.project_label = QLabel(self.tr("This project (.mcp.json; each server starts only once you "
                                            "trusted it)") if project_id else
                                    self.tr("This session has no project folder, so no project servers."))
        self.project_label.setWordWrap(True)
        self.waiting = QLabel(wordWrap=True)
        self.waiting.setStyleSheet("font-weight: bold")
        self.detail = QPlainTextEdit(readOnly=True)
        self.detail.setMaximumHeight(160)
        self.detail.setPlaceholderText(self.tr("Select a server to see its command, source and last error."))
        self.restart_button = QPushButton(self.tr("Restart"))
        self.trust_button = QPushButton(self.tr("Trust…"))
        self.revoke_button = QPushButton(self.tr("Revoke trust"))
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.message = QLabel(wordWrap=True)
        self._layout()
        for tree in (self.user_tree, self.project_tree):
            tree.itemSelectionChanged.connect(lambda t=tree: self._selected(t))
        self.restart_button.clicked.connect(lambda: self._runner.spawn(self.restart(), self.tr("Restart")))
        self.trust_button.clicked.connect(self.ask_trust)
        self.revoke_button.clicked.connect(lambda: self._runner.spawn(self.revoke(), self.tr("Revoke trust")))
        self.refresh_button.clicked.connect(lambda: self._runner.spawn(self.refresh(), self.tr("Refresh")))
        self._timer = QTimer(self, interval=POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._timer.start()
        self._update_buttons()

    def _tree(self) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setColumnCount(5)
        tree.setHeaderLabels([self.tr("Server"), self.tr("Command or URL"), self.tr("Trust"),
                              self.tr("Status"), self.tr("Tools")])
        tree.setRootIsDecorated(False)
        tree.setColumnWidth(0, 120)
        tree.setColumnWidth(1, 300)
        return tree

    def _layout(self) -> None:
        box = QVBoxLayout(self)
        box.addWidget(self.user_label)
        box.addWidget(self.user_tree, 1)
        box.addWidget(self.project_label)
        box.addWidget(self.project_tree, 1)
        box.addWidget(self.waiting)
        box.addWidget(self.detail)
        row = QHBoxLayout()
        for button in (self.restart_button, self.trust_button, self.revoke_button, self.refresh_button):
            row.addWidget(button)
        row.addStretch(1)
        box.addLayout(row)
        box.addWidget(self.message)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        box.addWidget(close)

    # ---- state ---------------------------------------------------------------------

    async def refresh(self) -> None:
        """Read the servers' state from the engine and show it."""
        self._seen_version = self._kernel.mcp.version()
        self._rows = await self._kernel.mcp.overview(self._project_id)
        for tree, scope in ((self.user_tree, "user"), (self.project_tree, "project")):
            current = tree.currentItem()
            keep = current.text(0) if current is not None else None
            tree.clear()
            for row in (r for r in self._rows if r.scope == scope):
                item = QTreeWidgetItem([row.name or self.tr("(file)"), row.target,
                                        self._trust_text(row.trust), self._state_text(row.state),
                                        str(len(row.tools))])
                item.setData(0, Qt.ItemDataRole.UserRole, self._rows.index(row))
                if row.error:
                    item.setToolTip(3, row.error)
                tree.addTopLevelItem(item)
                if keep is not None and row.name == keep:
                    tree.setCurrentItem(item)
        waiting = [r for r in self._rows if r.scope == "project" and r.trust in ("untrusted", "changed")]
        self.waiting.setText(self.tr("{0} project server(s) wait for your trust: {1}. Use Trust… to review "
                                     "exactly what would run.").format(len(waiting),
                                                                       ", ".join(r.name for r in waiting))
                             if waiting else "")
        self._selected(self.project_tree if self.project_tree.currentItem() else self.user_tree)
        self._update_buttons()

    def _poll(self) -> None:
        if self.isVisible() and self._kernel.mcp.version() != self._seen_version:
            self._runner.spawn(self.refresh(), self.tr("Refresh"))

    def _trust_text(self, trust: str) -> str:
        return {"user": self.tr("your own"), "trusted": self.tr("trusted"),
                "untrusted": self.tr("not trusted"), "changed": self.tr("changed since trusted"),
                "unusable": self.tr("cannot be used")}.get(trust, trust)

    def _state_text(self, state: str) -> str:
        return {"not started": self.tr("not started (starts when needed)"), "starting": self.tr("starting"),
                "running": self.tr("running"), "failed": self.tr("failed"),
                "stopped": self.tr("stopped (idle)"),
                "waiting for trust": self.tr("waiting for trust")}.get(state, state)

    def selected_row(self) -> ServerStatus | None:
        """The row selected in either list."""
        for tree in (self.project_tree, self.user_tree):
            item = tree.currentItem()
            if item is not None and item.isSelected():
                return self._rows[int(item.data(0, Qt.ItemDataRole.UserRole))]
        return None

    def _selected(self, tree: QTreeWidget) -> None:
        other = self.user_tree if tree is self.project_tree else self.project_tree
        if tree.selectedItems():
            other.blockSignals(True)
            other.clearSelection()
            other.blockSignals(False)
        row = self.selected_row()
        if row is None:
            self.detail.clear()
        else:
            lines = [*(server_lines(row) if row.target else []),
                     self.tr("From: {0}").format(row.source) if row.source else "",
                     self.tr("Tools: {0}").format(", ".join(row.tools)) if row.tools else "",
                     *(self.tr("Warning: {0}").format(w) for w in row.warnings),
                     self.tr("Error: {0}").format(row.error) if row.error else ""]
            self.detail.setPlainText("\n".join(line for line in lines if line))
        self._update_buttons()

    def _update_buttons(self) -> None:
        row = self.selected_row()
        project_rows = [r for r in self._rows if r.scope == "project" and r.name]
        self.restart_button.setEnabled(row is not None and bool(row.name) and self._project_id is not None
                                       and row.trust in ("user", "trusted"))
        self.trust_button.setEnabled(any(r.trust in ("untrusted", "changed") for r in project_rows))
        self.revoke_button.setEnabled(any(r.trust in ("trusted", "changed") for r in project_rows))

    # ---- actions ---------------------------------------------------------------------

    def ask_trust(self) -> None:
        """The trust prompt: everything that would run and be sent, and what changed; nothing is
        recorded unless *Trust*, and then for exactly what the prompt showed."""
        waiting = [r for r in self._rows if r.scope == "project" and r.trust in ("untrusted", "changed")]
        if not waiting or self._project_id is None:
            return
        box = McpTrustPrompt(waiting, self)
        seen = {r.name: r.fingerprint for r in waiting}

        def done(result: int) -> None:
            self.prompt = None
            if result == QDialog.DialogCode.Accepted:
                self._runner.spawn(self._trust(list(seen), seen), self.tr("Trust"))
            box.deleteLater()

        box.finished.connect(done)
        self.prompt = box
        box.open()

    async def _trust(self, names: list[str], seen: dict[str, str]) -> None:
        assert self._project_id is not None
        try:
            trusted = await self._kernel.mcp.trust(self._project_id, names, seen)
        except Exception as exc:
            self.message.setText(describe_error(exc))
            return
        self.message.setText(self.tr("Trusted {0} server(s); they start when a session of this project "
                                     "next needs them.").format(len(trusted)))
        await self.refresh()

    async def revoke(self) -> None:
        """Take back the trust of every project server and stop them."""
        if self._project_id is None:
            return
        removed = await self._kernel.mcp.revoke(self._project_id)
        self.message.setText(self.tr("Took back the trust of {0} server(s); they stopped.").format(removed))
        await self.refresh()

    async def restart(self) -> None:
        """Stop and start the selected server now."""
        row = self.selected_row()
        if row is None or self._project_id is None or not row.name:
            return
        self.message.setText(self.tr("Restarting {0}…").format(row.name))
        status = await self._kernel.mcp.restart(self._project_id, row.scope, row.name)
        self.message.setText(self.tr("{0}: {1}").format(row.name, self._state_text(status.state))
                             if status is not None else "")
        await self.refresh()
