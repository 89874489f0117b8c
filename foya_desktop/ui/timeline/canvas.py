"""A measuring-or-painting cursor that walks down one timeline row.

Measuring a row and painting it must agree to the pixel, or rows overlap.
So both go through the same code: the renderer walks a row's parts on a
``Canvas``; with a painter it draws, without one it only advances ``y``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextDocument,
    QTextLayout,
    QTextOption,
)

from foya_desktop.ui import theme
from foya_desktop.ui.timeline.docs import (
    CODE_HEADER,
    CODE_MARGIN,
    QUOTE_INDENT,
    code_blocks_in,
    ensure_highlighted,
    quote_bars,
    rule_color,
    top_room,
)


def copy_label(done: bool) -> str:
    """What a code block's copy button says (just after a click: that it copied)."""
    return (QCoreApplication.translate("Canvas", "Copied ✓") if done
            else QCoreApplication.translate("Canvas", "Copy"))


def copy_error_label(done: bool) -> str:
    """What an error marker's copy button says (just after a click: that it copied)."""
    return (QCoreApplication.translate("Canvas", "Copied ✓") if done
            else QCoreApplication.translate("Canvas", "Copy error"))


@dataclass(slots=True)
class Segment:
    """A run of text on one line, in one colour and font."""

    text: str
    color: QColor
    font: QFont
    elide: bool = False
    """Whether this segment may be shortened with "…" to fit the line."""


