"""The MCP servers panel on the real kernel with a real FastMCP stdio server.

Issue 13 "MCP client": user and project servers listed apart, the trust prompt lists
the exact command, status and error shown, *Restart* works, *Revoke trust* stops.
Seed ids: Y-WORKDIR, S1-APPROVAL.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from foya_desktop.core.model import Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.tools.mcp.config import project_config_path, user_config_path
from foya_desktop.ui.dialogs.mcp_servers import McpServersDialog
from foya_desktop.ui.main_window import MainWindow
from tests.mcp.conftest import ROOT, await_gone, marker_server, processes_with, stdio_entry, write_config
from tests.ui.helpers import open_session, settle, wait_until


async def test_panel_trust_prompt_status_restart_and_revoke(real_window: MainWindow, real_kernel: Kernel,
                                                            tmp_path: Path, shots: Path) -> None:
    tag = f"mcpui-{tmp_path.name[-12:]}"
    project = tmp_path / "repo"
    project.mkdir()
    write_config(project_config_path(project), {"fake": stdio_entry(tag),
                                                "missing": {"command": "foya-no-such-tool-ui"}})
    write_config(user_config_path(real_kernel.store.home.root),
                 {"notes": {"type": "http", "url": "http://127.0.0.1:9/mcp"}})
    sid = await open_session(real_window, real_kernel, workdir=str(project))
    session = await real_kernel.sessions.get_session(sid)
    assert session.project_id is not None
    # Opening a session of a project whose servers wait for trust opens the panel with the prompt.
    await wait_until(lambda: real_window.mcp_dialog is not None and real_window.mcp_dialog.isVisible()
                     and real_window.mcp_dialog.prompt is not None, timeout=10, what="panel and prompt open")
    dialog = real_window.mcp_dialog
    assert dialog is not None
    try:
        await _drive(dialog, real_kernel, session, tag, shots)
    finally:
        if dialog.prompt is not None:
            dialog.prompt.reject()
        dialog.reject()


async def _drive(dialog: McpServersDialog, real_kernel: Kernel, session: Session, tag: str,
                 shots: Path) -> None:
    assert session.project_id is not None
    await wait_until(lambda: dialog.project_tree.topLevelItemCount() == 2, what="rows")
    assert dialog.user_tree.topLevelItemCount() == 1
    user_row = dialog.user_tree.topLevelItem(0)
    assert user_row is not None and user_row.text(0) == "notes" and user_row.text(2) == "your own"
    first = dialog.project_tree.topLevelItem(0)
    assert first is not None and first.text(2) == "not trusted" and first.text(3) == "waiting for trust"
    assert "wait for your trust" in dialog.waiting.text()
    assert dialog.trust_button.isEnabled() and not dialog.revoke_button.isEnabled()
    await settle(2)
    dialog.grab().save(str(shots / "mcp_panel_untrusted.png"))

    await wait_until(lambda: dialog.prompt is not None and dialog.prompt.isVisible(), what="prompt")
    prompt = dialog.prompt
    assert prompt is not None
    text = prompt.text()
    assert f"Command: {sys.executable} -m tests.mcp.fake_server stdio {tag}" in text
    assert f"Environment: PYTHONPATH={ROOT}" in text  # env values as written, not only names
    assert "missing\n    Command: foya-no-such-tool-ui" in text
    prompt.grab().save(str(shots / "mcp_trust_prompt.png"))
    prompt.cancel_button.click()
    await settle(3)
    report = await real_kernel.mcp.trust_report(session.project_id)
    assert [(t.server.name, t.state) for t in report] == [("notes", "user"), ("fake", "untrusted"),
                                                          ("missing", "untrusted")]

    dialog.trust_button.click()
    await wait_until(lambda: dialog.prompt is not None and dialog.prompt.isVisible(), what="prompt again")
    prompt = dialog.prompt
    assert prompt is not None
    prompt.trust_button.click()
    await wait_until(lambda: "Trusted 2 server(s)" in dialog.message.text(), what="trusted")
    assert real_kernel.svc.mcp is not None
    await real_kernel.svc.mcp.prepare(session)  # what the next model request does
    await wait_until(lambda: (item := dialog.project_tree.topLevelItem(0)) is not None
                     and item.text(3) == "running", timeout=10, what="running")
    missing = dialog.project_tree.topLevelItem(1)
    assert missing is not None and missing.text(3) == "failed"
    dialog.project_tree.setCurrentItem(missing)
    assert "was not found" in dialog.detail.toPlainText()
    await settle(2)
    dialog.grab().save(str(shots / "mcp_panel_running.png"))

    row = dialog.project_tree.topLevelItem(0)
    assert row is not None
    dialog.project_tree.setCurrentItem(row)
    before = processes_with(tag)
    assert before and dialog.restart_button.isEnabled()
    dialog.restart_button.click()
    await wait_until(lambda: "fake: running" in dialog.message.text(), timeout=20, what="restarted")
    assert processes_with(tag) and processes_with(tag) != before

    dialog.revoke_button.click()
    await wait_until(lambda: "Took back the trust" in dialog.message.text(), timeout=10, what="revoked")
    assert await await_gone(tag) == []


async def test_trust_prompt_shows_headers_files_and_the_diff_of_a_changed_script(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first prompt lists header values as written (never the variable's value) and the files
    the command runs; after the script changes, the prompt says so with the diff."""
    monkeypatch.setenv("FOYA_UI_TOKEN", "ghp-canary-ui-0007")
    project = tmp_path / "repo"
    project.mkdir()
    write_config(project_config_path(project), {
        "srv": marker_server(project, tmp_path / "marker.jsonl", f"mcpui-{tmp_path.name[-12:]}"),
        "web": {"type": "http", "url": "http://127.0.0.1:9/mcp",
                "headers": {"Authorization": "Bearer ${FOYA_UI_TOKEN}"}}})
    session = await real_kernel.sessions.create_session(title="t", workdir=str(project), connection="fake")
    assert session.project_id is not None
    dialog = McpServersDialog(real_kernel, real_window.runner, session.project_id, "repo", real_window)
    try:
        await dialog.refresh()
        dialog.show()
        dialog.ask_trust()
        prompt = dialog.prompt
        assert prompt is not None
        text = prompt.text()
        assert "Header: Authorization: Bearer ${FOYA_UI_TOKEN}" in text
        assert "Reads from your environment when it starts: FOYA_UI_TOKEN" in text
        assert "Runs: server.py (sha256 " in text and "ghp-canary" not in text
        prompt.trust_button.click()
        await wait_until(lambda: "Trusted 2 server(s)" in dialog.message.text(), what="trusted")

        script = project / "server.py"
        script.write_text(script.read_text().replace("'v1'", "'v2'"))
        await dialog.refresh()
        assert dialog.trust_button.isEnabled()
        dialog.ask_trust()
        prompt = dialog.prompt
        assert prompt is not None
        text = prompt.text()
        assert "srv  (changed since you trusted it)" in text and "web" not in text.split("\n")[0]
        assert "What changed:" in text and "file server.py: server.py (sha256" in text
        assert "-VERSION = 'v1'" in text and "+VERSION = 'v2'" in text
        await settle(2)
        prompt.grab().save(str(shots / "mcp_trust_prompt_changed.png"))
        prompt.cancel_button.click()
        await settle(2)
        report = await real_kernel.mcp.trust_report(session.project_id)
        assert [(t.server.name, t.state) for t in report] == [("srv", "changed"), ("web", "trusted")]
    finally:
        if dialog.prompt is not None:
            dialog.prompt.reject()
        dialog.reject()
