"""The window's language: catalogue loading, the preference, engine errors by code, the CI check.

Issue 12 ("简体中文 and English"): strings go through Qt's translation system,
zh_CN ships complete, the language follows the system with an override,
engine errors are translated through their codes.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLocale, QTime
from PySide6.QtWidgets import QApplication, QLabel

from foya_desktop.core.errors import AuthError, DiskFull, InvalidOperation
from foya_desktop.core.events import TurnFinished
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import Preferences, PreferencesFile
from foya_desktop.ui import i18n
from foya_desktop.ui.aio import describe_error
from foya_desktop.ui.error_text import error_code, error_text, turn_error_text
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.ui.helpers import open_session, wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def zh(qapp: QApplication) -> Iterator[None]:
    """The window in Simplified Chinese for one test; English again afterwards."""
    i18n.install("zh_CN", qapp)
    yield
    i18n.install("en", qapp)


class _Coded(InvalidOperation):
    """An error with a code and params as ``core/errors.py`` gives them (issue 7's restructuring)."""

    def __init__(self, text: str, code: str, **params: object) -> None:
        super().__init__(text)
        self.code = code
        self.params = params


def _load_ci_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_translations", ROOT / ".ci" / "translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_system_locale_decides_unless_overridden() -> None:
    assert i18n.resolve("system", QLocale("zh_CN")) == "zh_CN"
    assert i18n.resolve("system", QLocale("zh_TW")) == "zh_CN"  # the Chinese we ship beats English
    assert i18n.resolve("system", QLocale("de_DE")) == "en"
    assert i18n.resolve("en", QLocale("zh_CN")) == "en"
    assert i18n.resolve("zh_CN", QLocale("en_US")) == "zh_CN"


def test_zh_catalogue_translates_and_sets_the_locale(zh: None) -> None:
    assert i18n.active() == "zh_CN"
    assert QCoreApplication.translate("MainWindow", "New session") == "新建会话"
    # Qt's own catalogue comes along for the standard buttons
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
    assert QLocale().language() == QLocale.Language.Chinese
    assert "12月" in QLocale().toString(QDate(2026, 12, 1), QLocale.FormatType.LongFormat)


def test_english_is_the_source_text(qapp: QApplication) -> None:
    i18n.install("zh_CN", qapp)
    i18n.install("en", qapp)  # replaces, does not stack
    assert QCoreApplication.translate("MainWindow", "New session") == "New session"
    assert QLocale().language() == QLocale.Language.English


def test_language_choice_is_stored_and_needs_a_restart(tmp_path: Path, qapp: QApplication) -> None:
    home = Home(tmp_path)
    i18n.install("en", qapp)
    assert i18n.apply_language(home, "zh_CN") is True
    assert PreferencesFile(home).load() == Preferences(language="zh_CN")
    assert i18n.apply_language(home, "en") is False  # what is shown already
    assert PreferencesFile(home).load().language == "en"
    values = [value for value, _label in i18n.choices()]
    assert values == ["system", "en", "zh_CN"]


def test_start_up_installs_the_stored_language(tmp_path: Path, qapp: QApplication) -> None:
    home = Home(tmp_path)
    PreferencesFile(home).save(Preferences(language="zh_CN"))
    try:
        assert i18n.install_for(home, qapp) == "zh_CN"
        assert QCoreApplication.translate("WelcomePage", "Welcome to Foya") == "欢迎使用 Foya"
    finally:
        i18n.install("en", qapp)


def test_engine_errors_by_code(zh: None) -> None:
    busy = _Coded("The session is busy; the message waits in the queue.", "session_busy", operation="turn")
    assert error_text(busy) == "会话正忙，消息已在队列中等待。"
    # a kind code: the Chinese summary, the engine's English detail kept for the specifics
    auth = AuthError("OpenAI said 401 invalid_api_key", status=401)
    assert error_code(auth) == "auth_error"
    assert error_text(auth) == "模型服务拒绝了 API 密钥（缺失、错误或无访问权限）。（OpenAI said 401 invalid_api_key）"
    assert error_text(DiskFull("No space left on /x")).startswith("磁盘已满")
    # an unknown code falls back to the English sentence, never to nothing
    odd = _Coded("Something new went wrong.", "brand_new_code")
    assert error_text(odd) == "Something new went wrong."
    assert describe_error(DiskFull("x"), "保存会话").startswith("保存会话失败：磁盘已满")


def test_english_window_shows_the_engine_sentence(qapp: QApplication) -> None:
    i18n.install("en", qapp)
    assert error_text(AuthError("OpenAI said 401", status=401)) == "OpenAI said 401"
    assert describe_error(ValueError("bad"), "Saving") == "Saving failed: ValueError: bad"


def test_lrelease_report_is_parsed() -> None:
    ci = _load_ci_script()
    report = ("Updating 'x.qm'...\n    Generated 10 translation(s) (8 finished and 2 unfinished)\n"
              "    Ignored 3 untranslated source text(s)\n")
    assert ci.parse_report(report) == (8, 2, 3)
    assert ci.parse_report("    Generated 5 translation(s) (5 finished and 0 unfinished)\n") == (5, 0, 0)
    with pytest.raises(ValueError):
        ci.parse_report("lrelease: command not found")


def test_shipped_catalogue_is_complete_and_fresh() -> None:
    """What CI runs: lupdate finds no string without a translation, lrelease 0 unfinished, .qm fresh."""
    result = subprocess.run([sys.executable, str(ROOT / ".ci" / "translations.py"), "check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 unfinished, 0 untranslated" in result.stdout


def _hidden_tr_calls(source: str) -> list[int]:
    """Lines where tr()/translate() of a literal sits inside an f-string's braces (lupdate does not
    look there; a variable is fine: its text is marked where it is defined, QT_TR_NOOP)."""
    import ast

    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FormattedValue):
            for inner in ast.walk(node.value):
                if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute | ast.Name)
                        and (inner.func.attr if isinstance(inner.func, ast.Attribute) else inner.func.id)
                        in ("tr", "translate")
                        and any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in inner.args)):
                    found.append(inner.lineno)  # a literal lupdate should have extracted
    return found


