"""Broad project folders in the window: every path that binds one asks first, Cancel binds nothing.

A folder that contains Foya's data folder (here ``tmp_path``, which holds the
test's FOYA_HOME), the home folder or ``/`` puts the database and the
always-allow rules within reach of commands. Each window path — New session,
``foya FOLDER`` handed to the running window, New project, Bind to a folder…,
a drop into a project, the session settings' folder, Relink — shows a
clearly worded confirmation with Cancel as the default, and passes the answer
to the kernel, which refuses the folder without it.

Issue 8 class 3 ("projects at /, at the home folder or containing the data
folder need an explicit, clearly worded confirmation").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QDialogButtonBox, QMenu

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog
from foya_desktop.ui.projects.actions import BIND_FOLDER, RELINK
from foya_desktop.ui.projects.broad import BROAD_DIALOG
from foya_desktop.ui.sessions.tree_model import SESSION_MIME
from tests.ui.helpers import dialog_of, open_session, pick_folder, settle, visible_dialog, wait_until


async def _broad() -> ConfirmDialog:
    """The broad-folder confirmation, checked for its wording and its default button."""
    question = await dialog_of(ConfirmDialog, BROAD_DIALOG)
    assert question.cancel_button.isDefault() and not question.confirm_button.isDefault()
    return question



def _session_menu(window: MainWindow, session_id: str) -> QMenu:
    rect = window.tree_view.visualRect(window.tree_model.index_of_session(session_id))
    menu = window.tree_view.menu_at(rect.center())
    assert menu is not None
    return menu


async def test_new_session_in_the_folder_around_the_data_folder_asks_and_cancel_creates_nothing(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """New session dialog: the reason names the data folder and the database; Cancel keeps the
    dialog open with nothing created; "Use it anyway" creates the session there."""
    real_window._actions["new"].trigger()
    dialog = await dialog_of(NewSessionDialog)
    dialog.folder.setText(str(tmp_path))
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    question = await _broad()
    text = question.body.text()
    assert "Foya's data folder is inside" in text and str(tmp_path) in text
    assert "Foya's own database" in text and "always allow" in text
    await settle()
    question.grab().save(str(shots / "broad_project_confirm.png"))
    question.cancel_button.click()
    await wait_until(lambda: visible_dialog(ConfirmDialog, BROAD_DIALOG) is None, what="the question closes")
    await settle()  # (not runner.drain(): the New session flow waits for its open dialog)
    assert dialog.isVisible() and await real_kernel.sessions.list_sessions() == []
    assert await real_kernel.projects.list_projects() == []
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    (await _broad()).confirm_button.click()
    await wait_until(lambda: not dialog.isVisible(), what="dialog closes after the confirmation")
    (session,) = await real_kernel.sessions.list_sessions()
    assert session.workdir == str(tmp_path.resolve())


async def test_a_folder_handed_over_by_a_second_launch_asks_too(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``foya FOLDER`` with the window running: the home folder is confirmed first (Cancel: nothing)."""
    home = tmp_path / "person"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    real_window.handle_launch(str(home))
    question = await _broad()
    assert "is your home folder" in question.body.text()
    question.cancel_button.click()
    await real_window.runner.drain()
    assert await real_kernel.sessions.list_sessions() == []
    real_window.handle_launch(str(home))
    (await _broad()).confirm_button.click()
    await real_window.runner.drain()
    (session,) = await real_kernel.sessions.list_sessions()
    assert session.workdir == str(home.resolve())


async def test_new_project_at_a_broad_folder_asks_and_cancel_registers_nothing(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """File → New project…: the picker's confirm is followed by the broad-folder question."""
    real_window.project_actions.new_project_action.trigger()
    (await pick_folder(tmp_path)).confirm_button.click()
    (await _broad()).cancel_button.click()
    await real_window.runner.drain()
    assert await real_kernel.projects.list_projects() == [] and real_window.tree_model.projects() == []
    real_window.project_actions.new_project_action.trigger()
    (await pick_folder(tmp_path)).confirm_button.click()
    (await _broad()).confirm_button.click()
    await real_window.runner.drain()
    assert [p.path for p in await real_kernel.projects.list_projects()] == [str(tmp_path.resolve())]


async def test_binding_a_recents_session_to_a_broad_folder_asks_and_cancel_binds_nothing(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """Bind to a folder…: broad question, then the "cannot be undone" one; Cancel on either binds
    nothing."""
    sid = await open_session(real_window, real_kernel, title="Loose")
    next(a for a in _session_menu(real_window, sid).actions() if a.text() == BIND_FOLDER).trigger()
    (await pick_folder(tmp_path)).confirm_button.click()
    (await _broad()).cancel_button.click()
    await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).project_id is None
    assert await real_kernel.projects.list_projects() == []
    next(a for a in _session_menu(real_window, sid).actions() if a.text() == BIND_FOLDER).trigger()
    (await pick_folder(tmp_path)).confirm_button.click()
    (await _broad()).confirm_button.click()
    bind = await dialog_of(ConfirmDialog, "")
    assert "cannot be undone" in bind.body.text()
    bind.confirm_button.click()
    await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).workdir == str(tmp_path.resolve())


