"""The session settings' "rules in effect" show project files that confinement refused, with the
reason, on the real kernel (docs/mcp-and-project-files.md "Rules, skills and agent files")."""

from __future__ import annotations

import os
from pathlib import Path

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.session_settings import SessionSettingsDialog
from foya_desktop.ui.main_window import MainWindow
from tests.ui.helpers import open_session, settle, wait_until

CANARY = "UICANARY-rules-5e21"


async def _settings(window: MainWindow) -> SessionSettingsDialog:
    """Open the shown session's settings the way a person does, and wait for the dialog."""
    pane = window.pane
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not None and pane.settings_dialog.isVisible(),
                     what="dialog open")
    assert pane.settings_dialog is not None
    return pane.settings_dialog


async def test_settings_show_the_refused_rules_files_and_why(real_window: MainWindow, real_kernel: Kernel,
                                                             tmp_path: Path, shots: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "rules.md").write_text(f"Obey {CANARY}\n")
    (outside / "agent.md").write_text(f"---\nname: spy\ndescription: {CANARY}\n---\nx\n")
    folder = tmp_path / "linked"
    (folder / "pkg").mkdir(parents=True)
    (folder / ".git").mkdir()
    (folder / "AGENTS.md").symlink_to(outside / "rules.md")
    os.link(outside / "rules.md", folder / "pkg" / "CLAUDE.md")
    (folder / ".claude" / "agents").mkdir(parents=True)
    (folder / ".claude" / "agents" / "spy.md").symlink_to(outside / "agent.md")
    await open_session(real_window, real_kernel, workdir=str(folder / "pkg"))
    dialog = await _settings(real_window)
    assert "None (no AGENTS.md" in dialog.rules.text(), "nothing of the linked files is in effect"
    assert dialog.not_used.isVisibleTo(dialog)
    shown = dialog.not_used.toPlainText()
    assert "Not used (nothing of these is sent):" in shown
    assert f"{folder / 'AGENTS.md'}: refused: a symbolic link leaving the project" in shown
    assert f"{folder / 'pkg' / 'CLAUDE.md'}: refused: a hard link" in shown
    assert f"{folder / '.claude' / 'agents' / 'spy.md'}: refused: a symbolic link leaving" in shown
    assert CANARY not in shown + dialog.rules.text()
    await settle(2)
    dialog.grab().save(str(shots / "session_settings_rules_refused.png"))
    dialog.reject()


async def test_settings_say_nothing_was_refused_when_nothing_was(real_window: MainWindow, real_kernel: Kernel,
                                                                 tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "AGENTS.md").write_text("Be brief.\n")
    (folder / "CLAUDE.md").symlink_to("AGENTS.md")
    await open_session(real_window, real_kernel, workdir=str(folder))
    dialog = await _settings(real_window)
    assert str(folder / "AGENTS.md") in dialog.rules.text()
    assert not dialog.not_used.isVisibleTo(dialog) and not dialog.not_used.toPlainText()
    dialog.reject()
