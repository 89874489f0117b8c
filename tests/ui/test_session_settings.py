"""The session settings dialog on the real kernel (Yeaft Y02/Y08, Foya F09)."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.model import VP, AgentMode, ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply
from tests.ui.helpers import settle, wait_until


async def _select(window: MainWindow, kernel: Kernel, **kw: object) -> str:
    session = await kernel.create_session(connection="fake", model="fake-model", **kw)  # type: ignore[arg-type]
    await wait_until(lambda: window.tree_model.session(session.id) is not None, what="tree row")
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    await window.runner.drain()
    return session.id


async def test_settings_dialog_saves_every_field_and_binds_an_unbound_session_once(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    await real_kernel.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    folder = tmp_path / "work"
    folder.mkdir()
    sid = await _select(real_window, real_kernel, title="Before")
    pane = real_window.pane
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not None and pane.settings_dialog.isVisible(),
                     what="dialog open")
    dialog = pane.settings_dialog
    assert dialog is not None and not dialog.folder.isReadOnly()
    dialog.title.setText("After")
    dialog.announcement.setPlainText("Keep answers short.")
    dialog.roster["linus"].setChecked(True)
    dialog.default_vp.setCurrentIndex(dialog.default_vp.findData("linus"))
    dialog.effort.setCurrentIndex(dialog.effort.findData("medium"))
    dialog.approval.setCurrentIndex(dialog.approval.findData("auto_edit"))
    dialog.agent_mode.setCurrentIndex(dialog.agent_mode.findData("plan"))
    dialog.folder.setText(str(folder))
    await settle(2)
    real_window.grab().save(str(shots / "session_settings.png"))
    dialog.grab().save(str(shots / "session_settings_dialog.png"))
    dialog.buttons.accepted.emit()
    await wait_until(lambda: not dialog.isVisible(), what="dialog closed after saving")
    s = await real_kernel.get_session(sid)
    assert (s.title, s.announcement, s.roster, s.default_vp) == ("After", "Keep answers short.",
                                                                 ("omni", "linus"), "linus")
    assert (s.reasoning_effort, s.approval_mode, s.agent_mode) == ("medium", ApprovalMode.AUTO_EDIT,
                                                                   AgentMode.PLAN)
    assert s.workdir == str(folder.resolve()) and s.project_id
    await wait_until(lambda: pane.session is not None and pane.session.title == "After", what="pane refresh")
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not dialog and pane.settings_dialog is not None
                     and pane.settings_dialog.isVisible(), what="dialog open again")
    again = pane.settings_dialog
    assert again is not None and again.folder.isReadOnly(), "a bound folder is shown, never edited"
    again.title.setText("   ")
    again.buttons.accepted.emit()
    await wait_until(lambda: again.error.isVisibleTo(again), what="refusal shown")
    assert "cannot be empty" in again.error.text() and again.isVisible()
    again.reject()


async def test_usage_window_shows_session_and_all_time_with_no_price(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """Usage in the window: by connection/model and day; "no price" until a price is set."""
    fake_provider.script(Reply(text="hi", usage=(1234, 56)))
    sid = await _select(real_window, real_kernel)
    await real_kernel.send(sid, "hello")
    await real_kernel.wait_idle()
    pane = real_window.pane
    pane.status.usage.click()
    await wait_until(lambda: pane.usage_dialog is not None and pane.usage_dialog.isVisible(), what="usage")
    dialog = pane.usage_dialog
    assert dialog is not None and len(dialog.tables) == 2
    row = dialog.tables[0].topLevelItem(0)
    assert row is not None
    assert [row.text(c) for c in (1, 2, 3, 6, 7)] == ["fake/fake-model", "1", "1,234", "56", "no price"]
    await settle(2)
    dialog.grab().save(str(shots / "usage_window.png"))
    dialog.reject()


async def test_settings_dialog_shows_the_rules_in_effect(real_window: MainWindow, real_kernel: Kernel,
                                                         tmp_path: Path, shots: Path) -> None:
    """F07: the project's AGENTS.md is listed as a rule in effect; the list follows edits."""
    folder = tmp_path / "ruled"
    folder.mkdir()
    (folder / "AGENTS.md").write_text("Run the tests before you finish.\n" + "x" * 40_000)
    await _select(real_window, real_kernel, workdir=str(folder))
    pane = real_window.pane
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not None and pane.settings_dialog.isVisible(),
                     what="dialog open")
    dialog = pane.settings_dialog
    assert dialog is not None
    text = dialog.rules.text()
    assert str(folder / "AGENTS.md") in text and "32,000 of 40,033 characters sent" in text
    assert "Truncated to the rules budget" in text
    await settle(2)
    dialog.grab().save(str(shots / "session_settings_rules.png"))
    dialog.reject()
