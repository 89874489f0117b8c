"""The session settings dialog on the real kernel (Yeaft Y02/Y08, Foya F09)."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.model import VP, AgentMode, ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.ops.confirm import ConfirmDialog
from tests.fakeprovider import FakeProviderServer, Reply
from tests.ui.helpers import dialog_of, open_session, pick_folder, settle, wait_until


async def test_settings_dialog_saves_every_field_and_binds_an_unbound_session_once(
        real_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """Every field saves; an unbound session binds through the picker after the irreversible question."""
    await real_kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "AGENTS.md").write_text("Be brief.\n")
    sid = await open_session(real_window, real_kernel, title="Before")
    pane = real_window.pane
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not None and pane.settings_dialog.isVisible(),
                     what="dialog open")
    dialog = pane.settings_dialog
    assert dialog is not None
    assert dialog.folder.isReadOnly() and not dialog.folder.text(), "no typed folder: the picker chooses it"
    assert dialog.bind_button.isVisibleTo(dialog)
    dialog.title.setText("After")
    dialog.announcement.setPlainText("Keep answers short.")
    dialog.roster["linus"].setChecked(True)
    dialog.default_vp.setCurrentIndex(dialog.default_vp.findData("linus"))
    dialog.effort.setCurrentIndex(dialog.effort.findData("medium"))
    dialog.approval.setCurrentIndex(dialog.approval.findData("auto_edit"))
    dialog.agent_mode.setCurrentIndex(dialog.agent_mode.findData("plan"))
    await settle(2)
    dialog.grab().save(str(shots / "session_settings_dialog.png"))
    # binding: the working-directory picker, then the question that says it cannot be undone
    dialog.bind_button.click()
    picker = await pick_folder(folder)
    assert picker.parent() is dialog, "the picker stacks above the settings dialog"
    picker.confirm_button.click()
    question = await dialog_of(ConfirmDialog)
    assert "cannot be undone" in question.body.text()
    question.cancel_button.click()
    await real_window.runner.drain()
    assert (await real_kernel.sessions.get_session(sid)).project_id is None, "cancel binds nothing"
    assert dialog.isVisible() and dialog.bind_button.isVisibleTo(dialog)
    dialog.bind_button.click()
    (await pick_folder(folder)).confirm_button.click()
    question = await dialog_of(ConfirmDialog)
    await settle(2)
    real_window.grab().save(str(shots / "session_settings_bind_question.png"))
    question.grab().save(str(shots / "session_settings_bind_question_dialog.png"))
    question.confirm_button.click()
    await real_window.runner.drain()
    bound = await real_kernel.sessions.get_session(sid)
    assert bound.workdir == str(folder.resolve()) and bound.project_id
    await wait_until(lambda: dialog.folder.text() == str(folder.resolve()), what="folder shown")
    assert not dialog.bind_button.isVisibleTo(dialog), "binding happens once"
    assert str(folder / "AGENTS.md") in dialog.rules.text(), "the bound folder's rules are now in effect"
    assert dialog.isVisible(), "the other edits are still there to save"
    await settle(2)
    dialog.grab().save(str(shots / "session_settings_bound.png"))
    dialog.buttons.accepted.emit()
    await wait_until(lambda: not dialog.isVisible(), what="dialog closed after saving")
    s = await real_kernel.sessions.get_session(sid)
    assert (s.title, s.announcement, s.roster, s.default_vp) == ("After", "Keep answers short.",
                                                                 ("omni", "linus"), "linus")
    assert (s.reasoning_effort, s.approval_mode, s.agent_mode) == ("medium", ApprovalMode.AUTO_EDIT,
                                                                   AgentMode.PLAN)
    assert s.workdir == str(folder.resolve()) and s.project_id == bound.project_id
    await wait_until(lambda: pane.session is not None and pane.session.title == "After", what="pane refresh")
    pane.settings_button.click()
    await wait_until(lambda: pane.settings_dialog is not dialog and pane.settings_dialog is not None
                     and pane.settings_dialog.isVisible(), what="dialog open again")
    again = pane.settings_dialog
    assert again is not None and again.folder.isReadOnly(), "a bound folder is shown, never edited"
    assert again.folder.text() == str(folder.resolve()) and not again.bind_button.isVisibleTo(again)
    again.title.setText("   ")
    again.buttons.accepted.emit()
    await wait_until(lambda: again.error.isVisibleTo(again), what="refusal shown")
    assert "cannot be empty" in again.error.text() and again.isVisible()
    again.reject()


async def test_usage_window_shows_session_and_all_time_with_no_price(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """Usage in the window: by connection/model and day; "no price" until a price is set."""
    fake_provider.script(Reply(text="hi", usage=(1234, 56)))
    sid = await open_session(real_window, real_kernel)
    await real_kernel.turns.send(sid, "hello")
    await real_kernel.turns.wait_idle()
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
    await open_session(real_window, real_kernel, workdir=str(folder))
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


async def test_usage_from_the_menu_both_vendors_and_a_price_set_in_the_window(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    """Usage: File → Token usage…; input incl. cache for Anthropic and OpenAI alike; "no price" until a
    price is set in the window (then the cost, session and all time); a bad price refused in words."""
    await real_kernel.connections.add_connection(Connection("claude", ProviderKind.ANTHROPIC, fake_provider.base_url,
                                                "claude-x"))
    fake_provider.script(Reply(text="hi", usage=(1_000_000, 100_000), cached_tokens=400_000),
                         Reply(text="yo", usage=(2000, 30), cached_tokens=500))
    sid = await open_session(real_window, real_kernel)
    await real_kernel.turns.send(sid, "hello")
    await real_kernel.turns.wait_idle()
    other = await real_kernel.sessions.create_session(connection="claude", model="claude-x")
    await real_kernel.turns.send(other.id, "hello")
    await real_kernel.turns.wait_idle()
    pane = real_window.pane
    action = next(a for a in real_window.file_menu.actions() if a.text() == "Token usage…")
    action.trigger()
    await wait_until(lambda: pane.usage_dialog is not None and pane.usage_dialog.isVisible(), what="usage")
    dialog = pane.usage_dialog
    assert dialog is not None and dialog.session_table is not None
    mine = dialog.session_table.topLevelItem(0)
    assert mine is not None
    assert [mine.text(c) for c in (1, 2, 3, 4, 6, 7)] == ["fake/fake-model", "1", "1,000,000", "400,000",
                                                          "100,000", "no price"]
    items = [dialog.all_table.topLevelItem(i) for i in range(dialog.all_table.topLevelItemCount())]
    rows = {item.text(1): item for item in items if item is not None}
    claude = rows["claude/claude-x"]
    assert (claude.text(3), claude.text(4)) == ("2,000", "500"), "Anthropic's input is counted with its cache"
    assert rows[""].text(0) == "Total" and rows[""].text(3) == "1,002,000" and rows[""].text(7) == "no price"
    assert not dialog.price_button.isEnabled()
    dialog.session_table.setCurrentItem(mine)
    assert dialog.price_button.isEnabled() and dialog.selected_key() == ("fake", "fake-model")
    dialog.price_button.click()
    await wait_until(lambda: dialog.price_dialog is not None and dialog.price_dialog.isVisible(), what="price")
    price = dialog.price_dialog
    assert price is not None
    price.input.setText("-1")
    price.output.setText("10")
    price.buttons.accepted.emit()
    await wait_until(lambda: price.error.isVisibleTo(price), what="refusal")
    assert "cannot be negative" in price.error.text() and price.isVisible()
    price.input.setText("abc")
    price.buttons.accepted.emit()
    await wait_until(lambda: "is not a number" in price.error.text(), what="not a number")
    price.input.setText("3")
    price.cache_read.setText("0.30")
    await settle(2)
    price.grab().save(str(shots / "usage_price_dialog.png"))
    price.buttons.accepted.emit()
    # 600,000 uncached × $3 + 400,000 cache reads × $0.30 + 100,000 output × $10, per million
    def total_cost() -> str:
        item = dialog.all_table.topLevelItem(dialog.all_table.topLevelItemCount() - 1)
        return item.text(7) if item is not None else ""
    await wait_until(lambda: total_cost().startswith("$"), what="all-time cost shown")
    assert total_cost().startswith("$2.9200 + 1 line"), "a partial sum says what it leaves out"
    first = dialog.session_table.topLevelItem(0)
    assert first is not None and first.text(7) == "$2.9200"
    after = [dialog.all_table.topLevelItem(i) for i in range(dialog.all_table.topLevelItemCount())]
    assert [i.text(7) for i in after if i is not None and i.text(1) == "claude/claude-x"] == ["no price"]
    await settle(2)
    dialog.grab().save(str(shots / "usage_window_priced.png"))
    dialog.reject()
