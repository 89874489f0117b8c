"""Projects in the sidebar on the real kernel: rename, instruction, delete, relink, drag rules, reorder.

Seed ids: Y54 (create/rename/delete), Y55 (drag between a project and Recents),
Y56 (reorder), Y57 (one project instruction), F09 (binding never moves), F10/F11
(only a folder reference; deleting never touches the folder).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QModelIndex
from PySide6.QtWidgets import QMenu

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog
from foya_desktop.ui.picker.dialog import FolderPicker
from foya_desktop.ui.projects.actions import DELETE_PROJECT, INSTRUCTION, RELINK, RENAME
from foya_desktop.ui.projects.dialogs import TextDialog
from foya_desktop.ui.sessions.nodes import RECENTS_ID
from foya_desktop.ui.sessions.tree_model import SESSION_MIME, SessionTreeModel
from tests.fakeprovider import FakeProviderServer
from tests.fakeprovider.script import Reply
from tests.ui.helpers import Events, dialog_of, open_session, settle, wait_until


def _project_index(model: SessionTreeModel, project_id: str) -> QModelIndex:
    return next(model.index(r, 0) for r in range(model.rowCount())
                if model.node(model.index(r, 0)).key == project_id)


def _project_menu(window: MainWindow, project_id: str) -> QMenu:
    rect = window.tree_view.visualRect(_project_index(window.tree_model, project_id))
    menu = window.tree_view.menu_at(rect.center())
    assert menu is not None
    return menu


def _trigger(menu: QMenu, text: str) -> None:
    next(a for a in menu.actions() if a.text() == text).trigger()


def _drop(model: SessionTreeModel, session_id: str, parent: QModelIndex, row: int = -1) -> None:
    data = QMimeData()
    data.setData(SESSION_MIME, session_id.encode())
    model.dropMimeData(data, model.supportedDropActions(), row, 0, parent)


async def _project(window: MainWindow, kernel: Kernel, folder: Path) -> str:
    folder.mkdir(exist_ok=True)
    project = await kernel.projects.add_project(str(folder))
    window.tree_model.upsert_project(project)
    return str(project.id)


async def test_rename_and_instruction_from_the_project_menu(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """Y54, Y57: rename; the instruction reaches the model in the project's sessions."""
    pid = await _project(real_window, real_kernel, tmp_path / "alpha")
    _trigger(_project_menu(real_window, pid), RENAME)
    rename = await dialog_of(TextDialog)
    assert rename.line is not None
    rename.line.setText("Alpha app")
    rename.save_button.click()
    await real_window.runner.drain()
    assert [p.name for p in await real_kernel.projects.list_projects()] == ["Alpha app"]
    assert _project_index(real_window.tree_model, pid).data() == "Alpha app"
    _trigger(_project_menu(real_window, pid), INSTRUCTION)
    edit = await dialog_of(TextDialog)
    assert edit.box is not None
    edit.box.setPlainText("Answer in haiku.")
    edit.save_button.click()
    await real_window.runner.drain()
    sid = await open_session(real_window, real_kernel, workdir=str(tmp_path / "alpha"))
    events = Events(real_kernel)
    fake_provider.script(Reply(text="ok"))
    await real_kernel.turns.send(sid, "hello")
    await events.turns(1, sid)
    system = str(fake_provider.requests[0].body["messages"][0]["content"])
    assert "Answer in haiku." in system


