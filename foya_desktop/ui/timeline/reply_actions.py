"""*Retry* under a failed reply, *Continue* under one cut off at the length limit.

docs/index.md "Honest history": a failed turn leaves a row saying why and a cut reply is never shown as
complete; the button under it is the way on. The engine decides which reply offers what
(``engine.turn.failures.reply_action``) and what a click does (``kernel.turns.act_on_reply``: the
turn's message again, or the VP asked to continue; a new turn either way, nothing rewritten).
The renderer paints the button (:func:`walk_action`); the delegate reports a click on it and
``ui.ops.reply_actions`` runs it.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics

from foya_desktop.core.messages import Message
from foya_desktop.engine.turn.failures import ReplyAction, reply_action
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.canvas import Canvas

LABELS: dict[ReplyAction, object] = {
    "retry": QT_TRANSLATE_NOOP("ReplyActions", "↻ Retry"),
    "continue": QT_TRANSLATE_NOOP("ReplyActions", "→ Continue"),
}


def action_label(action: ReplyAction) -> str:
    """The button's text in the window's language."""
    return QCoreApplication.translate("ReplyActions", str(LABELS[action]))


def walk_action(c: Canvas, message: Message, font: QFont, x: int) -> None:
    """The reply's button on a line of its own at ``x`` (nothing for a reply that offers none)."""
    action = reply_action(message)
    if action is None:
        return
    label = action_label(action)
    metrics = QFontMetrics(font)
    button = QRect(x, c.y + 2, metrics.horizontalAdvance(label) + 20, metrics.height() + 8)
    c.rounded_rect(button, QColor(theme.colors(theme.is_dark())["base"]), 6, border=theme.dim_color())
    if c.painter is not None:
        c.painter.setFont(font)
        c.painter.setPen(theme.error_color() if action == "retry" else theme.warning_color())
        c.painter.drawText(button.translated(c.left, c.top), Qt.AlignmentFlag.AlignCenter, label)
    c.actions.append((button, message.id))
    c.y += button.height() + 4