def test_no_translated_string_hides_inside_an_f_string() -> None:
    """Issue 12 "every user-visible string goes through Qt's translation system": ``f"{self.tr('x')}"``
    translates nothing — lupdate never sees 'x', so the catalogue has no entry and CI's check passes
    while the window shows English ("Run details" in the VP panel did)."""
    assert _hidden_tr_calls("x = f\"<a>{self.tr('Run details')}</a>\"") == [1]
    assert _hidden_tr_calls("label = self.tr('Run details')\nx = f'<a>{label}</a>'") == []
    sources = [*sorted((ROOT / "foya_desktop" / "ui").rglob("*.py")), ROOT / "foya_desktop" / "app.py"]
    hidden = [f"{path.relative_to(ROOT)}:{line}" for path in sources
              for line in _hidden_tr_calls(path.read_text(encoding="utf-8"))]
    assert hidden == [], "tr() inside an f-string (lupdate cannot find it): " + ", ".join(hidden)


def test_plurals_follow_the_count(qapp: QApplication) -> None:
    """English plural forms come from foya_en.qm; Chinese has one form with the number."""
    source = ("{listed} is not on this session's roster, so nobody by that name gets this message (the text "
              "is sent as written). On the roster: {roster}.")
    i18n.install("en", qapp)
    assert " is not on " in QCoreApplication.translate("Composer", source, "", 1)
    assert " are not on " in QCoreApplication.translate("Composer", source, "", 2)
    assert QCoreApplication.translate("VPStatusBlock", "%n more tool kind(s), counted in the totals above",
                                      "", 1).startswith("1 more tool kind,")
    i18n.install("zh_CN", qapp)
    try:
        assert QCoreApplication.translate("QueueWidget", "Queued (%n)", "", 3) == "队列（3）"
    finally:
        i18n.install("en", qapp)


