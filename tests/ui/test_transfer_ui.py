"""Export and import from the window, on the real kernel (File menu and the session's context menu)."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QFileDialog, QLineEdit, QMenu

from foya_desktop.core.events import TurnFinished
from foya_desktop.core.model import ApprovalMode, Phase, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING
from foya_desktop.store.history import valid_messages
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog, InfoDialog
from foya_desktop.ui.ops.transfer import IMPORT_PICKER
from foya_desktop.ui.picker.dialog import FolderPicker
from foya_desktop.ui.projects.broad import BROAD_DIALOG
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_turns
from tests.ui.helpers import dialog_of, pick_folder, settle, wait_until


async def _session_with_a_reply(window: MainWindow, kernel: Kernel, fake: FakeProviderServer) -> str:
    rec = Recorder()
    kernel.bus.subscribe(rec)
    fake.script(Reply(text="Here is the answer."))
    s = await kernel.sessions.create_session(title="Exported", connection="fake", model="fake-model")
    await kernel.turns.send(s.id, "the question")
    await wait_turns(rec, s.id, 1)
    await wait_until(lambda: window.tree_model.session(s.id) is not None, what="tree row")
    window.tree_view.select_session(s.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == s.id)
    return s.id


def _type_name(chooser: QFileDialog, path: Path) -> None:
    """Type the path into the dialog's file-name field, as a person does."""
    edit = chooser.findChild(QLineEdit, "fileNameEdit")
    assert edit is not None
    edit.setText(str(path))


async def test_export_warns_then_saves_and_import_opens_the_copy(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    sid = await _session_with_a_reply(real_window, real_kernel, fake_provider)
    menu = QMenu()
    real_window.tree_view.menu_requested.emit(menu, sid)
    texts = [a.text() for a in menu.actions()]
    assert "Export as Markdown…" in texts and "Export as JSON…" in texts
    file_texts = [a.text() for a in real_window.file_menu.actions()]
    assert "Import session…" in file_texts and "Export session as JSON…" in file_texts
    transfer = real_window.transfer
    transfer.export_json_action.trigger()
    await wait_until(lambda: isinstance(transfer.dialog, ConfirmDialog), what="the secrets warning")
    warning = transfer.dialog
    assert isinstance(warning, ConfirmDialog) and EXPORT_WARNING in warning.body.text()
    await settle(2)
    warning.grab().save(str(shots / "export_warning.png"))
    warning.confirm_button.click()
    await wait_until(lambda: isinstance(transfer.dialog, QFileDialog), what="the save dialog")
    chooser = transfer.dialog
    assert isinstance(chooser, QFileDialog)
    target = tmp_path / "out.json"
    _type_name(chooser, target)
    chooser.accept()
    await wait_until(target.exists, what="the export file")
    await real_window.runner.drain()
    doc = json.loads(target.read_text())
    assert [m["role"] for m in doc["messages"]] == ["user", "assistant"]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    before = {s.id for s in await real_kernel.sessions.list_sessions()}
    await _import_file(real_window, target)
    await wait_until(lambda: len(before) < len(real_window.tree_model.sessions()), what="imported row")
    (new_id,) = {s.id for s in await real_kernel.sessions.list_sessions()} - before
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == new_id,
                     what="the imported session opens")
    assert [m.text for m in await real_kernel.store.read(valid_messages, new_id)] == ["the question",
                                                                                "Here is the answer."]


