"""Markdown → ``QTextDocument``, code highlighting, and a bounded document cache.

``QTextDocument.setMarkdown`` (md4c) is the fastest markdown path Qt offers
(DESIGN §4: 5–12× faster than markdown-it + ``setHtml``). Documents are
expensive to keep (each holds a full layout), so the delegate keeps only a
few hundred in an LRU; heights are cached separately and survive eviction.

Code blocks get a tinted background and Pygments colours. Colours of stored
messages are *deferred* (``defer_highlight``): a row is laid out without them
to learn its height, and they are applied in one edit block (one re-layout of
the code, not one per token) the first time the row is painted
(``ensure_highlighted``): lexing every new row of a page of older history cost
most of its 70–90 ms (issue 14), for rows nobody looked at.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache

from pygments import lex
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import Token, _TokenType
from pygments.util import ClassNotFound
from PySide6.QtCore import QRectF
from PySide6.QtGui import (
    QColor,
    QFont,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextTable,
)

from foya_desktop.ui import theme

MAX_HIGHLIGHT_CHARS = 20_000
"""Longer code blocks keep the monospace look without colours (lexing is not free)."""

_LIGHT = {Token.Keyword: "#8839ef", Token.Name.Function: "#1e66f5", Token.Name.Class: "#d20f39",
          Token.Name.Builtin: "#fe640b", Token.String: "#40a02b", Token.Number: "#fe640b",
          Token.Comment: "#7c7f93", Token.Operator: "#04a5e5", Token.Name.Decorator: "#df8e1d"}
_DARK = {Token.Keyword: "#cba6f7", Token.Name.Function: "#89b4fa", Token.Name.Class: "#f38ba8",
         Token.Name.Builtin: "#fab387", Token.String: "#a6e3a1", Token.Number: "#fab387",
         Token.Comment: "#9399b2", Token.Operator: "#89dceb", Token.Name.Decorator: "#f9e2af"}


def markdown_document(markdown: str, font: QFont, *, highlight: bool = True,
                      defer_highlight: bool = False) -> QTextDocument:
    """A document for one markdown text, styled for the timeline but not yet laid out.

    ``highlight=False``: code is never coloured (a streaming tail, re-parsed every flush);
    ``defer_highlight``: coloured by ``ensure_highlighted`` when first painted.
    """
    doc = QTextDocument()
    doc.setUndoRedoEnabled(False)  # styled once, never edited: no undo stack to fill
    doc.setDocumentMargin(0)
    doc.setIndentWidth(LIST_INDENT)
    doc.setDefaultFont(font)
    doc.setMarkdown(markdown, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    space_blocks(doc)
    if "#" in markdown:
        tone_down_headings(doc, font)
    if ">" in markdown:
        style_block_quotes(doc)
    if "|" in markdown:
        style_tables(doc)
    decorate_code_blocks(doc, highlight=highlight and not defer_highlight)
    if highlight and defer_highlight and doc.property(CODE_PROPERTY):
        doc.setProperty(PENDING_PROPERTY, True)
    return doc


BLOCK_GAP = 10
"""Space between paragraphs, lists and other blocks of a reply."""
LIST_ITEM_GAP = 3
"""Space between the items of one list: a list reads as one block, not as paragraphs."""
HEADING_GAP = 16
"""Space above a heading (a reply's section label), and ``HEADING_GAP // 4`` below it."""
LIST_INDENT = 26
"""Indent per list level (Qt's default, 40 px, pushes bullets far into a chat column)."""


def space_blocks(doc: QTextDocument) -> None:
    """Paragraphs apart, list items close together, headings with room above.

    NOTE: Qt's markdown import gives every paragraph and list item the same 6 px top and bottom
    margins, so long replies read as a wall of lines and a list looks like separate paragraphs.
    Qt collapses adjacent margins (the larger wins) and drops the document's first top and last
    bottom margin, which ``gap_between`` mirrors for a streaming reply's stacked documents. Code
    blocks are spaced by ``decorate_code_blocks`` and table cells by ``style_tables``; empty
    blocks are structure (around tables, rules) and keep Qt's margins.
    """
    heading, item, paragraph = _spacing()
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        after = block.next()
        if block.length() > 1:  # not empty (the length counts the block separator)
            fmt = block.blockFormat()
            if not fmt.hasProperty(QTextFormat.Property.BlockCodeFence):
                cursor.setPosition(block.position())
                cursor.mergeBlockFormat(heading if fmt.headingLevel() else item if (
                    _in_list(block) and after.isValid() and _in_list(after)) else paragraph)
        block = after


@cache
def _spacing() -> tuple[QTextBlockFormat, QTextBlockFormat, QTextBlockFormat]:
    """The heading, list item and paragraph spacings of ``space_blocks`` (made once: it runs for
    every document)."""
    made = []
    for top, bottom in ((HEADING_GAP, HEADING_GAP // 4), (0, LIST_ITEM_GAP), (0, BLOCK_GAP)):
        fmt = QTextBlockFormat()
        fmt.setTopMargin(top)
        fmt.setBottomMargin(bottom)
        made.append(fmt)
    return made[0], made[1], made[2]


def _in_list(block: QTextBlock) -> bool:
    """A list item, or a paragraph that continues one (indented, outside the list itself)."""
    return block.textList() is not None or block.blockFormat().indent() > 0


def top_room(doc: QTextDocument) -> int:
    """Room to leave above ``doc`` when drawing it: the code header of a document that starts
    with a code block (Qt drops a document's first top margin, where that header lives; the
    ``BLOCK_GAP`` above the header is left to what comes before the document)."""
    first = doc.begin().blockFormat()
    return CODE_HEADER if first.hasProperty(QTextFormat.Property.BlockCodeFence) else 0


def gap_between(upper: QTextDocument, lower: QTextDocument) -> int:
    """The space between two stacked documents that one document of both texts would have
    (collapsed margins), less the ``top_room`` the canvas leaves above ``lower`` anyway: a
    streamed reply's finished blocks and tail then sit where the stored reply will.

    NOTE: before a table Qt applies only the table's own margin, not the paragraph's above it.
    """
    if _starts_with_table(lower):
        return 0
    margin = max(upper.lastBlock().blockFormat().bottomMargin(), lower.begin().blockFormat().topMargin())
    return max(0, round(margin) - top_room(lower))


def _starts_with_table(doc: QTextDocument) -> bool:
    """Whether a table follows the document's first (empty) block directly."""
    frames = doc.rootFrame().childFrames()
    return (bool(frames) and isinstance(frames[0], QTextTable)
            and frames[0].firstPosition() <= doc.begin().length())


PENDING_PROPERTY = "foyaHighlightPending"
"""Set on documents whose code colours are deferred until they are painted."""


def ensure_highlighted(doc: QTextDocument) -> bool:
    """Colour the code of a deferred document now (painting calls this); True if it did."""
    if not doc.property(PENDING_PROPERTY):
        return False
    doc.setProperty(PENDING_PROPERTY, False)
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    for run in _code_runs(doc):
        _highlight_run(cursor, run)
    cursor.endEditBlock()
    return True


def highlight_pending(doc: QTextDocument) -> bool:
    """Whether ``doc`` has code whose colours were deferred and not applied yet (tests)."""
    return bool(doc.property(PENDING_PROPERTY))


QUOTE_INDENT = 14
"""Room left of a quote per level; the bar is drawn in it (``quote_bars``)."""
QUOTES_PROPERTY = "foyaQuotes"
CODE_PROPERTY = "foyaCode"
"""Dynamic properties set on documents that have block quotes / code blocks (painting looks for them)."""


def style_block_quotes(doc: QTextDocument) -> None:
    """Quotes read as quotes: a small indent (the bar goes there), no right margin, muted text.

    NOTE: md4c gives quotes 40 px margins on both sides and nothing else; a chat column is narrow.
    """
    cursor = QTextCursor(doc)
    block = doc.begin()
    found = False
    while block.isValid():
        level = block_quote_level(block)
        if level:
            found = True
            fmt = QTextBlockFormat()
            fmt.setLeftMargin(QUOTE_INDENT * level)
            fmt.setRightMargin(0)
            cursor.setPosition(block.position())
            cursor.mergeBlockFormat(fmt)
            chars = QTextCharFormat()
            chars.setForeground(theme.dim_color())
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(chars)
        block = block.next()
    doc.setProperty(QUOTES_PROPERTY, found)


def block_quote_level(block: QTextBlock) -> int:
    """How deeply ``block`` is quoted (0: not a quote)."""
    value = block.blockFormat().property(QTextFormat.Property.BlockQuoteLevel)
    return int(value) if isinstance(value, int) else 0


def quote_bars(doc: QTextDocument) -> list[tuple[int, QRectF]]:
    """(level, block rectangle) for every quoted block, for the painter to draw the bars."""
    if not doc.property(QUOTES_PROPERTY):
        return []
    layout = doc.documentLayout()
    bars = []
    block = doc.begin()
    while block.isValid():
        level = block_quote_level(block)
        if level:
            bars.append((level, layout.blockBoundingRect(block)))
        block = block.next()
    return bars


def style_tables(doc: QTextDocument) -> None:
    """Tables with a tinted, bold header row and thin rules, instead of Qt's grey 3-D borders."""
    bold = QTextCharFormat()
    bold.setFontWeight(QFont.Weight.DemiBold)
    for frame in doc.rootFrame().childFrames():
        if not isinstance(frame, QTextTable):
            continue
        fmt = frame.format()
        fmt.setBorderCollapse(True)
        fmt.setBorder(1)
        fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
        fmt.setBorderBrush(rule_color())
        fmt.setCellPadding(5)
        fmt.setCellSpacing(0)
        fmt.setHeaderRowCount(1)
        fmt.setTopMargin(BLOCK_GAP)  # Qt ignores the margin of the paragraph above a table
        fmt.setBottomMargin(4)
        frame.setFormat(fmt)
        _drop_empty_first_block(frame)
        _unspace_cells(doc, frame)
        for column in range(frame.columns()):
            cell = frame.cellAt(0, column)
            cell_fmt = cell.format().toTableCellFormat()
            cell_fmt.setBackground(theme.code_background())
            cell.setFormat(cell_fmt)
            cursor = QTextCursor(doc)
            cursor.setPosition(cell.firstPosition())
            cursor.setPosition(cell.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(bold)


def _unspace_cells(doc: QTextDocument, table: QTextTable) -> None:
    """Cells are padded by the table; the paragraph gaps ``space_blocks`` gave their text go."""
    flush = QTextBlockFormat()
    flush.setTopMargin(0)
    flush.setBottomMargin(0)
    cursor = QTextCursor(doc)
    for row in range(table.rows()):
        for column in range(table.columns()):
            cell = table.cellAt(row, column)
            cursor.setPosition(cell.firstPosition())
            cursor.setPosition(cell.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeBlockFormat(flush)


def _drop_empty_first_block(table: QTextTable) -> None:
    """NOTE: Qt's markdown import puts an empty line in the first cell of a table that follows a
    block quote, which pushes that header down a line; remove it."""
    cell = table.cellAt(0, 0)
    first = cell.firstCursorPosition().block()
    if not first.text() and first.next().isValid() and first.next().position() <= cell.lastPosition():
        cursor = QTextCursor(first)
        cursor.deleteChar()


def rule_color() -> QColor:
    """Thin rules (table borders, quote bars): the text colour faded into the background."""
    text, back = theme.text_color(), theme.code_background()
    t = 0.22
    return QColor(round(back.red() + (text.red() - back.red()) * t),
                  round(back.green() + (text.green() - back.green()) * t),
                  round(back.blue() + (text.blue() - back.blue()) * t))


CODE_HEADER = 22
CODE_MARGIN = 8
"""The strip above a code block with its language and copy button."""


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """Where one fenced code block is in its document, and its exact text (no fences)."""

    top: float
    """Top of the header strip, in document coordinates."""
    bottom: float
    language: str
    code: str


_BLOCKS: weakref.WeakKeyDictionary[QTextDocument, tuple[tuple[float, int], list[CodeBlock]]] = \
    weakref.WeakKeyDictionary()
"""``code_blocks_in`` per document, for the width and revision it was found at: painting asks
for every visible reply on every repaint, and walking the blocks again cost a few ms a frame
while scrolling (issue 14)."""


def code_blocks_in(doc: QTextDocument) -> list[CodeBlock]:
    """Every fenced code block of a laid-out document (copy buttons, tests)."""
    if not doc.property(CODE_PROPERTY):
        return []
    key = (doc.textWidth(), doc.revision())
    cached = _BLOCKS.get(doc)
    if cached is not None and cached[0] == key:
        return cached[1]
    blocks = _find_code_blocks(doc)
    _BLOCKS[doc] = (key, blocks)
    return blocks


def _find_code_blocks(doc: QTextDocument) -> list[CodeBlock]:
    layout = doc.documentLayout()
    out = []
    for run in _code_runs(doc):
        first, last = layout.blockBoundingRect(run[0]), layout.blockBoundingRect(run[-1])
        code = "\n".join(b.text().replace("\u2028", "\n") for b in run)
        out.append(CodeBlock(first.top() - CODE_HEADER, last.bottom(), _language(run[0]), code))
    return out


_HEADING_GROWTH = {1: 4.0, 2: 2.5, 3: 1.5}


def tone_down_headings(doc: QTextDocument, font: QFont) -> None:
    """Chat replies use headings as section labels; Qt's defaults are poster-sized."""
    cursor = QTextCursor(doc)
    block = doc.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level > 0:
            fmt = QTextCharFormat()
            fmt.setFontPointSize(font.pointSizeF() + _HEADING_GROWTH.get(level, 0.5))
            fmt.setFontWeight(QFont.Weight.DemiBold)
            cursor.setPosition(block.position())
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)
        block = block.next()


def plain_document(text: str, font: QFont) -> QTextDocument:
    """A document for text that must not be interpreted (tool output, arguments)."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(font)
    doc.setPlainText(text)
    return doc


def decorate_code_blocks(doc: QTextDocument, *, highlight: bool) -> None:
    """Tint fenced code blocks and colour their tokens by language."""
    runs = _code_runs(doc)
    doc.setProperty(CODE_PROPERTY, bool(runs))
    if not runs:
        return
    cursor = QTextCursor(doc)
    cursor.beginEditBlock()
    fmt = QTextBlockFormat()
    fmt.setBackground(theme.code_background())
    fmt.setLeftMargin(CODE_MARGIN)
    fmt.setRightMargin(CODE_MARGIN)
    header = QTextBlockFormat()
    header.setTopMargin(BLOCK_GAP + CODE_HEADER)  # the language and the copy button go here (``Canvas``)
    end = QTextBlockFormat()
    end.setBottomMargin(BLOCK_GAP)  # what follows the code starts a block's distance below it
    for run in runs:
        for block in run:
            cursor.setPosition(block.position())
            cursor.mergeBlockFormat(fmt)
        cursor.setPosition(run[0].position())
        cursor.mergeBlockFormat(header)
        cursor.setPosition(run[-1].position())
        cursor.mergeBlockFormat(end)
        if highlight:
            _highlight_run(cursor, run)
    cursor.endEditBlock()


def _code_runs(doc: QTextDocument) -> list[list[QTextBlock]]:
    """Consecutive code-fence blocks grouped into one run per fenced block."""
    runs: list[list[QTextBlock]] = []
    current: list[QTextBlock] = []
    block = doc.begin()
    while block.isValid():
        if block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence):
            if current and _language(current[0]) != _language(block):
                runs.append(current)
                current = []
            current.append(block)
        elif current:
            runs.append(current)
            current = []
        block = block.next()
    if current:
        runs.append(current)
    return runs


def _language(block: QTextBlock) -> str:
    value = block.blockFormat().property(QTextFormat.Property.BlockCodeLanguage)
    return str(value or "")


def _highlight_run(cursor: QTextCursor, run: list[QTextBlock]) -> None:
    lexer = _lexer(_language(run[0]).lower())
    text = "\n".join(b.text() for b in run)
    if lexer is None or len(text) > MAX_HIGHLIGHT_CHARS:
        return
    palette = _DARK if theme.is_dark() else _LIGHT
    pos = run[0].position()
    for token_type, value in lex(text, lexer):
        color = _color_for(token_type, palette)
        if color is not None and value.strip():
            cursor.setPosition(pos)
            cursor.setPosition(pos + len(value), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(_char_format(color))
        pos += len(value)


def _color_for(token_type: _TokenType, palette: dict[_TokenType, str]) -> str | None:
    while token_type is not None:
        if token_type in palette:
            return palette[token_type]
        token_type = token_type.parent
    return None


@cache
def _char_format(color: str) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    return fmt


WARM_LANGUAGES = ("python", "bash", "json", "javascript", "typescript", "diff", "toml", "yaml")
"""Lexers loaded by :func:`warm_up`: the ones replies use most."""


def warm_up() -> None:
    """Load and compile the common lexers (safe on a worker thread: no Qt objects are touched).

    Pygments compiles a lexer's rules on its first use, 0.1 s and more for Python; app start-up
    does that here, after the first paint and off the GUI thread, so the first code block shown
    does not stall the window (issue 14).
    """
    for language in WARM_LANGUAGES:
        lexer = _lexer(language)
        if lexer is not None:
            for _ in lex("x = 1\n", lexer):
                pass


@cache
def _lexer(language: str) -> Lexer | None:
    if not language:
        return None
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False, stripall=False)
    except ClassNotFound:
        return None


DOCUMENT_CACHE_SIZE = 800
"""Documents kept: several pages of rows (a page of older history is 150 messages, a row has
one document per text part), so scrolling back and forth over a few pages re-parses nothing."""


class DocumentCache:
    """Least-recently-used documents keyed by whatever identifies their content."""

    def __init__(self, capacity: int = DOCUMENT_CACHE_SIZE) -> None:
        self._capacity = capacity
        self._docs: OrderedDict[Hashable, QTextDocument] = OrderedDict()

    def get(self, key: Hashable) -> QTextDocument | None:
        """The cached document, marked as recently used."""
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
        return doc

    def put(self, key: Hashable, doc: QTextDocument) -> None:
        """Keep ``doc``; the least recently used one beyond capacity is dropped."""
        self._docs[key] = doc
        self._docs.move_to_end(key)
        while len(self._docs) > self._capacity:
            self._docs.popitem(last=False)

    def clear(self) -> None:
        """Forget everything (e.g. after a palette or font change)."""
        self._docs.clear()

    def __len__(self) -> int:
        return len(self._docs)

    def items(self) -> list[tuple[Hashable, QTextDocument]]:
        """(key, document) pairs, least recently used first (tests look at what is cached)."""
        return list(self._docs.items())
