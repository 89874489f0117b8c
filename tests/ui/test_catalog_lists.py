"""The VP editor's and Connections' lists follow the engine: a VP or a connection saved or removed,
by the dialog itself or by anything else, shows in the open dialog's list at once — and a reload
never wipes the form the person is typing in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QListWidget, QPushButton

from foya_desktop.core.model import VP, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog
from tests.ui.helpers import dialog_of, settle, visible_dialog, wait_until


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


async def test_esc_in_connections_asks_before_dropping_an_unsaved_form(
        real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    """Esc with a form nobody saved asks first; Cancel keeps the typing, confirming closes."""
    real_window._actions["connections"].trigger()
    dialog = await dialog_of(ConnectionsDialog)
    await settle()
    dialog.new_connection()
    dialog.name.setText("draft")
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    ask = await dialog_of(ConfirmDialog)
    await settle()
    ask.grab().save(str(shots / "connections_unsaved_ask.png"))
    ask.cancel_button.click()
    await wait_until(lambda: not ask.isVisible(), what="the question answered")
    await settle()
    assert dialog.isVisible() and dialog.name.text() == "draft"
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    ask = await dialog_of(ConfirmDialog)
    ask.confirm_button.click()
    await wait_until(lambda: visible_dialog(ConnectionsDialog) is None, what="Connections closed")


async def test_esc_in_connections_closes_at_once_when_nothing_is_unsaved(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    real_window._actions["connections"].trigger()
    dialog = await dialog_of(ConnectionsDialog)
    await settle()
    dialog.list.setCurrentRow(0)  # the stored "fake", as stored
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    await wait_until(lambda: visible_dialog(ConnectionsDialog) is None, what="Connections closed")
    assert visible_dialog(ConfirmDialog) is None