async def test_dropping_a_session_into_a_broad_project_asks_and_cancel_binds_nothing(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """A broad project registered earlier (confirmed then) still asks when a session is dropped in."""
    project = await real_kernel.projects.add_project(str(tmp_path), allow_broad=True)
    real_window.tree_model.upsert_project(project)
    sid = await open_session(real_window, real_kernel, title="Drifter")
    model = real_window.tree_model
    target = next(model.index(r, 0) for r in range(model.rowCount()) if model.index(r, 0).data() == project.name)
    for answer in ("cancel", "confirm"):
        data = QMimeData()
        data.setData(SESSION_MIME, sid.encode())
        model.dropMimeData(data, model.supportedDropActions(), -1, 0, target)
        (await dialog_of(ConfirmDialog, "")).confirm_button.click()  # "Bind … cannot be undone"
        broad = await _broad()
        (broad.cancel_button if answer == "cancel" else broad.confirm_button).click()
        await real_window.runner.drain()
        bound = (await real_kernel.sessions.get_session(sid)).project_id
        assert bound == (None if answer == "cancel" else project.id)


async def test_session_settings_folder_and_relink_ask_for_a_broad_folder(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """The settings dialog's Bind to a folder… and Relink: Cancel leaves the session unbound and the project
    where it was."""
    sid = await open_session(real_window, real_kernel, title="Settings")
    pane = real_window.pane
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not None and pane.settings_dialog.isVisible())
    dialog = pane.settings_dialog
    assert dialog is not None
    dialog.bind_button.click()
    (await pick_folder(tmp_path)).confirm_button.click()
    (await _broad()).cancel_button.click()
    await wait_until(lambda: visible_dialog(ConfirmDialog, BROAD_DIALOG) is None, what="the question closes")
    await real_window.runner.drain()
    assert dialog.isVisible() and (await real_kernel.sessions.get_session(sid)).project_id is None
    assert await real_kernel.projects.list_projects() == []
    dialog.reject()
    small = tmp_path / "small"
    small.mkdir()
    project = await real_kernel.projects.add_project(str(small))
    real_window.tree_model.upsert_project(project)
    real_window.runner.spawn(real_window.project_actions.relink(project.id), RELINK)  # (menu: when missing)
    (await pick_folder(tmp_path)).confirm_button.click()
    (await _broad()).cancel_button.click()
    await real_window.runner.drain()
    assert (await real_kernel.projects.list_projects())[0].path == str(small.resolve())


async def test_the_kernel_refuses_a_broad_folder_without_the_confirmation(
        real_kernel: Kernel, tmp_path: Path) -> None:
    """The rule is the engine's: a window path that forgot the dialog still binds nothing."""
    session = await real_kernel.sessions.create_session(title="Unbound")
    small = tmp_path / "small"
    small.mkdir()
    project = await real_kernel.projects.add_project(str(small))
    calls = [real_kernel.sessions.create_session(workdir=str(tmp_path)), real_kernel.projects.add_project(str(tmp_path)),
             real_kernel.projects.relink_project(project.id, str(tmp_path))]
    for call in calls:
        with pytest.raises(InvalidOperation) as refused:
            await call
        assert refused.value.code == "broad_project" and refused.value.params["kind"] == "contains_data"
    broad = await real_kernel.projects.add_project(str(tmp_path), allow_broad=True)
    with pytest.raises(InvalidOperation, match="Foya's data folder"):
        await real_kernel.sessions.bind_project(session.id, broad.id)
    assert (await real_kernel.sessions.get_session(session.id)).project_id is None
    assert (await real_kernel.sessions.bind_project(session.id, broad.id, allow_broad=True)).project_id == broad.id
