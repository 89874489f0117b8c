"""How one timeline row looks: speaker header, bubbles, markdown, tool rows, markers.

The person's messages are right-aligned tinted bubbles; a VP's replies are
full-width text under a coloured name that appears once per block. Reasoning
is one dim folded line; tool calls are compact one-line rows with their
outcome (red on error); a reply that did not complete carries a visible
orange or red marker and accent bar, so it never passes for a complete one.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from PySide6.QtCore import QCoreApplication, QRect
from PySide6.QtGui import QFont, QFontMetrics, QTextDocument

from foya_desktop.core.messages import (
    ImagePart,
    Message,
    MessageStatus,
    Part,
    ReasoningPart,
    TextPart,
    ToolCallPart,
)
from foya_desktop.ui import theme
from foya_desktop.ui.speakers import SpeakerDirectory
from foya_desktop.ui.timeline import summaries
from foya_desktop.ui.timeline.call_outcome import CallActivity
from foya_desktop.ui.timeline.canvas import Canvas, Segment, copy_error_label
from foya_desktop.ui.timeline.checkpoints import walk_checkpoint
from foya_desktop.ui.timeline.docs import DocumentCache, gap_between, markdown_document, top_room
from foya_desktop.ui.timeline.reply_actions import walk_action
from foya_desktop.ui.timeline.rows import CheckpointRow, MessageRow, Row, StreamRow
from foya_desktop.ui.timeline.thumbnails import THUMB_GAP, THUMB_SIZE, ThumbnailCache, thumbnail_strip
from foya_desktop.ui.timeline.tool_rows import INDENT, MARGIN, PART_GAP, CardSlots, Column, ToolRows

__all__ = ["CardSlots", "RowRenderer"]

BUBBLE_PAD = 10


def reading_gutter(row_width: int) -> int:
    """Room left and right of the reading column in a row ``row_width`` wide (0 when narrow)."""
    return max(0, (row_width - theme.READING_WIDTH) // 2)


class RowRenderer(ToolRows):
    """Measures and paints rows; owns the document LRU shared by all rows."""

    def __init__(self, speakers: SpeakerDirectory | None = None,
                 thumbnails: ThumbnailCache | None = None) -> None:
        self.speakers = speakers or SpeakerDirectory()
        self.thumbnails = thumbnails
        self.cards: CardSlots | None = None
        """Set by the owner of card widgets; their calls get a slot instead of a tool row."""
        self.activity: CallActivity | None = None
        """Set by the window: whether a call without a result still runs or waits for an approval."""
        self.docs = DocumentCache()
        self._bubble_widths: dict[tuple[str, int], int] = {}
        self.refresh_fonts()

    def refresh_fonts(self) -> None:
        """Re-read fonts (after a font or palette change) and drop cached documents."""
        self.body, self.small, self.mono = theme.body_font(), theme.small_font(), theme.mono_font()
        self.bold = QFont(self.small)
        self.bold.setBold(True)
        body = QFontMetrics(self.body)
        self._line, self._char = body.lineSpacing(), max(1, body.averageCharWidth())
        self._small_line = QFontMetrics(self.bold).height() + 2
        self.docs.clear()
        self._bubble_widths.clear()

    def walk(self, canvas: Canvas, row: Row, header: bool) -> None:
        """Measure or paint ``row`` on ``canvas`` (the same path for both).

        On a wide window the row is laid out in a centred column of at most
        ``theme.READING_WIDTH`` (lines edge to edge are hard to read); clickable
        areas and card slots are then shifted back into row coordinates.
        """
        gutter = reading_gutter(canvas.width)
        if not gutter:
            self._walk(canvas, row, header)
            return
        canvas.left += gutter
        canvas.width -= 2 * gutter
        try:
            self._walk(canvas, row, header)
        finally:
            canvas.left -= gutter
            canvas.width += 2 * gutter
            canvas.hits[:] = [(rect.translated(gutter, 0), part) for rect, part in canvas.hits]
            canvas.images[:] = [(rect.translated(gutter, 0), sha) for rect, sha in canvas.images]
            canvas.slots[:] = [(rect.translated(gutter, 0), cid) for rect, cid in canvas.slots]
            canvas.copies[:] = [(rect.translated(gutter, 0), code) for rect, code in canvas.copies]
            if canvas.bubble is not None:
                canvas.bubble = canvas.bubble.translated(gutter, 0)

    def _walk(self, canvas: Canvas, row: Row, header: bool) -> None:
        if isinstance(row, CheckpointRow):
            walk_checkpoint(canvas, row, self.small)
            return
        canvas.space(2)
        if isinstance(row, StreamRow):
            self._stream(canvas, row, header)
        elif row.message.role == "user":
            self._user(canvas, row, header)
        else:
            self._reply(canvas, row, header)
        canvas.space(6)

    def estimate(self, row: MessageRow, width: int, header: bool) -> int:
        """A guess at ``row``'s height from its text alone, without laying anything out.

        Used for rows never near the viewport (``TimelineDelegate``); the view measures a row for
        real before it is painted, so a wrong guess only moves rows the person does not see.
        """
        width -= 2 * reading_gutter(width)
        message = row.message
        height = 2 + 6 + (12 + self._small_line + 2 if header else 0)
        if message.role == "user":
            inner = max(80, int(width * 0.78) - 2 * BUBBLE_PAD)
            images = any(isinstance(p, ImagePart) for p in message.parts)
            return (height + self._lines(message.text, inner) * self._line + 2 * BUBBLE_PAD
                    + (THUMB_SIZE.height() + PART_GAP if images else 0))
        col = Column.content(width)
        if message.role == "tool":
            height += self._small_line + PART_GAP
        for part in message.parts:
            if isinstance(part, TextPart) and part.text.strip():
                height += self._lines(part.text, col.width) * self._line + PART_GAP
            elif isinstance(part, ImagePart):
                height += THUMB_SIZE.height() // 2
            elif isinstance(part, (ReasoningPart, ToolCallPart)):
                height += self._small_line + PART_GAP
        return height

    def _lines(self, text: str, width: int) -> int:
        per_line = max(1, width // self._char)
        return sum(-(-len(line) // per_line) or 1 for line in text.split("\n"))

    # ---- the person's messages -------------------------------------------------------------

    def _user(self, c: Canvas, row: MessageRow, header: bool) -> None:
        message = row.message
        if header:
            c.space(12)
            you = QCoreApplication.translate("RowRenderer", "You")
            caption = " · ".join(s for s in (you, summaries.clock(message.created_at)) if s)
            c.line([Segment(caption, theme.dim_color(), self.small)], MARGIN, c.width - 2 * MARGIN,
                   align_right=True)
            c.space(2)
        doc, inner = self._bubble_document(row, max(80, int(c.width * 0.78) - 2 * BUBBLE_PAD))
        height = round(doc.size().height()) + top_room(doc)
        right = c.width - MARGIN
        width = inner + 2 * BUBBLE_PAD
        bubble = QRect(right - width, c.y, width, height + 2 * BUBBLE_PAD - 4)
        c.rounded_rect(bubble, theme.user_bubble_color(), 10)
        c.bubble = QRect(bubble)
        c.space(BUBBLE_PAD - 2)
        c.document(doc, bubble.left() + BUBBLE_PAD, inner)
        c.space(BUBBLE_PAD - 2)
        images = [p.artifact for p in message.parts if isinstance(p, ImagePart)]
        if images:
            c.space(PART_GAP)
            shown = min(len(images), max(1, (bubble.width() + THUMB_GAP) // (THUMB_SIZE.width() + THUMB_GAP)))
            width = shown * (THUMB_SIZE.width() + THUMB_GAP) - THUMB_GAP
            thumbnail_strip(c, images, right - width, width, self.thumbnails)
        self._status(c, message)

    # ---- a VP's replies --------------------------------------------------------------------

    def _header(self, c: Canvas, speaker: str, when: int) -> None:
        c.space(12)
        color = self.speakers.color(speaker)
        dot = QRect(MARGIN + 1, c.y + 5, 9, 9)
        c.rounded_rect(dot, color, 4.5)
        segments = [Segment(self.speakers.name(speaker), color, self.bold)]
        if when:
            segments.append(Segment("  " + summaries.clock(when), theme.dim_color(), self.small))
        c.line(segments, MARGIN + INDENT, c.width - MARGIN - INDENT - MARGIN)
        c.space(2)

    def _reply(self, c: Canvas, row: MessageRow, header: bool) -> None:
        message = row.message
        if header:
            self._header(c, message.speaker or "", message.created_at)
        col = Column.content(c.width)
        start = c.y
        if message.role == "tool":
            self._orphan_result(c, message, col)
        parts = message.parts
        for index, part in enumerate(parts):
            if isinstance(part, ReasoningPart):
                self._reasoning(c, row, index, col)
            elif isinstance(part, TextPart) and part.text.strip():
                c.document(self._markdown((row.key, index), part.text), col.x, col.width)
                c.space(PART_GAP)
            elif isinstance(part, ImagePart) and not (index and isinstance(parts[index - 1], ImagePart)):
                run = [p.artifact for p in _image_run(parts, index)]  # side by side, where they were
                thumbnail_strip(c, run, col.x, col.width, self.thumbnails)
            elif isinstance(part, ToolCallPart):
                self._tool_call(c, row, index, col)
        self._status(c, message, start)
        walk_action(c, message, self.small, MARGIN + INDENT)

    def _reasoning(self, c: Canvas, row: MessageRow, index: int, col: Column) -> None:
        part = row.message.parts[index]
        assert isinstance(part, ReasoningPart)
        open_ = index in row.expanded
        arrow = "▾ " if open_ else "▸ "
        c.line([Segment(arrow + summaries.reasoning_caption(part), theme.dim_color(), self.small)],
               col.x, col.width, hit=index)
        if open_:
            c.space(2)
            inner = col.indented(12)
            c.document(self._markdown((row.key, index), part.text), inner.x, inner.width, theme.dim_color())
        c.space(PART_GAP)

    def _status(self, c: Canvas, message: Message, start: int | None = None) -> None:
        caption = summaries.status_caption(message)
        if caption is None:
            return
        color = theme.warning_color() if message.status == MessageStatus.INTERRUPTED else theme.error_color()
        mark = "⚠ " if message.status == MessageStatus.INTERRUPTED else "✗ "
        c.space(2)
        # the whole reason, wrapped (a long server error was cut at the right edge), with its copy
        error = summaries.status_error(message)
        label = copy_error_label(error == c.copied)
        x, width = MARGIN + INDENT, c.width - 2 * MARGIN - INDENT
        room = QFontMetrics(self.small).horizontalAdvance(label) + 20
        c.copy_button(label, error, x + width, self.small)
        c.wrapped(mark + caption, color, self.bold, x, width - room)
        if start is not None:
            c.bar(MARGIN + 3, start, c.y, color)

    # ---- replies still streaming -----------------------------------------------------------

    def _stream(self, c: Canvas, row: StreamRow, header: bool) -> None:
        if header:
            self._header(c, row.speaker, 0)
        col = Column.content(c.width)
        x, width = col.x, col.width
        docs = row.body.documents()
        if row.reasoning:
            words = len(row.reasoning.split())
            translate = QCoreApplication.translate
            text = (translate("RowRenderer", "Thinking… {text}").format(
                text=summaries.first_line(row.reasoning[-200:])) if not docs
                else "▸ " + translate("RowRenderer", "Thought · %n word(s)", "", words))
            c.line([Segment(text, theme.dim_color(), self.small, True)], x, width)
            c.space(PART_GAP)
        row.body.set_width(width)
        for i, (doc, known) in enumerate(zip(docs, row.body.heights(), strict=True)):
            if i:  # the margin one document would have between these blocks (the stored reply's)
                c.space(gap_between(docs[i - 1], doc))
            top = c.y
            height = c.document(doc, x, width, height=known)
            if doc is row.body.tail:
                row.tail_top, row.tail_height = top, height
        if row.tool_args:
            c.line([Segment("⚙ " + QCoreApplication.translate(
                "RowRenderer", "preparing a tool call… %n character(s)", "", len(row.tool_args)),
                            theme.dim_color(), self.small)], x, width)
        if not docs and not row.reasoning and not row.tool_args:
            c.line([Segment("● ● ●", theme.dim_color(), self.small)], x, width)

    # ---- documents -------------------------------------------------------------------------

    def _markdown(self, key: tuple[object, ...], text: str) -> QTextDocument:
        return self._cached((*key, hash(text)),
                            lambda: markdown_document(text, self.body, defer_highlight=True))

    def _bubble_document(self, row: MessageRow, max_inner: int) -> tuple[QTextDocument, int]:
        """The bubble hugs short messages: lay out at the maximum, then shrink to the widest line."""
        doc = self._markdown((row.key, "user"), row.message.text or " ")
        inner = self._bubble_widths.get((row.key, max_inner))
        if inner is None:
            doc.setTextWidth(max_inner)
            inner = min(max_inner, int(doc.idealWidth()) + 2)
            self._bubble_widths[(row.key, max_inner)] = inner
            if len(self._bubble_widths) > 5000:
                self._bubble_widths.clear()
        if doc.textWidth() != inner:
            doc.setTextWidth(inner)
        return doc, inner

    def _cached(self, key: Hashable, make: Callable[[], QTextDocument]) -> QTextDocument:
        doc = self.docs.get(key)
        if doc is None:
            doc = make()
            self.docs.put(key, doc)
        return doc


def _image_run(parts: tuple[Part, ...], start: int) -> list[ImagePart]:
    """The consecutive image parts from ``start`` on (drawn as one strip)."""
    run: list[ImagePart] = []
    for part in parts[start:]:
        if not isinstance(part, ImagePart):
            break
        run.append(part)
    return run
