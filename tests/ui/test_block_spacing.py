"""How the blocks of a reply are spaced: paragraphs stand apart, list items stay together, a
heading has room above it, a code block's header never covers what is above it, and a streamed
reply's blocks sit exactly where the stored reply's will (nothing moves when it is stored)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPainter, QTextDocument
from PySide6.QtWidgets import QApplication

from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import Message, ReasoningPart, TextPart
from foya_desktop.ui import theme
from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.docs import (
    BLOCK_GAP,
    CODE_HEADER,
    HEADING_GAP,
    LIST_ITEM_GAP,
    markdown_document,
)
from foya_desktop.ui.timeline.incremental import StreamingDocument
from foya_desktop.ui.timeline.render import RowRenderer
from foya_desktop.ui.timeline.rows import MessageRow, StreamRow
from foya_desktop.ui.timeline.tool_rows import PART_GAP

WIDTH = 640


def _gaps(markdown: str) -> dict[str, float]:
    """Space above each non-empty block of ``markdown``'s document, by the block's text."""
    doc = markdown_document(markdown, theme.body_font())
    doc.setTextWidth(WIDTH)
    layout = doc.documentLayout()
    gaps: dict[str, float] = {}
    previous = None
    block = doc.begin()
    while block.isValid():
        rect = layout.blockBoundingRect(block)
        if block.text() and previous is not None:
            gaps[block.text()] = rect.top() - previous
        previous = rect.bottom()
        block = block.next()
    return gaps


def test_paragraphs_stand_apart_and_the_items_of_a_list_stay_together(qapp: QApplication) -> None:
    gaps = _gaps("First paragraph.\n\nSecond paragraph.\n\n- one\n- two\n- three\n\nAfter the list.\n\n"
                 "## Next step\n\nIts text.\n\n```python\nx = 1\ny = 2\n```\n\nAfter the code.")
    assert gaps["Second paragraph."] == BLOCK_GAP
    assert gaps["one"] == BLOCK_GAP  # a list is a block of its own
    assert gaps["two"] == gaps["three"] == LIST_ITEM_GAP < BLOCK_GAP
    assert gaps["After the list."] == BLOCK_GAP
    assert gaps["Next step"] == HEADING_GAP > BLOCK_GAP
    assert gaps["Its text."] == HEADING_GAP // 4
    assert gaps["x = 1"] == BLOCK_GAP + CODE_HEADER  # and room for the language and the copy button
    assert gaps["y = 2"] == 0  # code lines stay together
    assert gaps["After the code."] == BLOCK_GAP


def test_table_cells_get_no_paragraph_gaps(qapp: QApplication) -> None:
    doc = markdown_document("Before.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter.", theme.body_font())
    block = doc.begin()
    margins = {}
    while block.isValid():
        margins[block.text()] = (block.blockFormat().topMargin(), block.blockFormat().bottomMargin())
        block = block.next()
    assert margins["a"] == margins["b"] == margins["1"] == margins["2"] == (0, 0)
    assert margins["Before."] == (0, BLOCK_GAP)


def _painted(renderer: RowRenderer, row: MessageRow | StreamRow) -> tuple[Canvas, QImage]:
    image = QImage(WIDTH, 1200, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    canvas = Canvas(painter, 0, 0, WIDTH)
    renderer.walk(canvas, row, True)
    painter.end()
    return canvas, image


def _stored(text: str, *parts: ReasoningPart) -> MessageRow:
    return MessageRow(Message(new_id("msg"), "ses", "assistant", (*parts, TextPart(text)), speaker="linus"))


def _streamed(text: str) -> StreamRow:
    row = StreamRow(new_id("msg"), "linus", "turn", StreamingDocument(theme.body_font()))
    for start in range(0, len(text), 7):  # as a stream arrives: in small pieces
        row.append("text", text[start:start + 7])
    return row


REPLIES = [
    "Just one line.",
    "First paragraph.\n\nSecond paragraph.\n\nThird.",
    "I'll add `tests/test_startup.py`:\n\n```python\nimport time\n\ndef test_fast():\n    pass\n```",
    "```python\nx = 1\n```\n\nStarts with code.",
    "Intro.\n\n- one\n- two\n\nAfter.\n\n1. first\n2. second\n\n## Heading\n\nText under it.",
    "Before.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nAfter the table.\n\n> quoted\n\nEnd.",
    "Code:\n\n```sh\nls\n```\n\n```python\ny = 2\n```\n\n# Title\n\nDone.",
]


@pytest.mark.parametrize("text", REPLIES)
def test_a_streamed_reply_is_laid_out_where_the_stored_one_will_be(qapp: QApplication, text: str) -> None:
    renderer = RowRenderer()
    stored, _ = _painted(renderer, _stored(text))
    streamed, _ = _painted(renderer, _streamed(text))
    assert [rect.top() for rect, _ in streamed.copies] == [rect.top() for rect, _ in stored.copies]
    assert streamed.y + PART_GAP == stored.y  # a stored reply's text part is followed by a part gap


def test_a_code_block_never_covers_what_is_above_it(qapp: QApplication) -> None:
    """The streamed intro above a code block was hidden under the code's header strip until the
    reply was stored, and a reply starting with code drew its header over the line above."""
    renderer = RowRenderer()
    intro = "I'll add `tests/test_startup.py`:"
    streamed, with_code = _painted(renderer, _streamed(intro + "\n\n```python\nimport time\n"))
    assert streamed.copies, "the open code block has its copy button"
    ((button, _),) = streamed.copies
    header_top = button.top() - 2
    _, alone = _painted(renderer, _streamed(intro))
    ink = _last_inked_line(alone)
    assert with_code.copy(0, 0, WIDTH, ink + 1) == alone.copy(0, 0, WIDTH, ink + 1)  # the intro still shows
    assert header_top >= ink + BLOCK_GAP // 2  # and the code's header is a gap below its letters

    thought = ReasoningPart("Plan the test first.")
    stored, _ = _painted(renderer, _stored("```python\nx = 1\n```", thought))
    ((button, _),) = stored.copies
    ((line, _),) = stored.hits  # the folded "Thought" line
    assert button.top() - 2 >= line.bottom() + PART_GAP


def _last_inked_line(image: QImage) -> int:
    """The lowest pixel row that is not the background."""
    background = image.pixel(0, image.height() - 1)
    for y in range(image.height() - 1, -1, -1):
        if any(image.pixel(x, y) != background for x in range(image.width())):
            return y
    raise AssertionError("nothing was painted")


def test_a_message_of_the_person_that_starts_with_code_keeps_it_in_its_bubble(qapp: QApplication) -> None:
    renderer = RowRenderer()
    canvas, _ = _painted(renderer, MessageRow(Message(new_id("msg"), "ses", "user",
                                                      (TextPart("```\nmake test\n```"),))))
    assert canvas.bubble is not None and canvas.copies
    ((button, _),) = canvas.copies
    assert button.top() - 2 >= canvas.bubble.top()


def test_one_block_documents_keep_their_single_line_height(qapp: QApplication) -> None:
    doc: QTextDocument = markdown_document("Just one line.", theme.body_font())
    doc.setTextWidth(WIDTH)
    lone = QTextDocument()
    lone.setDocumentMargin(0)
    lone.setDefaultFont(theme.body_font())
    lone.setPlainText("Just one line.")
    lone.setTextWidth(WIDTH)
    assert doc.size().height() == lone.size().height()
