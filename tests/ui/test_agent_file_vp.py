"""An agent file becomes a VP from the window's VP editor, then joins a roster (issue 13 agent definitions)."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QLineEdit

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.main_window import MainWindow
from tests.ui.helpers import dialog_of, settle, wait_until

FIXTURE = Path(__file__).parents[1] / "fixtures" / "project_files" / "repo"


async def test_agent_file_button_adds_a_vp_that_a_roster_can_use(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo)
    real_window._actions["vps"].trigger()
    dialog = await dialog_of(VPLibraryDialog)
    await settle()
    dialog.agent_file_button.click()
    await wait_until(lambda: any(isinstance(w, QFileDialog) and w.isVisible() for w in dialog.findChildren(QFileDialog)),
                     what="the file chooser")
    chooser = next(w for w in dialog.findChildren(QFileDialog) if w.isVisible())
    edit = chooser.findChild(QLineEdit, "fileNameEdit")
    assert edit is not None
    edit.setText(str(repo / ".claude" / "agents" / "code-reviewer.md"))
    chooser.accept()
    await wait_until(lambda: "Added code-reviewer" in dialog.message.text(), what="the VP added")
    vp = dialog.current()
    assert vp is not None and vp.name == "code-reviewer" and vp.tools == ("read_file", "grep", "glob", "run_command")
    await settle(2)
    dialog.grab().save(str(shots / "vp_from_agent_file.png"))
    assert await dialog.add_agent_file(str(repo / ".foya" / "agents" / "garbage.md")) is None
    assert "is not a usable agent file" in dialog.message.text() and "not 'key: value'" in dialog.message.text()
    session = await real_kernel.sessions.create_session(workdir=str(repo))
    updated = await real_kernel.sessions.update_session(session.id, roster=("omni", vp.id))
    assert updated.roster == ("omni", vp.id)
    dialog.accept()
