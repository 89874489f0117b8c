"""The VP editor's and Connections' lists follow the engine: a VP or a connection saved or removed,
by the dialog itself or by anything else, shows in the open dialog's list at once — and a reload
never wipes the form the person is typing in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QListWidget, QPushButton

from foya_desktop.core.model import VP, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.main_window import MainWindow
from tests.ui.helpers import dialog_of, settle, wait_until


def _rows(widget: QListWidget) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def _selected(widget: QListWidget) -> list[str]:
    return [item.text() for item in widget.selectedItems()]


async def test_the_vp_editor_lists_what_the_engine_saved(real_window: MainWindow, real_kernel: Kernel,
                                                         shots: Path) -> None:
    real_window._actions["vps"].trigger()
    dialog = await dialog_of(VPLibraryDialog)
    await settle()
    dialog.new_button.click()
    dialog.name.setText("Linus")
    dialog.soul.setPlainText("You implement.")
    await real_kernel.vps.add_vp(VP("", "Martin", "", "You review."))  # e.g. the agent-file route
    await wait_until(lambda: "Martin" in _rows(dialog.list), what="Martin listed without reopening")
    await settle()
    assert (dialog.name.text(), dialog.soul.toPlainText(), _selected(dialog.list)) == (
        "Linus", "You implement.", []), "the VP being written is kept"
    dialog.save_button.click()
    await wait_until(lambda: "Linus" in _rows(dialog.list), what="Linus listed")
    await settle()
    assert _selected(dialog.list) == ["Linus"] and dialog.message.text().startswith("Saved Linus")
    await real_kernel.vps.remove_vp("martin")
    await wait_until(lambda: "Martin" not in _rows(dialog.list), what="Martin gone")
    await settle()
    assert _selected(dialog.list) == ["Linus"] and dialog.name.text() == "Linus"
    dialog.grab().save(str(shots / "vp_editor_follows.png"))
    dialog.close_button.click()


async def test_connections_list_what_the_engine_saved(real_window: MainWindow, real_kernel: Kernel,
                                                      shots: Path) -> None:
    real_window._actions["connections"].trigger()
    dialog = await dialog_of(ConnectionsDialog)
    await settle()
    dialog.new_connection()
    dialog.name.setText("draft")
    await real_kernel.connections.add_connection(Connection("Martin", ProviderKind.OPENAI,
                                                            "http://127.0.0.1:9/v1", "m"))
    await wait_until(lambda: "Martin" in _rows(dialog.list), what="Martin listed without reopening")
    await settle()
    assert (dialog.name.text(), _selected(dialog.list)) == ("draft", []), "the unsaved form is kept"
    dialog.model.setText("fake-model")
    next(b for b in dialog.findChildren(QPushButton) if b.text() == "Save").click()
    await wait_until(lambda: "draft" in _rows(dialog.list), what="draft listed")
    await settle()
    assert _rows(dialog.list) == ["Martin", "draft", "fake"] and _selected(dialog.list) == ["draft"]
    await real_kernel.connections.remove_connection("Martin")
    await wait_until(lambda: "Martin" not in _rows(dialog.list), what="Martin gone")
    await settle()
    assert _selected(dialog.list) == ["draft"] and dialog.name.text() == "draft"
    dialog.grab().save(str(shots / "connections_follow.png"))
    dialog.reject()
