"""Screenshots of the main flows in both languages and both themes, on the real kernel (issue 12).

Issue 12 "Tests": "screenshots of the main flows in both languages and both
themes, looked at and compared with the peers". Each of the four runs
(en/zh_CN × light/dark) walks one flow a person walks on the first day —
the welcome page, a session whose agent reads a file, runs a command that
waits for approval, asks a question and answers — and saves a PNG per step
to ``$FOYA_SHOTS`` (``flow_<lang>_<theme>_<step>.png``). The assertions check
what a broken look gets wrong and a person would see at once: text with no
contrast against its background, Qt's stock combo arrow instead of the
theme's chevron, and — in Chinese — any English the window wrote itself.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QComboBox, QWidget

from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import Preferences, PreferencesFile
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.conftest import _window
from tests.ui.helpers import settle, wait_until
from tests.ui.test_fit import clipped_placeholders
from tests.ui.test_questions import _question_card
from tests.ui.test_zh_views import _painted_texts, english_in, leftovers

RUNS = [("en", "light"), ("en", "dark"), ("zh_CN", "light"), ("zh_CN", "dark")]


@pytest.fixture
async def flow_window(request: pytest.FixtureRequest, real_kernel: Kernel, qapp: QApplication,
                      tmp_path: Path) -> AsyncIterator[MainWindow]:
    """The window in the run's language and theme, built after both were set (as start-up does)."""
    language, choice = request.param
    i18n.install(language, qapp)
    prefs = PreferencesFile(Home(tmp_path / "foya-home"))
    prefs.save(Preferences(language=language, theme=choice))
    try:
        async with _window(real_kernel, preferences=prefs) as window:
            yield window
    finally:
        theme.apply_theme("light")
        i18n.install("en", qapp)


def _chevron_drawn(combo: QComboBox, dark: bool) -> bool:
    """Whether the combo's arrow is the theme's chevron: grey pixels in the arrow area reach about
    the theme's dim colour, never the text colour Fusion's stock arrow is drawn in."""
    image = combo.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    area = [image.pixelColor(x, y) for x in range(max(0, image.width() - 22), image.width() - 3)
            for y in range(3, image.height() - 3)]
    grey = [c for c in area if c.hslSaturation() < 40]
    if not grey:
        return False
    names = [c.name() for c in grey]
    background = QColor(max(set(names), key=names.count)).lightness()
    dim = QColor(theme.colors(dark)["dim"]).lightness()
    reach = max((c.lightness() - background) / (dim - background) for c in grey)
    return 0.4 < reach < 1.15


def _contrast(widget: QWidget) -> int:
    pal = widget.palette()
    return abs(pal.color(QPalette.ColorRole.WindowText).lightness() - pal.color(QPalette.ColorRole.Window).lightness())


def _hint_painted(window: MainWindow) -> bool:
    """Whether the empty sidebar shows its hint: text-coloured pixels under the group rows."""
    view = window.tree_view
    image = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    background = image.pixelColor(image.width() - 2, image.height() - 2)
    index, top = view.model().index(0, 0), 0
    while index.isValid():  # below the last row shown
        top = view.visualRect(index).bottom()
        index = view.indexBelow(index)
    return any(abs(image.pixelColor(x, y).lightness() - background.lightness()) > 60
               for y in range(top + 4, min(image.height(), top + 60)) for x in range(image.width()))


def _grab(widget: QWidget, shots: Path, name: str) -> None:
    widget.grab().save(str(shots / f"{name}.png"))


