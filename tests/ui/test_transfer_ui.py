"""Export and import from the window, on the real kernel (File menu and the session's context menu)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QLineEdit, QMenu

from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog, InfoDialog
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_turns
from tests.ui.helpers import settle, wait_until


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
    transfer.import_action.trigger()
    await wait_until(lambda: isinstance(transfer.dialog, QFileDialog), what="the open dialog")
    opener = transfer.dialog
    assert isinstance(opener, QFileDialog)
    _type_name(opener, target)
    opener.accept()
    await wait_until(lambda: len(before) < len(real_window.tree_model.sessions()), what="imported row")
    (new_id,) = {s.id for s in await real_kernel.sessions.list_sessions()} - before
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == new_id,
                     what="the imported session opens")
    assert [m.text for m in await real_kernel.store.valid_messages(new_id)] == ["the question",
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
