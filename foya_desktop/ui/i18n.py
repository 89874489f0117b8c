"""The window's language: which translation is loaded, and how the person changes it.

Why here and not in each widget: Qt looks translations up when a string is
*made* (``self.tr(...)`` / ``QCoreApplication.translate(...)``), so the
translators must be installed once, in start-up, before the first widget is
built. ``Preferences.language`` decides: ``"system"`` follows
``QLocale.system()`` (any Chinese locale gets Simplified Chinese, everything
else English), ``"en"`` and ``"zh_CN"`` override it.

The compiled catalogues live next to this module in ``translations/``
(``foya_<lang>.qm``, built from the ``.ts`` sources by
``python .ci/translations.py update``; CI checks they are complete and fresh).
Qt's own catalogue (``qtbase_<lang>.qm``, shipped with PySide6) translates the
standard buttons ("OK", "Cancel", "Close") and the stock dialogs.

A language change is stored and applies at the next start (the Preferences
dialog says so): rebuilding every open widget's texts live would need each of
them to handle ``LanguageChange``, for a choice made once.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QDateTime, QLibraryInfo, QLocale, QTranslator

from foya_desktop.store.home import Home
from foya_desktop.store.preferences import Language, PreferencesFile

TRANSLATIONS_DIR = Path(__file__).with_name("translations")
"""Where ``foya_zh_CN.ts`` (source) and ``foya_zh_CN.qm`` (compiled) live."""

SHIPPED: tuple[str, ...] = ("en", "zh_CN")
"""The languages the window ships complete; English is the source text."""

_installed: list[QTranslator] = []
_active = "en"


def resolve(language: Language, system: QLocale | None = None) -> str:
    """The shipped language for a preference: ``"en"`` or ``"zh_CN"``."""
    if language != "system":
        return language
    locale = system if system is not None else QLocale.system()
    return "zh_CN" if locale.language() == QLocale.Language.Chinese else "en"


def install(language: Language, app: QCoreApplication | None = None) -> str:
    """Load the catalogues for ``language`` into ``app`` (replacing earlier ones); returns the language used.

    Also makes the language's ``QLocale`` the default, so dates and numbers
    formatted with ``QLocale()`` follow the window's language.
    """
    global _active
    app = app or QCoreApplication.instance()
    if app is None:  # pragma: no cover - start-up always has an application
        raise RuntimeError("install() needs a QCoreApplication")
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    chosen = resolve(language)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    # NOTE: English is the source text; foya_en.qm holds only its plural forms ("1 file", "2 files")
    catalogues = [(f"foya_{chosen}", str(TRANSLATIONS_DIR))]
    if chosen != "en":
        catalogues.insert(0, (f"qtbase_{chosen}", qt_dir))
    for name, folder in catalogues:
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            _installed.append(translator)
    # NOTE: "en" means the source strings; QLocale("en_US") keeps number/date formats familiar
    # to the English text instead of whatever the system's region says.
    locale = QLocale(QLocale.Language.Chinese, QLocale.Country.China) if chosen == "zh_CN" else (
        QLocale.system() if QLocale.system().language() == QLocale.Language.English
        else QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    QLocale.setDefault(locale)
    _active = chosen
    return chosen


def install_for(home: Home, app: QCoreApplication | None = None) -> str:
    """Start-up: install the language stored in ``home``'s preferences."""
    return install(PreferencesFile(home).load().language, app)


def active() -> str:
    """The language the running window shows (``"en"`` or ``"zh_CN"``)."""
    return _active


def choices() -> list[tuple[Language, str]]:
    """What the Preferences dialog offers: (value, label); language names in their own language."""
    follow = QCoreApplication.translate("Language", "Follow the system ({name})").format(
        name=_native_name(resolve("system")))
    return [("system", follow), ("en", "English"), ("zh_CN", "简体中文")]


def _native_name(language: str) -> str:
    return "简体中文" if language == "zh_CN" else "English"


def apply_language(home: Home, language: Language) -> bool:
    """Store the person's language choice; True when it differs from what is shown.

    The Preferences dialog calls this and, on True, shows :func:`restart_note`.
    Raises ``OSError`` when the preferences cannot be written (the caller says so).
    """
    file = PreferencesFile(home)
    prefs = file.load()
    if prefs.language != language:
        file.save(dataclasses.replace(prefs, language=language))
    return resolve(language) != _active


def restart_note() -> str:
    """The sentence beside the language choice: it applies at once (ui/window_host.py rebuilds)."""
    return QCoreApplication.translate(
        "Language", "The window switches to the new language when you press OK.")


def number(value: int) -> str:
    """A whole number the locale's way (``12,345`` / ``12,345``; grouping follows the window's language)."""
    locale = QLocale()
    if locale.language() == QLocale.Language.C:  # no locale set up (tests, a bare environment)
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return locale.toString(value)


def tokens(value: int | None) -> str:
    """A token count, or "not provided" when the provider reported nothing (never 0 for nothing)."""
    if value is None:
        return QCoreApplication.translate("Figures", "not provided")
    return number(value)


def clock(epoch_ms: int) -> str:
    """A time of day (hours, minutes, seconds) in the window's locale."""
    return QLocale().toString(QDateTime.fromMSecsSinceEpoch(epoch_ms).time(), "HH:mm:ss")


def day_and_time(epoch_ms: int) -> str:
    """A day and time (``Mar 3 14:05``, ``3月3日 14:05``): month names are the window's language's,
    and the pattern is translatable (languages order day and month differently)."""
    pattern = QCoreApplication.translate("Summaries", "MMM d HH:mm", "a day and time (QDateTime format)")
    locale = QLocale()
    if locale.language() == QLocale.Language.C:  # no locale set up (tests, a bare environment)
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return locale.toString(QDateTime.fromMSecsSinceEpoch(epoch_ms), pattern)


def how_counted() -> str:
    """``core.figures.HOW_COUNTED`` in the window's language (English when the core's text changed)."""
    from foya_desktop.core.figures import HOW_COUNTED  # not on the start frame's path (app.py)

    return core_text(HOW_COUNTED)


def core_text(text: str) -> str:
    """A fixed sentence of ``core/`` (marked below) in the window's language; unmarked text as is."""
    return QCoreApplication.translate("Figures", text)


# NOTE: core/ cannot import Qt, so its sentences are marked here for lupdate; they are looked up by
# their English text at run time, and a reworded core sentence simply shows in English.
_CORE_TEXTS = (
    QT_TRANSLATE_NOOP(
        "Figures",
        "Tokens are what the provider reported for this VP's model requests in this turn: input includes "
        "cached tokens, sub-agents are not included, and a provider that reports nothing shows \"not "
        "provided\". Executions are tool calls that really ran (successful or failed); blocked calls were "
        "refused before running and count as failures, not executions. Repeated calls used the same tool "
        "and arguments as an earlier call of this turn; duplicate results repeated an earlier output. "
        "New evidence does not mean the task is done."),
    QT_TRANSLATE_NOOP(
        "Figures",
        "Debug traces may contain project text and tool output. They are for you, the owner "
        "of this session: do not export or share them casually."),
    QT_TRANSLATE_NOOP(
        "Figures",
        "Per-tool detail is not available for this run: it was recorded by an older Foya that "
        "did not store whether each call ran or was blocked. The totals count every call."),
)
