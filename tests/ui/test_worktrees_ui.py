"""Worktree sessions in the window, on the real kernel and real git (README "Sessions").

The New session dialog offers *In a new git worktree* for a folder in a repository;
the sidebar shows a worktree session's branch with its uncommitted/ahead marks;
*Merge back…* shows the diff and lists conflicts; *Delete* asks about the worktree.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from tests.helpers.git_repo import git, make_repo
from tests.ui.helpers import dialog_of, wait_until


async def test_the_new_session_dialog_offers_a_worktree_for_a_folder_in_a_repository(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    git(repo, "branch", "feature")
    (tmp_path / "plain").mkdir()
    real_window._actions["new"].trigger()
    dialog = await dialog_of(NewSessionDialog)
    assert dialog.worktree.isHidden()
    dialog.folder.setText(str(repo))
    await wait_until(lambda: not dialog.worktree.isHidden(), what="the worktree checkbox appears")
    assert [dialog.branch.itemText(i) for i in range(dialog.branch.count())] == ["feature", "main"]
    dialog.folder.setText(str(tmp_path / "plain"))
    await wait_until(lambda: dialog.worktree.isHidden(), what="no checkbox outside a repository")
    dialog.folder.setText(str(repo))
    await wait_until(lambda: not dialog.worktree.isHidden(), what="the checkbox is back")
    dialog.worktree.setChecked(True)
    assert not dialog.branch.isHidden()
    dialog.title.setText("Tidy the styles")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    await wait_until(lambda: not dialog.isVisible(), what="the dialog closes once created")
    (session,) = await real_kernel.sessions.list_sessions()
    folder = tmp_path / "shop.foya-worktrees" / "tidy-the-styles"
    assert session.workdir == str(folder.resolve())
    assert git(folder, "symbolic-ref", "--short", "HEAD").strip() == "tidy-the-styles"


async def test_a_refused_worktree_is_said_in_the_dialog_and_nothing_is_made(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    real_window._actions["new"].trigger()
    dialog = await dialog_of(NewSessionDialog)
    dialog.folder.setText(str(repo))
    await wait_until(lambda: not dialog.worktree.isHidden(), what="the worktree checkbox appears")
    dialog.worktree.setChecked(True)
    dialog.branch.setEditText("main")  # checked out in the repository folder itself
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    await wait_until(lambda: not dialog.error.isHidden(), what="the refusal is shown")
    assert "already checked out in" in dialog.error.text() and dialog.isVisible()
    assert await real_kernel.sessions.list_sessions() == []
    dialog.reject()