async def test_import_of_a_bad_file_says_why_in_a_dialog(real_window: MainWindow, real_kernel: Kernel,
                                                        tmp_path: Path, shots: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    transfer = real_window.transfer
    transfer.start_import()
    await wait_until(lambda: isinstance(transfer.dialog, QFileDialog), what="the open dialog")
    opener = transfer.dialog
    assert isinstance(opener, QFileDialog)
    _type_name(opener, bad)
    opener.accept()
    await wait_until(lambda: isinstance(transfer.dialog, InfoDialog), what="the error")
    error = transfer.dialog
    assert isinstance(error, InfoDialog)
    await settle(2)
    error.grab().save(str(shots / "import_error.png"))
    assert "Cannot import this file: it is not valid JSON" in error.text.text()
    assert "Nothing was imported." in error.text.text()
    assert await real_kernel.sessions.list_sessions() == []
    error.accept()


def _crafted(folder: Path) -> dict[str, Any]:
    """An export naming ``folder`` in auto mode: the file's wishes, which the person decides on."""
    return {"format": "foya-session", "version": 1,
            "session": {"id": "ses_theirs", "title": "Their notes", "approval_mode": "auto",
                        "agent_mode": "execute", "roster": ["omni"], "default_vp": "omni"},
            "project": {"name": folder.name, "path": str(folder)},
            "messages": [{"role": "user", "status": "complete", "parts": [{"kind": "text", "text": "earlier"}]}],
            "attachments": {}}


async def _import_file(window: MainWindow, path: Path) -> None:
    """File ▸ Import session…, and ``path`` typed into the open dialog as a person does."""
    transfer = window.transfer
    transfer.import_action.trigger()
    await wait_until(lambda: isinstance(transfer.dialog, QFileDialog), what="the open dialog")
    opener = transfer.dialog
    assert isinstance(opener, QFileDialog)
    _type_name(opener, path)
    opener.accept()


async def _picker_on(folder: Path) -> FolderPicker:
    """The import's folder picker, open on ``folder`` (the export's), ready to confirm it."""
    picker = await dialog_of(FolderPicker, IMPORT_PICKER)
    await wait_until(lambda: picker.chosen() == str(folder) and picker.confirm_enabled(), what="preselected")
    return picker


async def _imported(kernel: Kernel, before: set[str]) -> Session:
    """The session the import flow stored (waited for: the flow runs as a task)."""
    for _ in range(200):
        found = [s for s in await kernel.sessions.list_sessions() if s.id not in before]
        if found:
            return found[0]
        await settle(1)
    raise AssertionError("no session was imported")


async def test_import_asks_where_the_session_works_and_cancel_imports_it_unbound(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    """The export names someone else's folder in auto mode. The picker opens on that folder and says
    what binding means; "Import without a folder" imports it unbound, in ask mode, registering no
    project. A message then gets a plain sentence back instead of a write in that folder."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "important.txt").write_text("theirs\n")
    export = tmp_path / "notes.json"
    export.write_text(json.dumps(_crafted(theirs)))
    await _import_file(real_window, export)
    picker = await _picker_on(theirs)
    assert str(theirs) in picker.intro.text() and "Their notes" in picker.intro.text()
    assert picker.intro.isVisible() and picker.cancel_button.text() == "Import without a folder"
    assert picker.confirm_button.text() == "Bind to this folder"
    assert await real_kernel.sessions.list_sessions() == []  # nothing is stored while the person decides
    await settle(2)
    picker.grab().save(str(shots / "import_folder_picker.png"))
    picker.cancel_button.click()
    session = await _imported(real_kernel, set())
    assert (session.project_id, session.workdir, session.approval_mode) == (None, "", ApprovalMode.ASK)
    assert await real_kernel.projects.list_projects() == []
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == session.id,
                     what="the imported session opens")
    assert "without a folder" in real_window.statusBar().currentMessage()
    assert "approval mode auto was not taken over" in real_window.statusBar().currentMessage()
    finished: list[TurnFinished] = []
    real_kernel.bus.subscribe(lambda e: finished.append(e) if isinstance(e, TurnFinished) else None)
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": str(theirs / "important.txt"),
                                                                       "content": "PWNED"}, id="call_w")]),
                         Reply(text="done"))
    real_window.pane.composer.input.setPlainText("harmless")
    real_window.pane.send()
    await wait_until(lambda: finished, timeout=15, what="turn finished")
    await wait_until(lambda: real_kernel.turns.phase(session.id) == Phase.IDLE)
    assert (theirs / "important.txt").read_text() == "theirs\n"
    await settle(5)
    model = real_window.pane.timeline_model
    calls = [r for r in (model.row_at(i) for i in range(model.rowCount()))
             if isinstance(r, MessageRow) and r.message.tool_calls]
    result = calls[0].result_for("call_w")
    assert result is not None and result.is_error
    assert result.content == "write_file is not available: this session has no working folder."


async def test_import_binds_only_the_folder_the_person_confirms(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path) -> None:
    """Confirming the exported folder binds it (ask mode); browsing elsewhere binds that folder; a
    broad exported folder is confirmed as everywhere, and its Cancel imports without a folder."""
    theirs, mine = tmp_path / "theirs", tmp_path / "mine"
    theirs.mkdir()
    mine.mkdir()
    export = tmp_path / "notes.json"
    export.write_text(json.dumps(_crafted(theirs)))
    await _import_file(real_window, export)
    (await _picker_on(theirs)).confirm_button.click()
    first = await _imported(real_kernel, set())
    assert (first.workdir, first.approval_mode) == (str(theirs.resolve()), ApprovalMode.ASK)
    await real_window.runner.drain()
    await _import_file(real_window, export)
    await _picker_on(theirs)
    (await pick_folder(mine)).confirm_button.click()
    second = await _imported(real_kernel, {first.id})
    assert (second.workdir, second.approval_mode) == (str(mine.resolve()), ApprovalMode.ASK)
    await real_window.runner.drain()
    broad = tmp_path / "broad.json"  # tmp_path holds the data folder
    broad.write_text(json.dumps(_crafted(tmp_path)))
    await _import_file(real_window, broad)
    (await _picker_on(tmp_path)).confirm_button.click()
    question = await dialog_of(ConfirmDialog, BROAD_DIALOG)
    question.cancel_button.click()
    third = await _imported(real_kernel, {first.id, second.id})
    assert (third.project_id, third.workdir) == (None, "")
    assert str(tmp_path.resolve()) not in [p.path for p in await real_kernel.projects.list_projects()]


async def test_an_exported_folder_that_is_not_here_asks_nothing(real_window: MainWindow, real_kernel: Kernel,
                                                                tmp_path: Path) -> None:
    export = tmp_path / "notes.json"
    export.write_text(json.dumps(_crafted(tmp_path / "elsewhere")))
    await _import_file(real_window, export)
    session = await _imported(real_kernel, set())
    assert (session.project_id, session.approval_mode) == (None, ApprovalMode.ASK)
    await real_window.runner.drain()
    assert real_window.transfer.dialog is None
