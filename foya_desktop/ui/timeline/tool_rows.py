"""Tool calls inside a reply: one compact line, unfolded details, thumbnails, or a card slot.

A person reads a call and its outcome as one thing ("read_file src/app.py →
120 lines"), so the result is drawn on the call's line; images a tool
returned sit right under it, at the position of the tool that produced them
(also when they arrive after later text, and after reloading history). Calls
that have an interactive card (AskUser) get room for the card widget instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtGui import QFont, QTextDocument

from foya_desktop.core.messages import Message, ToolCallPart
from foya_desktop.ui import theme
from foya_desktop.ui.speakers import SpeakerDirectory
from foya_desktop.ui.timeline import summaries, tool_words
from foya_desktop.ui.timeline.call_outcome import CallActivity, outcome
from foya_desktop.ui.timeline.canvas import Canvas, Segment
from foya_desktop.ui.timeline.docs import plain_document
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.thumbnails import ThumbnailCache, thumbnail_strip

ROUTE_FORWARD = "route_forward"
"""Drawn as a hand-off line rather than a generic tool call (the tool: ``engine.route_forward``)."""
MARGIN = 20
INDENT = 18
PART_GAP = 6
MAX_DETAIL_CHARS = 4000


@dataclass(frozen=True, slots=True)
class Column:
    """The horizontal band a reply's content occupies."""

    x: int
    width: int

    @classmethod
    def content(cls, row_width: int) -> Column:
        """Indented under the speaker's name, with margins on both sides."""
        return cls(MARGIN + INDENT, max(60, row_width - MARGIN - INDENT - MARGIN))

    def indented(self, by: int) -> Column:
        """A nested band (unfolded reasoning, tool details)."""
        return Column(self.x + by, self.width - by)


class CardSlots(Protocol):
    """Who owns interactive cards drawn inside rows (AskUser questions, see ui/cards)."""

    def card_height(self, row: MessageRow, call: ToolCallPart, width: int) -> int | None:
        """Room a card for ``call`` needs at ``width``; ``None`` draws the call as a plain tool row."""
        ...


class ToolRows:
    """The tool-call half of ``RowRenderer`` (fonts, caches and card owner come from it)."""

    small: QFont
    bold: QFont
    mono: QFont
    speakers: SpeakerDirectory
    thumbnails: ThumbnailCache | None
    cards: CardSlots | None
    activity: CallActivity | None

    def _cached(self, key: Hashable, make: Callable[[], QTextDocument]) -> QTextDocument:
        """A document from the renderer's LRU (implemented by ``RowRenderer``)."""
        raise NotImplementedError

    def _tool_call(self, c: Canvas, row: MessageRow, index: int, col: Column) -> None:
        call = row.message.parts[index]
        assert isinstance(call, ToolCallPart)
        card = self.cards.card_height(row, call, col.width) if self.cards is not None else None
        if card is not None:
            c.slots.append((QRect(col.x, c.y, col.width, card), call.call_id))
            c.space(card + PART_GAP)
            return
        result = row.result_for(call.call_id)
        if call.name == ROUTE_FORWARD:
            segments = self._route_segments(call)
        else:
            segments = [Segment(theme.tool_icon(call.name) + " ", theme.text_color(), self.small),
                        Segment(call.name + "  ", theme.text_color(), self.bold),
                        Segment(summaries.summarize_args(call.arguments), theme.dim_color(), self.mono, True)]
        said = outcome(row.message, call, row.results.get(call.call_id), self.activity, self.small)
        if said is not None:  # no result (yet, or in the window), or one that says the call did not run
            segments.append(said)
        elif result is None or (call.name == ROUTE_FORWARD and not result.is_error):
            pass  # the hand-off line says it all; the target's reply follows in its own block
        else:
            color = theme.error_color() if result.is_error else theme.dim_color()
            mark = "  ✗ " if result.is_error else "  → "
            segments.append(Segment(mark + summaries.summarize_result(result), color, self.small, True))
        c.line(segments, col.x, col.width, hit=index)
        if index in row.expanded:
            self._tool_details(c, row, call, col.indented(12))
        c.space(3)
        if result is not None and result.images:  # at the tool that produced them, even when late
            c.space(2)
            thumbnail_strip(c, [i.artifact for i in result.images], col.x, col.width, self.thumbnails)

    def _route_segments(self, call: ToolCallPart) -> list[Segment]:
        """A hand-off reads as "→ Martin: the message", in the target's colour."""
        target = self.speakers.find(str(call.arguments.get("vp", "")))
        message = " ".join(str(call.arguments.get("message", "")).split())
        return [Segment("→ " + self.speakers.name(target) + ": ", self.speakers.color(target), self.bold),
                Segment(message, theme.text_color(), self.small, True)]

    def _tool_details(self, c: Canvas, row: MessageRow, call: ToolCallPart, col: Column) -> None:
        result_msg = row.results.get(call.call_id)
        result = row.result_for(call.call_id)
        key = (row.key, call.call_id, result_msg.id if result_msg else "")

        def body() -> str:  # built only when the cached document is missing (painting repeats)
            text = json.dumps(call.arguments, indent=2, ensure_ascii=False)
            if result is None:
                return text
            return text + "\n\n" + tool_words.translated(_clip(result.content), result.name, result.is_error)
        doc = self._cached(key, lambda: plain_document(body(), self.mono))
        inner = col.indented(8)
        doc.setTextWidth(inner.width - 8)
        c.rounded_rect(QRect(col.x, c.y + 2, col.width, round(doc.size().height()) + 12),
                       theme.code_background(), 6)
        c.space(8)
        c.document(doc, inner.x, inner.width - 8, theme.error_color() if result and result.is_error else None)
        c.space(6)

    def _orphan_result(self, c: Canvas, message: Message, col: Column) -> None:
        result = message.tool_result
        if result is None:
            return
        color = theme.error_color() if result.is_error else theme.dim_color()
        c.line([Segment("↳ " + theme.tool_icon(result.name) + " ", theme.text_color(), self.small),
                Segment(result.name + "  ", theme.text_color(), self.bold),
                Segment(summaries.summarize_result(result), color, self.small, True)], col.x, col.width)
        if result.images:
            c.space(3)
            thumbnail_strip(c, [i.artifact for i in result.images], col.x, col.width, self.thumbnails)


def _clip(text: str) -> str:
    """Tool output is shown up to ``MAX_DETAIL_CHARS``; the rest is counted, not drawn."""
    if len(text) <= MAX_DETAIL_CHARS:
        return text
    more = QCoreApplication.translate(
        "ToolRows", "… (%n more character(s))", "", len(text) - MAX_DETAIL_CHARS
    )
    return text[:MAX_DETAIL_CHARS] + "\n" + more
