"""The window in Simplified Chinese: no English left in the main views (issue 12, "简体中文 and English").

zh_CN is installed *before* the window is built (as start-up does), then the
main views are opened on the real kernel — main window with a session, the
composer and status line, session tree with a project, session settings,
connections, new session, VP library, usage, search, the folder picker,
memory, MCP servers, roster, Preferences, the help sheet, the quick switcher, the
window's and the tree's menus, an approval card; then a real turn: tool rows with
their result summaries, approval cards, the running VP's panel, the status line
(tests/ui/test_flow_shots.py adds the question card, both themes) — and every visible text is
collected from the widget tree: labels, buttons, actions and menus, tooltips,
placeholders, combo items, headers and window titles. What remains after
removing an explicit list of names (product terms, model names, paths, key
names) must contain no Latin word. Screenshots go to the ``shots`` folder.
"""

from __future__ import annotations

import asyncio
import functools
import html
import re
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTableView,
    QTextEdit,
    QTreeView,
    QWidget,
)

from foya_desktop.core.events import ApprovalRequested
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui import i18n
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.cards.approval_card import ApprovalCard
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.mcp_servers import McpServersDialog
from foya_desktop.ui.dialogs.memory import MemoryDialog
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.dialogs.roster import RosterDialog
from foya_desktop.ui.dialogs.usage import UsageDialog
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.picker.dialog import FolderPicker
from foya_desktop.ui.reading.search_window import SearchWindow
from foya_desktop.ui.timeline.rows import StreamRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import settle, wait_until

ALLOWED = ("Foya", "VP", "VPs", "Omni", "MCP", "OpenAI", "Anthropic", "API", "URL", "Base", "token", "Token",
           "Enter", "Shift", "Esc", "Ctrl", "Alt", "Del", "Tab", "pid", "PNG", "JPEG", "GIF", "WebP", "UTF", "MB", "KB", "USD",
           "CONNECTION", "MODEL", "input", "output", "foya", "usage", "price", "OPENAI_API_KEY", "rrggbb",
           "read_file", "grep", "fake", "model", "Fusion", "Omni assistant", "AI", "Markdown", "JSON",
           "Claude Code")