async def test_delete_project_says_the_folder_stays_and_keeps_it(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """F11, Y54: deleting forgets the project and its sessions; the folder and files stay."""
    folder = tmp_path / "beta"
    pid = await _project(real_window, real_kernel, folder)
    (folder / "main.py").write_text("print('keep me')\n")
    sid = await open_session(real_window, real_kernel, title="Beta work", workdir=str(folder))
    _trigger(_project_menu(real_window, pid), DELETE_PROJECT)
    question = await dialog_of(ConfirmDialog)
    assert "not touched" in question.body.text() and "Beta work" in question.body.text()
    await settle()
    question.grab().save(str(shots / "project_delete_confirm.png"))
    question.confirm_button.click()
    await real_window.runner.drain()
    await wait_until(lambda: real_window.tree_model.session(sid) is None, what="session gone from the tree")
    assert await real_kernel.projects.list_projects() == [] and await real_kernel.sessions.list_sessions() == []
    assert (folder / "main.py").read_text() == "print('keep me')\n"
    assert real_window.tree_model.project(pid) is None


async def test_missing_folder_is_shown_and_the_project_can_be_relinked(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """A moved project folder is marked in the tree; relinking keeps the sessions bound (F09)."""
    old = tmp_path / "gamma"
    pid = await _project(real_window, real_kernel, old)
    sid = await open_session(real_window, real_kernel, title="Gamma", workdir=str(old))
    new = tmp_path / "moved-gamma"
    old.rename(new)
    await real_window.project_actions.refresh_missing()
    assert real_window.tree_model.is_missing(pid)
    await settle()
    real_window.grab().save(str(shots / "project_missing.png"))
    _trigger(_project_menu(real_window, pid), RELINK)
    picker = await dialog_of(FolderPicker)
    picker.path_edit.setText(str(new))
    picker.go_button.click()
    await wait_until(lambda: picker.chosen() == str(new) and picker.confirm_enabled(), what="loaded")
    picker.confirm_button.click()
    await real_window.runner.drain()
    assert not real_window.tree_model.is_missing(pid)
    session = await real_kernel.sessions.get_session(sid)
    assert session.project_id == pid and session.workdir == str(new.resolve())
    await wait_until(lambda: (s := real_window.tree_model.session(sid)) is not None and s.workdir == str(new.resolve()),
                     what="tree follows")


async def test_dragging_a_bound_session_out_is_refused_with_the_reason(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """F09, Y55: a bound session dropped on Recents or another project does not move."""
    pid = await _project(real_window, real_kernel, tmp_path / "delta")
    other = await _project(real_window, real_kernel, tmp_path / "epsilon")
    sid = await open_session(real_window, real_kernel, title="Bound", workdir=str(tmp_path / "delta"))
    model = real_window.tree_model
    recents = next(model.index(r, 0) for r in range(model.rowCount())
                   if model.node(model.index(r, 0)).key == RECENTS_ID)
    for target in (recents, _project_index(model, other)):
        _drop(model, sid, target)
        question = await dialog_of(ConfirmDialog)
        assert "stays in it" in question.body.text() and question.confirm_button.text() == "Branch it"
        question.cancel_button.click()
        await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).project_id == pid


async def test_reorder_by_drag_within_a_group_keeps_pins_on_top(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    """Y56: drag within Recents reorders; a pinned session stays first; identities unchanged."""
    first = await open_session(real_window, real_kernel, title="one")
    second = await open_session(real_window, real_kernel, title="two")
    third = await open_session(real_window, real_kernel, title="three")
    await real_kernel.sessions.update_session(first, pinned=True)
    model = real_window.tree_model

    def order() -> list[str]:
        parent = model.index_of_session(first).parent()
        return [model.node(model.index(r, 0, parent)).key for r in range(model.rowCount(parent))]

    await wait_until(lambda: order()[0] == first, what="pinned first")
    assert order() == [first, third, second]
    _drop(model, second, model.index_of_session(third))  # "two" dropped on "three": goes before it
    await real_window.runner.drain()
    await wait_until(lambda: order() == [first, second, third], what="reordered")
    _drop(model, first, model.index_of_session(first).parent(), -1)  # the pinned one to the end
    await real_window.runner.drain()
    await settle()
    assert order()[0] == first, "a pinned session stays on top"
    assert {s.id for s in await real_kernel.sessions.list_sessions()} == {first, second, third}