@dataclass(slots=True)
class Canvas:
    """Where a row is measured or drawn: ``painter`` is ``None`` when measuring."""

    painter: QPainter | None
    left: int
    top: int
    width: int
    y: int = 0
    hits: list[tuple[QRect, int]] = field(default_factory=list)
    """Clickable areas in row coordinates, with the part index they toggle."""
    images: list[tuple[QRect, str]] = field(default_factory=list)
    """Thumbnail boxes in row coordinates, with the artifact hash they show (click opens the viewer)."""
    slots: list[tuple[QRect, str]] = field(default_factory=list)
    """Room left for a card widget (an AskUser card) in row coordinates, with its tool call id."""
    visible: QRect | None = None
    """The part of the viewport being painted (absolute); documents outside it are skipped."""
    copies: list[tuple[QRect, str]] = field(default_factory=list)
    """Copy buttons of code blocks in row coordinates, with the exact code each copies."""
    copied: str = ""
    """The code whose copy button was clicked a moment ago (its button says so)."""
    bubble: QRect | None = None
    """Where the person's bubble was drawn, in row coordinates (the hover Copy chip goes beside it)."""
    actions: list[tuple[QRect, str]] = field(default_factory=list)
    """Retry/Continue buttons in row coordinates, with the id of the reply each acts on
    (``reply_actions``)."""

    def space(self, height: int) -> None:
        """Leave vertical room."""
        self.y += height

    def line(self, segments: list[Segment], x: int, width: int, *, hit: int | None = None,
             align_right: bool = False) -> int:
        """One line of segments; elidable segments shrink to fit. Returns the line height."""
        height = max(QFontMetrics(s.font).height() for s in segments) + 2
        if hit is not None:
            self.hits.append((QRect(x, self.y, width, height), hit))
        if self.painter is not None:
            self._draw_segments(segments, x, width, height, align_right)
        self.y += height
        return height

    def wrapped(self, text: str, color: QColor, font: QFont, x: int, width: int) -> int:
        """``text`` wrapped to ``width`` (never cut at the right edge: at word boundaries, and a word
        longer than the line — a URL, a path — anywhere); returns the height it took."""
        layout = QTextLayout(text, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        height = 0.0
        while (line := layout.createLine()).isValid():
            line.setLineWidth(max(1, width))
            line.setPosition(QPointF(0, height))
            height += line.height()
        layout.endLayout()
        if self.painter is not None:
            self.painter.setPen(color)
            layout.draw(self.painter, QPointF(self.left + x, self.top + self.y + 1))
        taken = round(height) + 2
        self.y += taken
        return taken

    def copy_button(self, label: str, text: str, right: int, font: QFont) -> None:
        """A small text button ending at ``right`` on the current line that copies ``text`` (the
        view puts it on the clipboard, as for code blocks' Copy)."""
        metrics = QFontMetrics(font)
        width = metrics.horizontalAdvance(label) + 12
        button = QRect(right - width, self.y, width, metrics.height() + 4)
        if self.painter is not None:
            self.painter.setFont(font)
            self.painter.setPen(theme.dim_color())
            self.painter.drawText(button.translated(self.left, self.top), Qt.AlignmentFlag.AlignCenter, label)
        self.copies.append((button, text))

    def _draw_segments(self, segments: list[Segment], x: int, width: int, height: int,
                       align_right: bool) -> None:
        assert self.painter is not None
        texts = _fit(segments, width)
        total = sum(QFontMetrics(s.font).horizontalAdvance(t) for s, t in zip(segments, texts, strict=True))
        cx = self.left + x + (width - total if align_right else 0)
        for segment, text in zip(segments, texts, strict=True):
            metrics = QFontMetrics(segment.font)
            self.painter.setFont(segment.font)
            self.painter.setPen(segment.color)
            self.painter.drawText(QPointF(cx, self.top + self.y + metrics.ascent() + 1), text)
            cx += metrics.horizontalAdvance(text)

    def document(self, doc: QTextDocument, x: int, width: int, color: QColor | None = None,
                 height: int | None = None) -> int:
        """A laid-out rich text document; returns the height it took (``height``: the document's
        own, already known at ``width``, e.g. a finished block of a streaming reply), which
        includes the ``top_room`` left above a document that starts with a code block."""
        if height is None:
            if doc.textWidth() != width:
                doc.setTextWidth(width)
            height = round(doc.size().height())
        room = top_room(doc)
        self.y += room
        if self.painter is not None and self._shows(self.top + self.y - room, height + room):
            ensure_highlighted(doc)  # colours only: the height stays what was measured
            self.draw_document(doc, self.left + x, self.top + self.y, color)
            self._decorate(doc, x)
        self.y += height
        return height + room

    def _decorate(self, doc: QTextDocument, x: int) -> None:
        """What Qt's text layout cannot draw: quote bars, code headers with a copy button."""
        assert self.painter is not None
        painter, left, top = self.painter, self.left + x, self.top + self.y
        for level, rect in quote_bars(doc):
            for depth in range(level):
                painter.fillRect(QRectF(left + depth * QUOTE_INDENT + 2, top + rect.top(), 3, rect.height()),
                                 rule_color())
        blocks = code_blocks_in(doc)
        if not blocks:
            return
        font = theme.small_font()
        metrics = QFontMetrics(font)
        painter.save()
        painter.setFont(font)
        width = round(doc.textWidth()) - CODE_MARGIN  # the tint ends at the block's right margin
        for block in blocks:
            strip = QRect(0, round(block.top), width, CODE_HEADER)
            painter.fillRect(strip.translated(left, top), theme.code_background())
            painter.setPen(theme.dim_color())
            if block.language:
                painter.drawText(strip.adjusted(8, 0, 0, 0).translated(left, top),
                                 Qt.AlignmentFlag.AlignVCenter, block.language)
            label = copy_label(block.code == self.copied)
            button = QRect(width - metrics.horizontalAdvance(label) - 16, strip.top() + 2,
                           metrics.horizontalAdvance(label) + 12, CODE_HEADER - 4)
            painter.drawText(button.translated(left, top), Qt.AlignmentFlag.AlignCenter, label)
            self.copies.append((button.translated(x, self.y), block.code))
        painter.restore()

    def _shows(self, top: int, height: int) -> bool:
        """Long replies extend far past the viewport; drawing their hidden parts is waste."""
        return self.visible is None or (top < self.visible.bottom() and top + height > self.visible.top())

    def draw_document(self, doc: QTextDocument, x: float, y: float, color: QColor | None) -> None:
        """Draw ``doc`` at absolute ``x, y`` in ``color`` (body text colour by default)."""
        assert self.painter is not None
        painter = self.painter
        painter.save()
        painter.translate(x, y)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        palette = ctx.palette
        palette.setColor(QPalette.ColorRole.Text, color or theme.text_color())
        palette.setColor(QPalette.ColorRole.Link, theme.speaker_color("omni"))
        ctx.palette = palette
        clip = QRectF(0, 0, doc.textWidth(), doc.size().height())
        if self.visible is not None:  # lines outside the repainted strip are skipped by the layout
            clip = clip.intersected(QRectF(self.visible).translated(-x, -y))
        ctx.clip = clip
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def rounded_rect(self, rect: QRect, color: QColor, radius: float = 8.0,
                     border: QColor | None = None) -> None:
        """A filled rounded rectangle in row coordinates (no-op when measuring)."""
        if self.painter is None:
            return
        self.painter.save()
        self.painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.painter.setPen(border if border is not None else Qt.PenStyle.NoPen)
        self.painter.setBrush(color)
        self.painter.drawRoundedRect(rect.translated(self.left, self.top), radius, radius)
        self.painter.restore()

    def bar(self, x: int, y0: int, y1: int, color: QColor) -> None:
        """A 3 px vertical accent bar (interrupted/error messages)."""
        if self.painter is not None:
            self.painter.fillRect(QRect(self.left + x, self.top + y0, 3, y1 - y0), color)


def _fit(segments: list[Segment], width: int) -> list[str]:
    """Shorten elidable segments so the line fits, sharing the spare width fairly.

    Water-filling: segments narrower than an equal share keep their text, the
    rest split what is left, so a long command cannot push the result off-screen.
    """
    widths = [QFontMetrics(s.font).horizontalAdvance(s.text) for s in segments]
    elidable = [i for i, s in enumerate(segments) if s.elide]
    spare = width - sum(w for i, w in enumerate(widths) if i not in elidable)
    budget = dict.fromkeys(elidable, 0)
    pending = sorted(elidable, key=lambda i: widths[i])
    while pending:
        share = max(0, spare) // len(pending)
        i = pending.pop(0)
        budget[i] = min(widths[i], share)
        spare -= budget[i]
    return [QFontMetrics(s.font).elidedText(s.text, Qt.TextElideMode.ElideRight, budget[i])
            if i in budget and budget[i] < widths[i] else s.text for i, s in enumerate(segments)]