"""Names that stay as they are in Chinese text: product terms and file formats (AI, Markdown, JSON, Claude Code), key and tool names, the CLI's own words
(``foya usage price CONNECTION MODEL --input USD --output USD``), the test's connection and model, and
the built-in VP's stored display name ("全能助手 / Omni assistant": the person's data, editable)."""

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def leftovers(text: str) -> list[str]:
    """Latin words in ``text`` that are not on the allowed list (paths, URLs and globs removed)."""
    plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
    plain = re.sub(r"\S*[/\\~]\S*|https?://\S+|\*\.\w+|#\w+|--\w+|@\w+|\w+\.\w+", " ", plain)
    for name in sorted(ALLOWED, key=len, reverse=True):
        plain = re.sub(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", " ", plain)
    return LATIN_WORD.findall(plain)


def test_leftovers_finds_english_and_spares_names() -> None:
    assert leftovers("Stop the current reply") == ["Stop", "the", "current", "reply"]
    assert leftovers("发消息给 Omni — 用 @ 指定 VP · Enter 发送 /home/me/project fake-model") == []
    assert leftovers("<b>此会话</b> &amp; OPENAI_API_KEY") == []


def _view_texts(view: QAbstractItemView, limit: int = 200) -> Iterator[str]:
    model = view.model()
    if model is None:
        return
    header = view.header() if isinstance(view, QTreeView) else (
        view.horizontalHeader() if isinstance(view, QTableView) else None)
    if header is not None and not header.isHidden():
        for section in range(header.count()):
            title = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
            if isinstance(title, str):
                yield title
    root = QModelIndex()
    stack = [model.index(r, 0, root) for r in range(min(model.rowCount(root), limit))]
    while stack:
        index = stack.pop()
        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            value = index.data(role)
            if isinstance(value, str):
                yield value
        stack.extend(model.index(r, 0, index) for r in range(min(model.rowCount(index), limit)))


def _action_texts(actions: list[QAction]) -> Iterator[str]:
    for action in actions:
        if action.isSeparator():
            continue
        yield action.text().replace("&", "")
        yield action.toolTip() if action.toolTip() != action.text() else ""
        menu = action.menu()
        if isinstance(menu, QMenu):
            yield menu.title().replace("&", "")
            yield from _action_texts(menu.actions())


def visible_texts(top: QWidget) -> list[tuple[str, str]]:
    """(where, text) for every text a person can see on ``top`` and its visible children."""
    found: list[tuple[str, str]] = [("window title", top.windowTitle())]
    for widget in [top, *top.findChildren(QWidget)]:
        if widget is not top and not widget.isVisibleTo(top):
            continue
        name = type(widget).__name__
        texts: list[str] = [widget.toolTip()]
        if isinstance(widget, QLabel):
            texts.append(widget.text())
        if isinstance(widget, QAbstractButton):
            texts.append(widget.text().replace("&", ""))
        if isinstance(widget, QLineEdit):
            texts.append(widget.placeholderText())
        if isinstance(widget, (QPlainTextEdit, QTextEdit)):
            texts.append(widget.placeholderText())
        if isinstance(widget, QComboBox):
            texts += [widget.itemText(i) for i in range(widget.count())] + [widget.placeholderText()]
        if isinstance(widget, QGroupBox):
            texts.append(widget.title())
        if isinstance(widget, QAbstractItemView):
            texts += list(_view_texts(widget))
        texts += list(_action_texts(widget.actions()))
        placeholder = getattr(widget, "placeholder", None)
        if isinstance(placeholder, str):
            texts.append(placeholder)
        found += [(name, t) for t in texts if t]
    return found


def english_in(top: QWidget, data: frozenset[str] = frozenset()) -> list[str]:
    """What is still English on ``top``; ``data`` are texts that are the person's data, not the window's."""
    return [f"{where}: {text!r} -> {words}" for where, text in visible_texts(top)
            if text not in data and (words := leftovers(text))]


@pytest.fixture
async def zh_window(real_kernel: Kernel, qapp: QApplication) -> AsyncIterator[MainWindow]:
    """The main window built after zh_CN was installed, as start-up does it."""
    i18n.install("zh_CN", qapp)
    bridge = EngineBridge(real_kernel.bus)
    window = MainWindow(real_kernel, bridge, use_tray=False)
    window.resize(1200, 800)
    window.show()
    try:
        await window.start()
        await window.runner.drain()
        yield window
    finally:
        await window.runner.drain()
        bridge.close()
        window.quit_controller.quitting = True
        window.close()
        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        window.destroyed.connect(lambda *_: None if gone.done() else gone.set_result(None))
        window.deleteLater()
        await asyncio.wait_for(gone, 5)
        i18n.install("en", qapp)


async def _dialog_shown(dialog: QWidget, shots: Path, name: str, data: frozenset[str] = frozenset()) -> list[str]:
    dialog.show()
    await settle(3)
    dialog.grab().save(str(shots / f"zh_{name}.png"))
    problems = english_in(dialog, data)
    dialog.close()
    return problems


async def _opened_by(window: MainWindow, action: QAction, dialog_of: Callable[[], QDialog | None], shots: Path,
                     name: str, data: frozenset[str] = frozenset()) -> list[str]:
    """Open a window-owned dialog through its action, shoot it, list its English, close it."""
    action.trigger()
    await wait_until(lambda: (shown := dialog_of()) is not None and shown.isVisible(), what=name)
    dialog = dialog_of()
    assert dialog is not None
    await settle(3)
    dialog.grab().save(str(shots / f"zh_{name}.png"))
    problems = [f"{name.replace('_', ' ')}: {p}" for p in english_in(dialog, data)]
    dialog.reject()
    await window.runner.drain()
    return problems


async def test_main_views_in_chinese_have_no_english_left(
        zh_window: MainWindow, real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """Issue 12: a translation test that loads zh_CN and finds no English leftovers in the main views."""
    window, problems = zh_window, []
    problems += english_in(window)  # the welcome page: no session yet
    problems += [f"empty sidebar: {w}" for w in leftovers(window.tree_view.empty_hint())]  # painted
    window.grab().save(str(shots / "zh_welcome.png"))
    folder = tmp_path / "网站项目"
    folder.mkdir()
    (folder / "src").mkdir()
    session = await real_kernel.sessions.create_session(title="重构登录模块", workdir=str(folder), connection="fake",
                                               model="fake-model")
    await wait_until(lambda: window.tree_model.session(session.id) is not None, what="tree row")
    window.tree_view.expandAll()
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    await window.runner.drain()
    window.pane.composer.input.setFocus()
    await settle(3)
    window.grab().save(str(shots / "zh_main_window.png"))
    problems += english_in(window)
    for menu in window.menuBar().findChildren(QMenu):
        menu.aboutToShow.emit()  # the Session menu fills itself on show
    problems += [f"menu: {t!r}" for t in _action_texts(window.menuBar().actions()) if leftovers(t)]
    # the session tree's and the timeline's context menus
    tree_menu = QMenu()
    window.session_actions.tree_actions(tree_menu, session.id)
    problems += [f"tree menu: {t!r}" for t in _action_texts(tree_menu.actions()) if leftovers(t)]
    # session settings, opened the way the person does
    window.pane.settings_button.click()
    await wait_until(lambda: window.pane.settings_dialog is not None and window.pane.settings_dialog.isVisible(),
                     what="settings dialog")
    settings = window.pane.settings_dialog
    assert settings is not None
    settings.grab().save(str(shots / "zh_session_settings.png"))
    problems += english_in(settings)
    settings.reject()
    connections = ConnectionsDialog(real_kernel, window.runner, window)
    await connections.refresh()
    problems += await _dialog_shown(connections, shots, "connections")
    new = NewSessionDialog(await real_kernel.vps.list_vps(), await real_kernel.projects.list_projects(),
                           await real_kernel.connections.list_connections(), "", window)
    problems += await _dialog_shown(new, shots, "new_session")
    library = VPLibraryDialog(real_kernel, window)
    await library.refresh()
    problems += await _dialog_shown(library, shots, "vp_library")
    usage = UsageDialog(real_kernel, window.runner, session.id, window)
    await usage.reload()
    problems += await _dialog_shown(usage, shots, "usage")
    search = SearchWindow(real_kernel, window.runner, window)
    problems += await _dialog_shown(search, shots, "search")
    picker = FolderPicker(str(folder), str(tmp_path), parent=window)
    picker.show()
    await wait_until(lambda: picker.list.count() > 0, what="picker listing")
    folders = frozenset(["src", *Path(tmp_path).parts])  # the folder names the picker lists and shows
    problems += await _dialog_shown(picker, shots, "picker", folders)
    card = ApprovalCard(ApprovalRequested(session.id, request_id="r1", speaker="omni", tool="run_shell",
                                          arguments={"command": "ls -la"}, summary="ls -la", command="ls -la",
                                          reason="run_shell"), "Omni", waiting=2)
    call = frozenset(["ls -la", "command: ls -la", "run_shell"])  # the tool call itself: the agent's words
    problems += await _dialog_shown(card, shots, "approval_card", call | {"⚠  Omni 想要使用 run_shell",
                                                                         "询问原因：run_shell"})
    memory = MemoryDialog(real_kernel, window.runner, window.pane.session, await real_kernel.vps.list_vps(),
                          {session.id: session.title}, window)
    await memory.refresh()
    problems += await _dialog_shown(memory, shots, "memory", frozenset([session.title]))
    mcp = McpServersDialog(real_kernel, window.runner, session.project_id, folder.name, window)
    await mcp.refresh()
    problems += await _dialog_shown(mcp, shots, "mcp_servers")
    roster = RosterDialog(session, await real_kernel.vps.list_vps(), window)
    problems += await _dialog_shown(roster, shots, "roster")
    keyboard = window.keyboard
    problems += await _opened_by(window, keyboard.preferences_action, lambda: window.preferences_dialog, shots,
                                 "preferences", frozenset(["English", "跟随系统（English）"]))
    problems += await _opened_by(window, keyboard.help_action, lambda: keyboard.help_sheet, shots, "help_sheet")
    problems += await _opened_by(window, keyboard.switcher_action, lambda: keyboard.switcher, shots,
                                 "quick_switcher", frozenset([session.title]))
    for dialog in (connections, new, library, usage, search, picker, memory, mcp, roster):
        dialog.deleteLater()
    assert problems == [], "English left in the Chinese window:\n" + "\n".join(problems)


async def test_language_follows_the_preference_at_start_up(real_kernel: Kernel, qapp: QApplication) -> None:
    """The stored language decides before any widget exists; English again after switching back."""
    i18n.install("zh_CN", qapp)
    try:
        window = MainWindow(real_kernel, EngineBridge(real_kernel.bus), use_tray=False)
        assert window.menuBar().actions()[0].text() == "文件(&F)"
        assert QCoreApplication.translate("WelcomePage", "Welcome to Foya") == "欢迎使用 Foya"
        window.quit_controller.quitting = True
        window.deleteLater()
    finally:
        i18n.install("en", qapp)
    assert QCoreApplication.translate("WelcomePage", "Welcome to Foya") == "Welcome to Foya"



def _replaced(window: MainWindow, card: ApprovalCard) -> bool:
    return window.pane.attention.card is not card


def _painted_texts(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the timeline's rows paint (the delegate draws them: no widget holds them)."""
    from foya_desktop.ui.timeline.canvas import Canvas, Segment

    painted: list[str] = []
    original, original_wrapped = Canvas.line, Canvas.wrapped

    def recording(self: Canvas, segments: list[Segment], *args: object, **kwargs: object) -> int:
        painted.append("".join(s.text for s in segments))
        return original(self, segments, *args, **kwargs)  # type: ignore[arg-type]

    def recording_wrapped(self: Canvas, text: str, *args: object, **kwargs: object) -> int:
        painted.append(text)  # markers and errors are wrapped whole, not drawn as one line
        return original_wrapped(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Canvas, "line", recording)
    monkeypatch.setattr(Canvas, "wrapped", recording_wrapped)
    model = window.pane.timeline_model
    for i in range(model.rowCount()):
        window.pane.renderer.walk(Canvas(None, 0, 0, 900), model.row_at(i), model.starts_block(i))
    monkeypatch.setattr(Canvas, "line", original)
    monkeypatch.setattr(Canvas, "wrapped", original_wrapped)
    return painted


async def test_timeline_rows_approval_reason_and_status_line_in_chinese_have_no_english_left(
        zh_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: the timeline's rows ("You ·", a reply stopped by the person, tool rows with their
    result summaries), an approval card with the command policy's reason and the engine's summary,
    the running VP's status panel and the status line — in zh_CN."""
    window = zh_window
    folder = tmp_path / "项目"
    folder.mkdir()
    (folder / "说明.md").write_text("旧内容\n", encoding="utf-8")
    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("write_file", {"path": "说明.md", "content": "新内容\n"})]),
        Reply(tool_calls=[ToolCallSpec("run_command", {"command": "touch 新文件.txt"})]),
        Reply(text="好了。"),
        Reply(text="很长的回答。" * 40, chunk_size=4, delay_per_chunk=0.05))
    session = await real_kernel.sessions.create_session(title="整理文档", workdir=str(folder), connection="fake",
                                               model="fake-model", approval_mode=ApprovalMode.ASK)
    await wait_until(lambda: window.tree_model.session(session.id) is not None, what="tree row")
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    window.pane.composer.input.setPlainText("请更新说明")
    window.pane.send()
    problems: list[str] = []
    for kind in ("write", "command"):
        await wait_until(lambda: window.pane.attention.card is not None
                         and window.pane.attention.card.isVisible(), timeout=15, what=f"the {kind} card")
        card = window.pane.attention.card
        assert card is not None
        await settle(3)
        card.grab().save(str(shots / f"zh_approval_{kind}.png"))
        calls = frozenset(["touch 新文件.txt", "command: touch 新文件.txt", "run_command", "write_file",
                           "path: 说明.md", "content: 新内容", "⚠  Omni 想要使用 write_file",
                           "⚠  Omni 想要使用 run_command",
                           "询问原因：touch 不在只读命令列表中"])  # the tool call itself: the agent's words
        problems += [f"{kind} card: {p}" for p in english_in(card, calls)]
        problems += [f"status while running: {p}" for p in english_in(window.pane.status)]  # VP panel
        card.buttons["once"].click()
        await wait_until(functools.partial(_replaced, window, card), timeout=15, what="answered")
    await wait_until(lambda: real_kernel.turns.phase(session.id).value == "idle", timeout=15, what="turn over")
    rows = window.pane.timeline_model.rowCount()
    window.pane.composer.input.setPlainText("再详细一点")
    window.pane.send()
    def streamed() -> bool:
        model = window.pane.timeline_model
        return any(isinstance(row := model.row_at(i), StreamRow) and row.body.documents()
                   for i in range(rows, model.rowCount()))
    await wait_until(streamed, timeout=15, what="the reply streaming")
    window.pane.composer.stop_button.click()
    await wait_until(lambda: real_kernel.turns.phase(session.id).value == "idle", timeout=15, what="stopped")
    await window.runner.drain()
    await settle(5)
    window.grab().save(str(shots / "zh_timeline.png"))
    painted = _painted_texts(window, monkeypatch)
    assert any(t.startswith("你 · ") for t in painted), painted  # the person's own messages
    assert any("已被你停止" in t for t in painted), painted  # the stopped reply says why, in Chinese
    # the tool calls themselves are the agent's words; the result summaries after " → " are the
    # tools' own lines (exit code, "Wrote …") and must be Chinese too (ui/timeline/tool_words.py)
    def own_words(text: str) -> str:
        for name in ("write_file", "run_command", "touch"):
            text = text.replace(name, " ")
        return text
    problems += [f"timeline row: {t!r} -> {w}" for t in painted if (w := leftovers(own_words(t)))]
    problems += [f"status line: {p}" for p in english_in(window.pane.status)]
    assert problems == [], "English left in the Chinese window:\n" + "\n".join(problems)