@pytest.mark.parametrize("flow_window", RUNS, indirect=True, ids=[f"{lang}-{t}" for lang, t in RUNS])
async def test_main_flow_screenshots(flow_window: MainWindow, real_kernel: Kernel,
                                     fake_provider: FakeProviderServer, tmp_path: Path, shots: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Welcome → session → read, approved command, question, answer: each step in each run, looked at."""
    window = flow_window
    language, choice = i18n.active(), window.prefs.current.theme
    dark = choice == "dark"
    name = f"flow_{language}_{choice}"
    problems: list[str] = []
    zh = language == "zh_CN"
    assert _contrast(window) > 150, "text and window background too close"
    assert theme.is_dark() == dark
    await settle(3)
    _grab(window, shots, f"{name}_1_welcome")
    assert _hint_painted(window), "the empty sidebar says nothing"
    if zh:
        problems += [f"welcome: {p}" for p in english_in(window)]
        problems += [f"empty sidebar: {w}" for w in leftovers(window.tree_view.empty_hint())]  # painted
    folder = tmp_path / ("网站" if zh else "website")
    folder.mkdir()
    (folder / "README.md").write_text("# Site\n\nA small static site.\n", encoding="utf-8")
    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})]),
        Reply(tool_calls=[ToolCallSpec("run_command", {"command": "touch index.html"})]),
        Reply(tool_calls=[ToolCallSpec("ask_user", {"question": "Which colour for the header?",
                                                    "choices": ["Blue", "Green"]})]),
        Reply(text="Done: **index.html** exists now.\n\n- header: blue\n- next: `npm run build`"))
    session = await real_kernel.sessions.create_session(title="网站首页" if zh else "Landing page", workdir=str(folder),
                                               connection="fake", model="fake-model",
                                               approval_mode=ApprovalMode.ASK)
    await wait_until(lambda: window.tree_model.session(session.id) is not None, what="tree row")
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id)
    await settle(3)
    _grab(window, shots, f"{name}_2_new_session")
    assert not _hint_painted(window), "the hint stays once a session exists"
    combos = [c for c in window.pane.findChildren(QComboBox) if c.isVisible()]
    assert combos, "the status line's combo boxes"
    flat = [c.objectName() or c.currentText() for c in combos if not _chevron_drawn(c, dark)]
    assert flat == [], f"combo boxes without the theme's chevron: {flat}"
    window.pane.composer.input.setPlainText("请建首页" if zh else "Make the landing page")
    window.pane.send()
    await wait_until(lambda: window.pane.attention.card is not None and window.pane.attention.card.isVisible(),
                     timeout=15, what="the approval card")
    await settle(3)
    _grab(window, shots, f"{name}_3_approval")
    card = window.pane.attention.card
    assert card is not None
    assert clipped_placeholders(card) == [], "the approval card's placeholder is cut"
    if zh:
        call = frozenset(["touch index.html", "command: touch index.html", "run_command",
                          "⚠  Omni 想要使用 run_command", "询问原因：touch 不在只读命令列表中"])
        problems += [f"approval card: {p}" for p in english_in(card, call)]
        running = frozenset(["Omni", "fake", "fake-model"])  # the VP's, connection's and model's names
        problems += [f"window while waiting: {p}" for p in english_in(window, call | running)
                     if "approval card" not in p]
    card.buttons["once"].click()
    question = await _question_card(window, timeout=15)  # ready for an answer, not just present
    await settle(3)
    _grab(window, shots, f"{name}_4_question")
    if zh:
        asked = frozenset(["Which colour for the header?", "Blue", "Green"])  # the agent's words
        problems += [f"question card: {p}" for p in english_in(question, asked)]
    question.grab().save(str(shots / f"{name}_4_question_card.png"))
    next(b for b in question.choice_buttons if b.text() == "Blue").click()
    await wait_until(lambda: real_kernel.turns.phase(session.id).value == "idle", timeout=30, what="turn over")
    await window.runner.drain()
    await settle(5)
    _grab(window, shots, f"{name}_5_answered")
    if zh:
        def own_words(text: str) -> str:  # tool names, the command and the file's own lines are not ours
            for word in ("read_file", "run_command", "ask_user", "touch index.html", "README.md", "index.html",
                         "# Site", "Which colour for the header?", "Blue", "Green", "npm run build",
                         "Make the landing page"):
                text = text.replace(word, " ")
            return text
        painted = _painted_texts(window, monkeypatch)
        problems += [f"timeline row: {t!r}" for t in painted
                     if leftovers(own_words(t)) and not t.startswith(("Done:", "header:", "next:", "A small"))]
        problems += [f"status line: {p}" for p in english_in(window.pane.status)]
    window.keyboard.preferences_action.trigger()
    await wait_until(lambda: window.preferences_dialog is not None and window.preferences_dialog.isVisible())
    await settle(3)
    dialog = window.preferences_dialog
    assert dialog is not None
    _grab(dialog, shots, f"{name}_6_preferences")
    dialog_combos = [c for c in dialog.findChildren(QComboBox) if c.isVisible()]
    assert dialog_combos and all(_chevron_drawn(c, dark) for c in dialog_combos)
    if zh:
        languages = frozenset(["English", "跟随系统（English）"])  # a language is named in its own words
        problems += [f"preferences: {p}" for p in english_in(dialog, languages)]
    dialog.reject()
    await window.runner.drain()
    assert problems == [], "English left in the Chinese window:\n" + "\n".join(problems)

