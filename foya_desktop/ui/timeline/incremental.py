"""Incremental markdown for replies that are still streaming.

Re-parsing a whole reply on every flush costs O(length) per update and, for
long replies, most of a core (DESIGN §4: 60 % vs 1.6 %). Markdown blocks are
separated by blank lines, and a block before a blank line can no longer
change once a new, non-indented block has begun. So finished blocks are
parsed once into *frozen* documents, and only the open tail is re-parsed.

Two things may never be split: a fenced code block (blank lines inside it
are content), and an indented continuation after a blank line (a list
item's second paragraph, indented code). The splitter keeps both whole.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QFont, QTextDocument

from foya_desktop.ui.timeline.docs import markdown_document

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class MarkdownBlockSplitter:
    """Finds where streamed markdown can be cut into finished blocks and an open tail."""

    def __init__(self) -> None:
        self.text = ""
        self.frozen_end = 0
        """Everything before this offset is finished and handed out by ``feed``."""
        self._scan = 0
        self._fence: str | None = None
        self._candidate: int | None = None

    @property
    def tail(self) -> str:
        """The open block(s) that may still change."""
        return self.text[self.frozen_end:]

    def feed(self, chunk: str) -> list[str]:
        """Append ``chunk``; return the newly finished block texts, in order."""
        self.text += chunk
        finished: list[str] = []
        while (newline := self.text.find("\n", self._scan)) != -1:
            line = self.text[self._scan:newline]
            start, self._scan = self._scan, newline + 1
            cut = self._classify(line, start)
            if cut is not None and cut > self.frozen_end:
                finished.append(self.text[self.frozen_end:cut])
                self.frozen_end = cut
        started = self._scan < len(self.text) and not self.text[self._scan].isspace()
        if self._candidate is not None and started:
            # The next block has visibly begun (not blank, not indented): the one before is done.
            finished.append(self.text[self.frozen_end:self._scan])
            self.frozen_end = self._scan
            self._candidate = None
        return finished

    def _classify(self, line: str, start: int) -> int | None:
        """Update fence/blank state for one complete line; return a cut offset if any."""
        fence = _FENCE.match(line)
        if self._fence is not None:
            if fence and fence.group(1)[0] == self._fence[0] and len(fence.group(1)) >= len(self._fence):
                self._fence = None
            return None
        if not line.strip():
            self._candidate = self._scan
            return None
        cut = None
        if self._candidate is not None and not line.startswith(("    ", "\t")):
            cut = start
        self._candidate = None
        if fence:
            self._fence = fence.group(1)
        return cut


class StreamingDocument:
    """Frozen block documents plus one re-parsed tail document, laid out as a stack.

    Text is parsed when the documents are next asked for, not as it arrives: the window shows a
    stream at most 30 times a second and less often when showing it is costly
    (``timeline.view``), while the bridge hands text over up to 30 times a second.
    """

    def __init__(self, font: QFont) -> None:
        self._font = font
        self._splitter = MarkdownBlockSplitter()
        self._unparsed: list[str] = []
        self._frozen: list[QTextDocument] = []
        self._tail = markdown_document("", font, highlight=False)
        self._width = -1.0
        self._frozen_heights: list[int] = []
        """Rounded heights of ``frozen`` at ``_width``: finished blocks never change, so a flush
        measures only the tail (issue 14: each flush re-measured the whole reply)."""

    @property
    def text(self) -> str:
        """All markdown received so far."""
        return self._splitter.text + "".join(self._unparsed)

    @property
    def frozen(self) -> list[QTextDocument]:
        """The documents of finished blocks, in order (parsed up to the latest text)."""
        self._parse()
        return self._frozen

    @property
    def tail(self) -> QTextDocument:
        """The document of the open tail (parsed up to the latest text)."""
        self._parse()
        return self._tail

    def append(self, chunk: str) -> None:
        """Add streamed text (parsed when the documents are next asked for)."""
        self._unparsed.append(chunk)

    def _parse(self) -> None:
        """Parse newly finished blocks once, and the open tail again."""
        if not self._unparsed:
            return
        chunk = "".join(self._unparsed)
        self._unparsed.clear()
        for block in self._splitter.feed(chunk):
            doc = markdown_document(block, self._font)
            if self._width > 0:
                doc.setTextWidth(self._width)
            self._frozen.append(doc)
        self._tail = markdown_document(self._splitter.tail, self._font, highlight=False)
        if self._width > 0:
            self._tail.setTextWidth(self._width)

    def documents(self) -> list[QTextDocument]:
        """Frozen documents then the tail, in reading order."""
        self._parse()
        return [*self._frozen, self._tail] if self._splitter.tail.strip() else list(self._frozen)

    def set_width(self, width: float) -> None:
        """Lay out every part at ``width`` (only when it changed)."""
        self._parse()
        if width == self._width:
            return
        self._width = width
        self._frozen_heights = []
        for doc in (*self._frozen, self._tail):
            doc.setTextWidth(width)

    def heights(self) -> list[int]:
        """Rounded height of each of ``documents()`` at the current width (frozen ones cached)."""
        self._parse()
        for doc in self._frozen[len(self._frozen_heights):]:
            self._frozen_heights.append(round(doc.size().height()))
        tail = [round(self._tail.size().height())] if self._splitter.tail.strip() else []
        return [*self._frozen_heights, *tail]
