"""The trust prompt of project MCP servers: everything they would run and send, and what changed.

Trust covers more than the command line (``tools.mcp.trust_spec``): every environment
variable and header with its value as written (``${VAR}`` unexpanded: the prompt shows
which variables of yours a server reads, never their values), and the project files the
command runs, by hash. A server that changed since the person trusted it lists what
changed, with a unified diff for a changed file. Nothing is recorded unless *Trust*;
what is recorded is exactly what was shown (``ServerStatus.fingerprint``), so a server
that changes while the prompt is open is refused, not trusted unseen.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from foya_desktop.engine.mcp.servers import ServerStatus
from foya_desktop.tools.mcp.trust_spec import Change, file_state


def server_lines(row: ServerStatus) -> list[str]:
    """Everything trust covers for ``row``, one fact a line (also the panel's detail pane)."""
    translate = QCoreApplication.translate
    spec = row.spec
    if spec is None or spec.transport == "stdio":
        lines = [translate("McpTrustPrompt", "Command: {0}").format(row.target)]
    else:
        lines = [translate("McpTrustPrompt", "URL: {0}").format(row.target)]
    if spec is None:
        return lines
    lines += [translate("McpTrustPrompt", "Environment: {0}={1}").format(k, v) for k, v in spec.env]
    lines += [translate("McpTrustPrompt", "Header: {0}: {1}").format(k, v) for k, v in spec.headers]
    if spec.variables():
        lines.append(translate("McpTrustPrompt", "Reads from your environment when it starts: {0}").format(
            ", ".join(spec.variables())))
    if spec.keyring():
        lines.append(translate("McpTrustPrompt", "Uses keyring secrets: {0}").format(
            ", ".join(spec.keyring())))
    lines += [translate("McpTrustPrompt", "Runs: {0}").format(file_state(f)) for f in spec.files
              if f.state != "missing"]
    if spec.more_files:
        more = translate("McpTrustPrompt", "And {0} more project files beside these, not checked")
        lines.append(more.format(spec.more_files))
    return lines


def change_lines(change: Change) -> list[str]:
    """One change since the trust, in the window's words (the diff as it is)."""
    translate = QCoreApplication.translate
    if change.what == "older":
        return [translate("McpTrustPrompt",
                          "It was trusted by an older Foya, which did not record its environment values, "
                          "headers or the files it runs: review it as new.")]
    labels = {"transport": translate("McpTrustPrompt", "type"),
              "command": translate("McpTrustPrompt", "command"),
              "url": translate("McpTrustPrompt", "URL"),
              "more_files": translate("McpTrustPrompt", "unchecked files"),
              "env": translate("McpTrustPrompt", "environment {0}"),
              "header": translate("McpTrustPrompt", "header {0}"),
              "file": translate("McpTrustPrompt", "file {0}")}
    label = labels[change.what].format(change.name)
    if change.before is None:
        head = translate("McpTrustPrompt", "{0}: added: {1}").format(label, change.after)
    elif change.after is None:
        head = translate("McpTrustPrompt", "{0}: removed (was {1})").format(label, change.before)
    else:
        head = translate("McpTrustPrompt", "{0}: {1} → {2}").format(label, change.before, change.after)
    return [head, *change.diff.splitlines()]


def prompt_text(rows: list[ServerStatus]) -> str:
    """The whole listing of the prompt."""
    translate = QCoreApplication.translate
    out: list[str] = []
    for row in rows:
        changed = translate("McpTrustPrompt", "  (changed since you trusted it)") \
            if row.trust == "changed" else ""
        out.append(row.name + changed)
        out += ["    " + line for line in server_lines(row)]
        if row.changes:
            out.append("    " + translate("McpTrustPrompt", "What changed:"))
            out += ["      " + line for c in row.changes for line in change_lines(c)]
        out.append("")
    return "\n".join(out).rstrip()


class McpTrustPrompt(QDialog):
    """*Trust* or *Cancel* for the listed servers; open with ``open()`` (window-modal)."""

    def __init__(self, rows: list[ServerStatus], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows = rows
        self.setWindowTitle(self.tr("Trust this project's MCP servers?"))
        self.setMinimumSize(720, 440)
        intro = QLabel(self.tr("This project's .mcp.json would start these servers on your computer, with "
                               "your permissions, and send them what is listed. Trust them only if you "
                               "trust the repository. ${VAR} is filled in from your environment only when a "
                               "server starts."), wordWrap=True)
        self.listing = QPlainTextEdit(readOnly=True)
        self.listing.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.listing.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.listing.setPlainText(prompt_text(rows))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.trust_button = buttons.addButton(self.tr("Trust"), QDialogButtonBox.ButtonRole.AcceptRole)
        cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        assert cancel is not None
        self.cancel_button = cancel
        self.cancel_button.setDefault(True)
        self.trust_button.setAutoDefault(False)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addWidget(self.listing, 1)
        box.addWidget(buttons)

    def text(self) -> str:
        """What the prompt lists."""
        return self.listing.toPlainText()
