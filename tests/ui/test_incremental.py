"""Incremental markdown: finished blocks freeze once, only the open tail is re-parsed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import QApplication

from foya_desktop.ui import theme
from foya_desktop.ui.timeline import incremental
from foya_desktop.ui.timeline.docs import markdown_document
from foya_desktop.ui.timeline.incremental import MarkdownBlockSplitter, StreamingDocument

REPLY = ("# Plan\n\nFirst paragraph with *emphasis*.\n\n"
         "```python\ndef f():\n\n    return 1\n```\n\n"
         "- item one\n\n    continued item paragraph\n\n"
         "Last paragraph still open")


def _feed_all(text: str, sizes: list[int]) -> tuple[list[str], str]:
    splitter = MarkdownBlockSplitter()
    blocks: list[str] = []
    pos = 0
    for size in sizes:
        blocks += splitter.feed(text[pos:pos + size])
        pos += size
    blocks += splitter.feed(text[pos:])
    return blocks, splitter.tail


def test_blocks_freeze_at_blank_lines_but_never_inside_a_fence() -> None:
    blocks, tail = _feed_all(REPLY, [len(REPLY)])
    assert blocks[0] == "# Plan\n\n"
    assert blocks[1] == "First paragraph with *emphasis*.\n\n"
    assert blocks[2].startswith("```python\n") and "return 1\n```" in blocks[2]
    assert "continued item paragraph" in blocks[3]  # indented continuation stays with its item
    assert tail == "Last paragraph still open"
    assert "".join(blocks) + tail == REPLY


def test_the_tail_is_not_frozen_until_a_new_block_begins() -> None:
    splitter = MarkdownBlockSplitter()
    assert splitter.feed("Hello\n\n") == []
    assert splitter.tail == "Hello\n\n"
    assert splitter.feed("  ") == []  # could still be an indented continuation
    assert splitter.feed("  more of the same item\n") == []
    assert splitter.feed("\nW") == ["Hello\n\n    more of the same item\n\n"]  # a new block has begun
    assert splitter.feed("orld\n") == []
    assert splitter.tail == "World\n"


def test_unclosed_fence_keeps_everything_open() -> None:
    splitter = MarkdownBlockSplitter()
    assert splitter.feed("```\ncode\n\nmore code\n\nstill code\n") == []
    assert splitter.tail.startswith("```")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=15), max_size=40))
def test_chunking_never_changes_the_result(sizes: list[int]) -> None:
    whole = _feed_all(REPLY, [len(REPLY)])
    assert _feed_all(REPLY, sizes) == whole


def test_streaming_document_parses_frozen_blocks_once(qapp: QApplication) -> None:
    doc = StreamingDocument(theme.body_font())
    doc.append("Intro paragraph.\n\n")
    assert doc.frozen == []
    doc.append("Second")
    assert len(doc.frozen) == 1
    doc.append(" paragraph.\n\nThird")
    assert len(doc.frozen) == 2
    frozen_ids = [id(d) for d in doc.frozen]
    for word in ["", "and", "more", "words"]:
        doc.append(" " + word)
    assert [id(d) for d in doc.frozen] == frozen_ids  # untouched by later deltas
    assert doc.tail.toPlainText().startswith("Third")
    doc.set_width(400)
    assert all(height > 0 for height in doc.heights())
    assert [d.toPlainText() for d in doc.documents()][:2] == ["Intro paragraph.", "Second paragraph."]


def test_streamed_text_is_parsed_when_shown_not_as_it_arrives(qapp: QApplication,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The view may show a costly stream less often than the bridge hands text over: text that
    arrived between two repaints is parsed once, at the next one."""
    parsed: list[str] = []
    real = markdown_document

    def counting(markdown: str, font: QFont, **kwargs: bool) -> QTextDocument:
        parsed.append(markdown)
        return real(markdown, font, **kwargs)

    monkeypatch.setattr(incremental, "markdown_document", counting)
    doc = StreamingDocument(theme.body_font())
    parsed.clear()
    for i in range(20):
        doc.append(f"word{i} ")
    doc.append("done.\n\nNext")
    assert parsed == []
    assert doc.documents()[0].toPlainText().endswith("word19 done.")
    assert len(parsed) == 2  # the block that finished and the open tail, once each
    assert doc.tail.toPlainText() == "Next" and len(parsed) == 2
