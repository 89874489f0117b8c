"""The one picker in every place a folder is chosen, on the real kernel (Y12, Y14, F09).

New session (Browse…, and a wrong folder keeps everything typed), a new
project, binding a Recents session from its menu or by a drop — each through
``FolderPicker`` and, for binding, a confirmation that says it is for good.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QDialogButtonBox, QMenu, QPushButton

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog
from foya_desktop.ui.picker.dialog import FolderPicker
from foya_desktop.ui.projects.actions import BIND_FOLDER
from foya_desktop.ui.sessions.tree_model import SESSION_MIME
from tests.ui.helpers import dialog_of, open_session, pick_folder, settle, wait_signal, wait_until


async def test_new_session_with_a_wrong_folder_keeps_the_input_and_shows_the_error(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """The New session dialog stays open with everything typed and says why (issue 11)."""
    real_window._actions["new"].trigger()
    dialog = await dialog_of(NewSessionDialog)
    dialog.title.setText("Parser work")
    dialog.folder.setText(str(tmp_path / "no-such-folder"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    await wait_until(dialog.error.isVisible, what="the error in the dialog")
    assert "does not exist" in dialog.error.text()
    assert dialog.isVisible() and dialog.title.text() == "Parser work"
    assert dialog.folder.text() == str(tmp_path / "no-such-folder")
    assert await real_kernel.sessions.list_sessions() == []
    await settle()
    dialog.grab().save(str(shots / "new_session_wrong_folder.png"))
    (tmp_path / "work").mkdir()
    dialog.folder.setText(str(tmp_path / "work"))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    await wait_until(lambda: not dialog.isVisible(), what="dialog closes after success")
    await wait_until(lambda: real_window.pane.session is not None)
    assert real_window.pane.session is not None
    created = await real_kernel.sessions.get_session(real_window.pane.session.id)
    assert created.title == "Parser work" and created.workdir == str((tmp_path / "work").resolve())


async def test_new_session_browse_opens_the_picker_and_fills_the_folder(
        real_window: MainWindow, tmp_path: Path) -> None:
    """Y14: Browse… is the working-directory picker, starting at the typed folder."""
    (tmp_path / "proj" / "src").mkdir(parents=True)
    real_window._actions["new"].trigger()
    dialog = await dialog_of(NewSessionDialog)
    dialog.folder.setText(str(tmp_path / "proj"))
    browse = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Browse…")
    browse.click()
    picker = await dialog_of(FolderPicker)
    await wait_until(lambda: picker.chosen() == str(tmp_path / "proj"), what="starts at the typed folder")
    picker.list.itemClicked.emit(picker.list.item(0))  # "src"
    await wait_signal(picker.loaded)
    picker.confirm_button.click()
    await wait_until(lambda: dialog.folder.text() == str(tmp_path / "proj" / "src"), what="folder filled")
    assert dialog.isVisible()
    dialog.reject()


async def test_new_session_relative_folder_starts_at_the_default_working_directory(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """Y12: a relative folder typed in the dialog is read from the default working directory."""
    real_window._actions["new"].trigger()
    dialog = await dialog_of(NewSessionDialog)
    dialog._default_dir = str(tmp_path)
    (tmp_path / "rel").mkdir()
    dialog.folder.setText("rel")
    assert dialog.values().workdir == str(tmp_path / "rel")
    dialog.reject()


async def test_new_project_is_created_through_the_picker(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """Y14, Y54: File → New project… uses the same picker; the folder is only referenced (F10)."""
    folder = tmp_path / "demo"
    folder.mkdir()
    (folder / "keep.txt").write_text("untouched")
    real_window.project_actions.new_project_action.trigger()
    picker = await pick_folder(folder)
    picker.grab().save(str(shots / "picker_new_project.png"))
    picker.confirm_button.click()
    await wait_until(lambda: any(p.path == str(folder) for p in real_window.tree_model.projects()),
                     what="project in the tree")
    assert [p.path for p in await real_kernel.projects.list_projects()] == [str(folder)]
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]


async def test_bind_a_recents_session_through_the_picker_asks_first(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """F09, Y14: "Bind to a folder…" → picker → a confirmation that says it cannot be undone."""
    sid = await open_session(real_window, real_kernel, title="Loose")
    folder = tmp_path / "target"
    folder.mkdir()
    menu = _session_menu(real_window, sid)
    action = next(a for a in menu.actions() if a.text() == BIND_FOLDER)
    action.trigger()
    (await pick_folder(folder)).confirm_button.click()
    question = await dialog_of(ConfirmDialog)
    assert "cannot be undone" in question.body.text()
    question.cancel_button.click()
    await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).project_id is None, "cancel binds nothing"
    next(a for a in _session_menu(real_window, sid).actions() if a.text() == BIND_FOLDER).trigger()
    (await pick_folder(folder)).confirm_button.click()
    (await dialog_of(ConfirmDialog)).confirm_button.click()
    await real_window.runner.drain()
    bound = await real_kernel.sessions.get_session(sid)
    assert bound.project_id is not None and bound.workdir == str(folder.resolve())
    assert BIND_FOLDER not in [a.text() for a in _session_menu(real_window, sid).actions()]


async def test_dropping_a_recents_session_on_a_project_binds_after_confirmation(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """Y55, F09: a drop onto a project asks, then binds once."""
    (tmp_path / "landing").mkdir()
    project = await real_kernel.projects.add_project(str(tmp_path / "landing"))
    real_window.tree_model.upsert_project(project)
    sid = await open_session(real_window, real_kernel, title="Drifter")
    data = QMimeData()
    data.setData(SESSION_MIME, sid.encode())
    model = real_window.tree_model
    target = next(model.index(r, 0) for r in range(model.rowCount()) if model.index(r, 0).data() == project.name)
    model.dropMimeData(data, model.supportedDropActions(), -1, 0, target)
    (await dialog_of(ConfirmDialog)).confirm_button.click()
    await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).project_id == project.id


def _session_menu(window: MainWindow, session_id: str) -> QMenu:
    index = window.tree_model.index_of_session(session_id)
    rect = window.tree_view.visualRect(index)
    menu = window.tree_view.menu_at(rect.center())
    assert menu is not None
    return menu