def test_event_codes_are_translated(zh: None) -> None:
    """VP status errors and notices carry codes (core/error_codes.py); the window says them in Chinese."""
    from foya_desktop.core.error_codes import (
        APPROVAL_REASONS,
        COMMAND_REASONS,
        ERROR_CODES,
        NOTICE_CODES,
        TURN_FAILED,
    )
    from foya_desktop.ui.error_text import approval_reason_text, coded_text, notice_text

    assert coded_text("step_limit_reached", {"vp": "Omni", "max_steps": 40},
                      "Omni reached its limit of 40 steps.") == "Omni 已达到 40 步的上限。"
    assert coded_text("brand_new", {}, "English stays.") == "English stays."
    retry = notice_text("provider_retry", {"error_code": "rate_limited", "status": 429, "delay": 3, "attempt": 2},
                        "Too many requests. Retrying in 3 s (attempt 2).")
    assert retry == "模型服务正在限制请求频率，请稍后重试。 将在 3 秒后重试（第 2 次）。"
    busy = {"pid": 4242, "kind": "cli", "what": "being rewound"}
    assert coded_text("session_busy_elsewhere", busy, "English") == (
        "此会话正在回退（在另一个 foya 进程中，pid 4242）。请等它在那里完成，或在那里停止它，然后再试。")
    assert "在 Foya 窗口中，pid 7" in notice_text("queue_paused_elsewhere", {**busy, "pid": 7, "kind": "window"}, "E")
    untrusted = notice_text("mcp_untrusted", {"servers": ["git", "web"], "project": "/p"}, "English")
    assert "git, web" in untrusted and "foya projects trust /p" in untrusted and "尚未信任" in untrusted
    # every code the engine lists has a Chinese sentence here (or is a broad class shown as the engine wrote it)
    broad = {"foya_error", "not_found", "invalid_operation", "bad_input", "tool_error"}
    for code, spec in ERROR_CODES.items():
        params = dict.fromkeys(spec.params, "x")
        assert code in broad or coded_text(code, params, "ENGLISH") != "ENGLISH", code
    for code, spec in NOTICE_CODES.items():
        assert notice_text(code, dict.fromkeys(spec.params, "x"), "ENGLISH") != "ENGLISH", code
    # approval reasons and the command policy's standard reason parts: each has a Chinese sentence
    for code, spec in APPROVAL_REASONS.items():
        given: dict[str, object] = dict.fromkeys(spec.params, "x")
        given["parts"] = ({"code": "runs_eval", "params": {}, "text": "eval runs a computed command"},)
        assert approval_reason_text(code, given, "ENGLISH") not in ("ENGLISH", ""), code
    for code, spec in COMMAND_REASONS.items():
        part = {"code": code, "params": dict.fromkeys(spec.params, "x"), "text": "ENGLISH"}
        said = approval_reason_text("command_policy", {"parts": (part,)}, "ENGLISH")
        assert "ENGLISH" not in said and re.search(r"[\u4e00-\u9fff]", said), code
    assert TURN_FAILED.code == "turn_failed"


async def test_failed_turn_is_said_in_chinese(zh: None, real_window: MainWindow, real_kernel: Kernel,
                                              fake_provider: FakeProviderServer) -> None:
    """A failed turn carries ``turn_failed`` + each VP's code; the zh_CN window says it in Chinese.

    The English sentence stays on the event (the CLI prints it) and in the English window.
    """
    fake_provider.script(Reply(fault=Fault.status(401)))
    session_id = await open_session(real_window, real_kernel, title="Fails")
    finished: list[TurnFinished] = []
    real_kernel.bus.subscribe(lambda e: finished.append(e) if isinstance(e, TurnFinished) else None)
    await real_kernel.turns.send(session_id, "hi")
    await wait_until(lambda: bool(finished), what="turn finished")
    (done,) = finished
    assert done.status == "error" and done.error_code == "turn_failed"
    failures = done.error_params["failures"]
    assert isinstance(failures, tuple) and len(failures) == 1
    failure = failures[0]
    assert failure["code"] == "auth_error" and failure["vp"] in done.error
    label = real_window.pane.status.vp_label
    await wait_until(lambda: "API 密钥" in label.text(), what="Chinese turn error in the status line")
    assert "refused" not in label.text().split("(")[0]
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    i18n.install("en", app)
    assert turn_error_text(done.error_code, done.error_params, done.error) == done.error


