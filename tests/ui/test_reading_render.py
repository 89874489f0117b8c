"""How replies read (issue 11, "Reading long sessions"): block quotes with a bar and a small indent,
tables with a bold tinted header and thin rules, and a copy button on every code block that copies
exactly the code (no fences). On the real kernel; screenshots in both themes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QTextCursor, QTextFormat, QTextTable
from PySide6.QtTest import QTest

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.history import append_messages
from foya_desktop.ui import theme
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.docs import QUOTE_INDENT, code_blocks_in, markdown_document
from tests.ui.helpers import open_session, settle, wait_until

REPLY = """Here is what I found.

> The config loader reads `foya.toml` first,
> then the environment.
>
> > A nested remark.

| File | Lines | Purpose |
|------|------:|---------|
| app.py | 120 | start-up |
| kernel.py | 340 | the engine |

```python
def load(path: str) -> dict:
    return tomllib.loads(Path(path).read_text())
```

Done."""


@pytest.fixture(autouse=True)
def _light_afterwards() -> Iterator[None]:
    yield
    theme.apply_theme("light")


def test_quotes_get_a_small_indent_and_muted_text() -> None:
    doc = markdown_document(REPLY, QFont())
    block, quoted = doc.begin(), []
    while block.isValid():
        level = block.blockFormat().property(QTextFormat.Property.BlockQuoteLevel)
        if level:
            quoted.append((level, block.blockFormat().leftMargin(), block.blockFormat().rightMargin()))
        block = block.next()
    assert (1, QUOTE_INDENT, 0) in quoted and (2, 2 * QUOTE_INDENT, 0) in quoted


def test_table_header_is_a_bold_tinted_row_with_thin_rules() -> None:
    doc = markdown_document(REPLY, QFont())
    (table,) = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)]
    fmt = table.format()
    assert fmt.headerRowCount() == 1 and fmt.borderCollapse() and fmt.border() == 1
    header = table.cellAt(0, 0).format().toTableCellFormat()
    assert header.background().color() == theme.code_background()
    cursor = table.cellAt(0, 0).firstCursorPosition()
    cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)
    assert cursor.charFormat().fontWeight() >= QFont.Weight.DemiBold
    # Qt put an empty line above "File" when the table follows a quote (the header sat a line low)
    assert table.cellAt(0, 0).firstCursorPosition().block().text() == "File"


def test_code_blocks_are_found_with_their_exact_code() -> None:
    doc = markdown_document(REPLY, QFont())
    doc.setTextWidth(500)
    (block,) = code_blocks_in(doc)
    assert block.language == "python"
    assert block.code == ("def load(path: str) -> dict:\n"
                          "    return tomllib.loads(Path(path).read_text())")


def test_code_block_positions_follow_the_width_and_edits_of_their_document() -> None:
    """Issue 14: found blocks are kept per document (painting asks on every repaint), never stale."""
    doc = markdown_document(REPLY + "\n\n" + "word " * 200 + "\n\n```sh\nls\n```\n", QFont())
    doc.setTextWidth(600)
    wide = code_blocks_in(doc)
    assert code_blocks_in(doc) is wide  # the same answer, not found again
    doc.setTextWidth(200)
    narrow = code_blocks_in(doc)
    assert [b.code for b in narrow] == [b.code for b in wide] and narrow[1].top > wide[1].top
    QTextCursor(doc).insertText("a new first line\n")
    edited = code_blocks_in(doc)
    assert edited[0].top > narrow[0].top


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_reply_with_quote_table_and_code_copy_button(real_window: MainWindow, real_kernel: Kernel,
                                                           shots: Path, choice: str) -> None:
    real_window.prefs.update(theme=choice)
    sid = await open_session(real_window, real_kernel, title="Reading")
    await real_kernel.store.write(append_messages, sid, [
        Message("u1", sid, "user", (TextPart("How is the config loaded?"),)),
        Message("a1", sid, "assistant", (TextPart(REPLY),), speaker="omni")])
    await real_window.pane.show_session(await real_kernel.sessions.get_session(sid))
    await settle(5)
    view = real_window.pane.timeline_view
    delegate = view.timeline_delegate
    await wait_until(lambda: delegate.copy_buttons("a1"), 5, "the copy button painted")
    real_window.grab().save(str(shots / f"reading_quote_table_code_{choice}.png"))
    row = 1  # the reply
    (box, code), = delegate.copy_buttons("a1")
    assert code.startswith("def load(path: str)") and "```" not in code
    QGuiApplication.clipboard().setText("something else")
    click = view.row_rect(row).topLeft() + box.center()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, click)
    await settle()
    assert QGuiApplication.clipboard().text() == code
    assert delegate.copied == code
    await settle(3)
    real_window.grab().save(str(shots / f"reading_code_copied_{choice}.png"))
    # the quote bar is drawn in the quote's indent
    image = view.viewport().grab().toImage()
    rect = view.row_rect(row)
    bar_x = rect.left() + (rect.width() - min(rect.width(), theme.READING_WIDTH)) // 2 + 38 + 3
    column = [QColor(image.pixel(bar_x, y)) for y in range(rect.top(), min(rect.bottom(), image.height()))]
    back = view.palette().color(view.viewport().backgroundRole())
    assert any(abs(c.lightness() - back.lightness()) > 20 for c in column), "a quote bar"
