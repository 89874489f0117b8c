"""One-line summaries of tool calls, results and messages.

A tool row must say what happened at a glance — "read_file src/app.py →
120 lines" — without the person expanding anything. These are pure
functions so they are trivially testable and shared by the timeline and
the status line.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any

from PySide6.QtCore import QCoreApplication

from foya_desktop.core.messages import Message, MessageStatus, ReasoningPart, ToolResultPart
from foya_desktop.ui import i18n
from foya_desktop.ui.error_text import interrupted_reason_text
from foya_desktop.ui.timeline import tool_words

_ARG_KEYS = ("path", "file_path", "file", "command", "cmd", "pattern", "query", "url", "target",
             "vp", "to", "question", "name", "glob")
MAX_SUMMARY = 90


def first_line(text: str, limit: int = MAX_SUMMARY) -> str:
    """The first non-empty line, shortened to ``limit`` characters."""
    for line in text.splitlines():
        stripped = " ".join(line.split())  # tabs (line-numbered output) and runs of spaces
        if stripped:
            return stripped if len(stripped) <= limit else stripped[: limit - 1] + "…"
    return ""


def summarize_args(arguments: dict[str, Any]) -> str:
    """The argument a person recognises a call by (a path, a command), else compact JSON."""
    for key in _ARG_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return first_line(value)
    if not arguments:
        return ""
    return first_line(json.dumps(arguments, ensure_ascii=False, separators=(", ", ": ")))


def summarize_result(result: ToolResultPart) -> str:
    """What came back: the first line and how many more, then the tool's notes (exit code, truncation).

    The lines our tools write around the output are said in the window's language
    (``tool_words``); the output itself stays as the program wrote it.
    """
    return _summary(result, i18n.active())


@functools.lru_cache(maxsize=2048)
def _summary(result: ToolResultPart, _language: str) -> str:
    """:func:`summarize_result`, once per result and language.

    NOTE: every line of the result is matched against ``tool_words``' sentences, and tool rows
    are painted and measured again and again on the GUI thread: the answer is kept (results are
    frozen; the language is part of the key, so a live language switch says it anew).
    """
    translate = QCoreApplication.translate
    reading = tool_words.read(result.name, result.content, result.is_error)
    if reading.empty:
        failed, nothing = translate("Summaries", "failed"), translate("Summaries", "no output")
        summary = failed if result.is_error else nothing
    else:
        summary = first_line(reading.lines[0], 70)
        if not result.is_error and len(reading.lines) > 1:
            count = len(reading.lines)
            summary = translate("Summaries", "%n lines · {summary}", "", count).format(summary=summary)
    parts = [summary, *reading.notes]
    if result.images:
        parts.append(translate("Summaries", "%n image(s)", "", len(result.images)))
    return " · ".join(parts)


def reasoning_caption(part: ReasoningPart) -> str:
    """The folded line of a reasoning part."""
    words = len(part.text.split())
    return QCoreApplication.translate("RowRenderer", "Thought · %n word(s)", "", words)


def status_caption(message: Message) -> str | None:
    """A visible marker for messages that did not complete; ``None`` when complete."""
    if message.status == MessageStatus.INTERRUPTED:
        reason = interrupted_reason_text(str(message.meta.get("interrupted_reason") or "").strip())
        return QCoreApplication.translate("Summaries", "Interrupted — this reply was cut off") + (
            f" ({reason})" if reason else "")
    if message.status == MessageStatus.ERROR:
        error = str(message.meta.get("error") or "").strip()  # whole: the marker wraps it
        return QCoreApplication.translate("Summaries", "Error — ") + (
            error or QCoreApplication.translate("Summaries", "this reply failed"))
    return None


def status_error(message: Message) -> str:
    """What the marker's *Copy error* copies: the reason or error itself, whole (else the marker)."""
    if message.status == MessageStatus.INTERRUPTED:
        reason = str(message.meta.get("interrupted_reason") or "").strip()
        if reason:
            return interrupted_reason_text(reason)
    elif message.status == MessageStatus.ERROR:
        error = str(message.meta.get("error") or "").strip()
        if error:
            return error
    return status_caption(message) or ""


def clock(ms: int, now: float | None = None) -> str:
    """``14:05`` today, ``Mar 3 14:05`` (``3月3日 14:05``) on other days; empty for unknown times.

    The month is the window's language's (``i18n.day_and_time``), not the C library's.
    """
    if ms <= 0:
        return ""
    moment = time.localtime(ms / 1000)
    today = time.localtime(now if now is not None else time.time())
    if moment.tm_yday == today.tm_yday and moment.tm_year == today.tm_year:
        return time.strftime("%H:%M", moment)
    return i18n.day_and_time(ms)