async def test_approval_card_reason_is_said_in_chinese(zh: None, real_kernel: Kernel, tmp_path: Path,
                                                       fake_provider: FakeProviderServer) -> None:
    """The policy's reasons carry codes (APPROVAL_REASONS, COMMAND_REASONS); the zh_CN card says them.

    A standard part of the command policy's reason is Chinese; a free-form one (the parsed
    command's own detail) stays English; the decision itself is unchanged (still ``ask``).
    """
    from foya_desktop.core.events import ApprovalRequested
    from foya_desktop.core.model import ApprovalMode
    from foya_desktop.ui.cards.approval_card import ApprovalCard
    from foya_desktop.ui.error_text import approval_reason_text
    from tests.fakeprovider import ToolCallSpec

    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("run_command", {"command": "echo hi > out.txt"})]),
        Reply(tool_calls=[ToolCallSpec("run_command", {"command": "curl https://example.com"})]),
        Reply(text="done"))
    real_kernel.asks.set_interactive(True)
    (tmp_path / "proj").mkdir()
    session = await real_kernel.sessions.create_session(workdir=str(tmp_path / "proj"), approval_mode=ApprovalMode.ASK,
                                               connection="fake", model="fake-model")
    asked: list[ApprovalRequested] = []
    real_kernel.bus.subscribe(lambda e: asked.append(e) if isinstance(e, ApprovalRequested) else None)
    await real_kernel.turns.send(session.id, "go")
    await wait_until(lambda: len(asked) == 1, what="first approval")
    redirect = asked[0]
    assert redirect.reason_code == "command_policy", redirect
    assert "by redirection" in redirect.reason  # the English sentence, for the CLI and the English window
    card = ApprovalCard(redirect, "Omni", waiting=0)
    texts = " ".join(w.text() for w in card.findChildren(QLabel))
    assert "通过重定向写入 'out.txt'" in texts or "通过重定向写入 out.txt" in texts, texts
    assert "by redirection" not in texts
    real_kernel.asks.answer_approval(redirect.request_id, "once")
    await wait_until(lambda: len(asked) == 2, what="second approval")
    network = asked[1]
    assert network.reason_code == "command_uses_network"
    assert approval_reason_text(network.reason_code, network.reason_params, network.reason) == "命令会使用网络"
    free = {"parts": ({"code": "", "params": {}, "text": "make runs a build"},
                      {"code": "runs_shell", "params": {"name": "bash"}, "text": "bash runs a shell"})}
    assert approval_reason_text("command_policy", free, "x") == "make runs a build；bash 会运行一个 shell"
    real_kernel.asks.answer_approval(network.request_id, "deny", "no network")
    card.deleteLater()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    i18n.install("en", app)
    assert approval_reason_text(redirect.reason_code, redirect.reason_params, redirect.reason) == redirect.reason


def test_message_times_of_other_days_use_the_windows_language(qapp: QApplication) -> None:
    """Issue 12 "dates … follow the locale": the timeline's "Mar 3 14:05" is "3月3日 14:05" in
    Chinese (it was the C library's English month name in both)."""
    from foya_desktop.ui.timeline.summaries import clock

    march_3 = int(QDateTime(QDate(2026, 3, 3), QTime(14, 5)).toMSecsSinceEpoch())
    later = march_3 / 1000 + 90 * 86400
    assert clock(march_3, now=later) == "Mar 3 14:05"
    i18n.install("zh_CN", qapp)
    try:
        assert clock(march_3, now=later) == "3月3日 14:05"
        assert clock(march_3, now=march_3 / 1000 + 60) == "14:05"  # today: the time alone
    finally:
        i18n.install("en", qapp)
