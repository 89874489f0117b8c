"""A Copy action on every message while the pointer is over it, as in the peers' timelines (issue 12,
"the app looks like something people choose"): the chip copies exactly what the context menu's
"Copy text" copies, says "Copied ✓" for a moment, and disappears when the pointer leaves. The
code block's language label and its own Copy are kept (tests/ui/test_reading_render.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.history import append_messages
from foya_desktop.ui.main_window import MainWindow
from tests.ui.helpers import open_session, settle, wait_until

REPLY = "The loader reads **foya.toml** first.\n\n```python\nload('foya.toml')\n```\n\nThen the environment."


@pytest.mark.parametrize("choice", ["light", "dark"])
async def test_hovering_a_message_offers_copy(real_window: MainWindow, real_kernel: Kernel, shots: Path,
                                             choice: str) -> None:
    real_window.prefs.update(theme=choice)
    sid = await open_session(real_window, real_kernel, title="Copying")
    await real_kernel.store.write(append_messages, sid, [
        Message("u1", sid, "user", (TextPart("Where is the config read?"),)),
        Message("a1", sid, "assistant", (TextPart(REPLY),), speaker="omni")])
    await real_window.pane.show_session(await real_kernel.sessions.get_session(sid))
    await settle(5)
    view = real_window.pane.timeline_view
    delegate = view.timeline_delegate
    viewport = view.viewport()
    texts = {row: str(view.model().index(row, 0).data()) for row in (0, 1)}
    assert all(text and text != "None" for text in texts.values())

    def chip(row: int, key: str) -> tuple[QPoint, str] | None:
        found = [(box, text) for box, text in delegate.copy_buttons(key) if text == texts[row]]
        return (view.row_rect(row).topLeft() + found[0][0].center(), found[0][1]) if found else None

    assert chip(1, "a1") is None, "no chip before the pointer comes"
    for row, key in ((1, "a1"), (0, "u1")):
        QTest.mouseMove(viewport, view.row_rect(row).center())
        await wait_until(lambda: chip(row, key) is not None, 5, f"the Copy chip of row {row}")  # noqa: B023
        if row == 1:
            real_window.grab().save(str(shots / f"message_hover_copy_{choice}.png"))
        else:  # beside your short bubble at the right, not a window's width away at the left edge
            box = next(b for b, t in delegate.copy_buttons(key) if t == texts[row])
            assert box.left() > view.row_rect(row).width() // 2, box
            real_window.grab().save(str(shots / f"message_hover_copy_yours_{choice}.png"))
        point, text = chip(row, key) or (QPoint(), "")
        QGuiApplication.clipboard().setText("something else")
        QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        await settle()
        assert QGuiApplication.clipboard().text() == text == texts[row]
        assert delegate.copied == text
    menu = view.menu_for_row(1)
    copy_text = next(a for a in menu.actions() if a.text() == "Copy text")
    copy_text.trigger()
    assert QGuiApplication.clipboard().text() == texts[1], "the chip and the menu copy the same text"
    menu.deleteLater()
    QTest.mouseMove(viewport, QPoint(viewport.width() - 3, viewport.height() - 3))  # below the rows
    await wait_until(lambda: chip(0, "u1") is None, 5, "the chip gone with the pointer")
    real_window.prefs.update(theme="light")
