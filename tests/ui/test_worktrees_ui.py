"""Worktree sessions in the window, on the real kernel and real git (docs/window/sessions.md "Sessions").

The New session dialog offers *In a new git worktree* for a folder in a repository;
the sidebar shows a worktree session's branch with its uncommitted/ahead marks;
*Merge back…* shows the diff and lists conflicts; *Delete* asks about the worktree.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QCheckBox, QDialogButtonBox

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog, InfoDialog
from foya_desktop.ui.ops.worktree_flows import BranchNameDialog, MergeBackDialog
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.git_repo import commit_all, git, make_repo
from tests.ui.helpers import dialog_of, visible_dialog, wait_until


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
    await wait_until(dialog.worktree.isHidden, what="no checkbox outside a repository")
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


def _menu_action(window: MainWindow, session_id: str, text: str) -> QAction | None:
    rect = window.tree_view.visualRect(window.tree_model.index_of_session(session_id))
    menu = window.tree_view.menu_at(rect.center())
    assert menu is not None
    return next((a for a in menu.actions() if a.text() == text), None)


def _mark(window: MainWindow, session_id: str) -> str:
    return window.tree_model.node(window.tree_model.index_of_session(session_id)).worktree


async def test_the_sidebar_marks_the_branch_and_merge_back_shows_the_diff_then_merges(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, fake_provider: FakeProviderServer,
        shots: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    plain = await real_kernel.sessions.create_session(title="plain", workdir=str(repo))
    session = await real_kernel.worktrees.create_session(workdir=str(repo), title="Greet")
    await wait_until(lambda: _mark(real_window, session.id) == "⎇ greet", what="the branch mark")
    assert _mark(real_window, plain.id) == "" and _menu_action(real_window, plain.id, "Merge back…") is None
    folder = Path(session.workdir)
    (folder / "a.txt").write_text("one\nhello\nthree\n")
    commit_all(folder, "greet")
    (folder / "notes.txt").write_text("draft\n")
    fake_provider.script(Reply(text="done"))
    await real_kernel.turns.send(session.id, "say hello")  # a turn's end re-reads the worktree
    await wait_until(lambda: _mark(real_window, session.id) == "⎇ greet ●↑1", what="dirty and ahead marks")
    (folder / "notes.txt").unlink()
    action = _menu_action(real_window, session.id, "Merge back…")
    assert action is not None
    action.trigger()
    dialog = await dialog_of(MergeBackDialog)
    body = dialog.body.text()
    assert "a.txt" in body and "+hello" in body and "@@" in body
    dialog.grab().save(str(shots / "worktree_merge_back.png"))
    dialog.confirm_button.click()
    done = await dialog_of(InfoDialog)
    assert "Merged" in done.text.text()
    done.ok_button.click()
    assert (repo / "a.txt").read_text() == "one\nhello\nthree\n"
    await wait_until(lambda: _mark(real_window, session.id) == "⎇ greet", what="nothing ahead any more")


async def test_merge_back_lists_conflicts_and_leaves_them(real_window: MainWindow, real_kernel: Kernel,
                                                          tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    session = await real_kernel.worktrees.create_session(workdir=str(repo), title="Greet")
    folder = Path(session.workdir)
    (folder / "a.txt").write_text("one\nhello\nthree\n")
    commit_all(folder, "greet")
    (repo / "a.txt").write_text("one\nbonjour\nthree\n")
    commit_all(repo, "base greets too")
    await wait_until(lambda: _mark(real_window, session.id) != "", what="the branch mark")
    action = _menu_action(real_window, session.id, "Merge back…")
    assert action is not None
    action.trigger()
    (await dialog_of(MergeBackDialog)).confirm_button.click()
    told = await dialog_of(InfoDialog)
    assert told.heading.text() == "Conflicts left for you" and "• a.txt" in told.text.text()
    told.ok_button.click()
    assert "<<<<<<<" in (repo / "a.txt").read_text()


async def test_deleting_a_worktree_session_asks_and_unmerged_work_needs_a_second_yes(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    session = await real_kernel.worktrees.create_session(workdir=str(repo), title="Greet")
    folder = Path(session.workdir)
    (folder / "a.txt").write_text("one\nhello\nthree\n")
    commit_all(folder, "greet")
    await wait_until(lambda: _mark(real_window, session.id) != "", what="the branch mark")
    real_window.runner.spawn(real_window.session_actions.flows.delete(session.id), "Deleting")
    question = await dialog_of(ConfirmDialog)
    (remove,) = question.findChildren(QCheckBox)
    assert "branch “greet”" in remove.text()
    remove.setChecked(True)
    question.confirm_button.click()
    await wait_until(lambda: (visible_dialog(ConfirmDialog) or question) is not question, what="second question")
    again = visible_dialog(ConfirmDialog)
    assert again is not None and "1 commit(s) on <b>greet</b>" in again.body.text()
    again.cancel_button.click()
    await real_window.runner.drain()
    assert folder.is_dir() and [s.id for s in await real_kernel.sessions.list_sessions()] == [session.id]
    real_window.runner.spawn(real_window.session_actions.flows.delete(session.id), "Deleting")
    question = await dialog_of(ConfirmDialog)
    question.findChildren(QCheckBox)[0].setChecked(True)
    question.confirm_button.click()
    await wait_until(lambda: (visible_dialog(ConfirmDialog) or question) is not question, what="second question")
    again = visible_dialog(ConfirmDialog)
    assert again is not None
    again.confirm_button.click()
    await real_window.runner.drain()
    assert not folder.exists() and await real_kernel.sessions.list_sessions() == []
    assert "greet" not in git(repo, "branch", "--list")


async def test_a_session_in_a_repository_forks_into_a_new_worktree_from_its_menu(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    git(repo, "branch", "spare")
    (tmp_path / "plain").mkdir()
    source = await real_kernel.sessions.create_session(title="Plan", workdir=str(repo))
    outside = await real_kernel.sessions.create_session(title="Notes", workdir=str(tmp_path / "plain"))
    await wait_until(lambda: _menu_action(real_window, source.id, "Fork into a new worktree…") is not None,
                     what="the entry for a session in a repository")
    assert _menu_action(real_window, outside.id, "Fork into a new worktree…") is None
    action = _menu_action(real_window, source.id, "Fork into a new worktree…")
    assert action is not None
    action.trigger()
    dialog = await dialog_of(BranchNameDialog)
    assert [dialog.branch.itemText(i) for i in range(dialog.branch.count())] == ["main", "spare"]
    dialog.branch.setEditText("spare")
    dialog.ok_button.click()
    await wait_until(lambda: len(real_window.tree_model.sessions()) == 3, what="the fork appears")
    fork = next(s for s in await real_kernel.sessions.list_sessions() if s.id not in (source.id, outside.id))
    assert fork.workdir == str((tmp_path / "shop.foya-worktrees" / "spare").resolve())
    assert (await real_kernel.sessions.get_session(source.id)).workdir == str(repo.resolve())
