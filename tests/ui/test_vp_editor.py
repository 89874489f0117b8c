"""The VP editor on the real kernel: create, edit, duplicate, delete (refused while a roster uses
it), opened from File ▸ VPs… (issue 9 "VP library")."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.main_window import MainWindow
from tests.ui.helpers import dialog_of, settle


async def test_create_edit_duplicate_delete(real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    real_window._actions["vps"].trigger()
    dialog = await dialog_of(VPLibraryDialog)
    await settle()
    assert dialog.current() is not None and dialog.current().id == "omni"  # type: ignore[union-attr]
    assert not dialog.delete_button.isEnabled()  # Omni is built in
    dialog.new_button.click()
    dialog.name.setText("Linus")
    dialog.soul.setPlainText("You implement the smallest safe fix.")
    dialog.hint.setCurrentIndex(dialog.hint.findData("fast"))
    dialog.tools.setText("read_file, grep")
    dialog.color.setText("#aa5500")
    saved = await dialog.save()
    assert saved is not None and (saved.id, saved.model_hint, saved.tools, saved.color) == (
        "linus", "fast", ("read_file", "grep"), "#aa5500")
    dialog.soul.setPlainText("You implement, then test.")
    await dialog.save()
    assert [v.soul for v in await real_kernel.vps.list_vps() if v.id == "linus"] == ["You implement, then test."]
    copy = await dialog.duplicate()
    assert copy is not None and copy.name == "LinusCopy" and copy.soul == "You implement, then test."
    dialog.name.setText("bad name")
    assert await dialog.save() is None and "one word" in dialog.message.text()
    await real_kernel.sessions.create_session(title="uses Linus", roster=["Linus"])
    await dialog.refresh("linus")
    assert not await dialog.delete()
    assert "roster of 1 session(s)" in dialog.message.text()
    await dialog.refresh(copy.id)
    assert await dialog.delete()
    assert [v.name for v in await real_kernel.vps.list_vps()] == ["Omni", "Linus"]
    await dialog.refresh("linus")
    await settle()
    dialog.grab().save(str(shots / "vp_editor.png"))
    dialog.close_button.click()


async def test_roster_and_default_vp_of_an_existing_session(real_window: MainWindow, real_kernel: Kernel) -> None:
    """Y03: Session ▸ Roster and default VP… changes who works in the session."""
    from foya_desktop.core.model import VP
    from foya_desktop.ui.dialogs.roster import RosterDialog
    from foya_desktop.ui.ops.session_actions import ROSTER
    from tests.ui.helpers import wait_until
    from tests.ui.ops_helpers import find_action, tree_menu

    await real_kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    await real_kernel.vps.add_vp(VP("", "Martin", "", "You review."))
    session = await real_kernel.sessions.create_session(title="team")
    await wait_until(lambda: real_window.tree_model.session(session.id) is not None, what="tree row")
    find_action(tree_menu(real_window, session.id), ROSTER).trigger()
    dialog = await dialog_of(RosterDialog)
    assert dialog.roster() == ("omni",)
    dialog.checks["linus"].setChecked(True)
    dialog.checks["martin"].setChecked(True)
    dialog.checks["omni"].setChecked(False)
    assert [dialog.default_vp.itemText(i) for i in range(dialog.default_vp.count())] == ["Linus", "Martin"]
    dialog.default_vp.setCurrentIndex(1)
    dialog.buttons.accepted.emit()
    await wait_until(lambda: real_window.tree_model.session(session.id) is not None
                     and real_window.tree_model.session(session.id).roster == ("linus", "martin"),  # type: ignore[union-attr]
                     what="roster saved")
    updated = await real_kernel.sessions.get_session(session.id)
    assert (updated.roster, updated.default_vp) == (("linus", "martin"), "martin")
