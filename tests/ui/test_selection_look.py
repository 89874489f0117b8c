"""Selected rows stay readable: every list and tree draws its selection one way, in both themes.

A selected row used to be drawn blank (white text on a white row) or with no visible selection
in the dialogs' lists, the search hits, the Ctrl+K palette and the composer's pickers, because a
style sheet's ``::item`` padding made Qt draw the rows itself and forget the highlight. Each view
is rendered with a row selected; the selected row must differ from an unselected one and its
text must contrast with its background.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractItemView, QComboBox

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import VP, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.history import append_messages
from foya_desktop.ui import theme
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.quick_switcher import Choice, QuickSwitcher
from tests.ui.helpers import open_session, settle, wait_signal

SHOTS = Path("/tmp/foya-shots/selection")


def _luminance(color: QColor) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else float(((s + 0.055) / 1.055) ** 2.4)
    return 0.2126 * channel(color.red()) + 0.7152 * channel(color.green()) + 0.0722 * channel(color.blue())


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _pixels(image: QImage, rect: QRect) -> Iterator[QColor]:
    for y in range(max(0, rect.top()), min(image.height(), rect.bottom() + 1)):
        for x in range(max(0, rect.left()), min(image.width(), rect.right() + 1)):
            yield image.pixelColor(x, y)


def _background(image: QImage, rect: QRect) -> QColor:
    """The row's most common colour: its fill."""
    counts = Counter(c.rgb() for c in _pixels(image, rect.adjusted(2, 2, -2, -2)))
    return QColor.fromRgb(counts.most_common(1)[0][0])


def _row_problem(view: QAbstractItemView, name: str, dark: bool) -> str:
    """Why the selected row of ``view`` is unreadable ("" when it reads well); saves its picture."""
    image = view.viewport().grab().toImage()
    image.save(str(SHOTS / f"{name}-{'dark' if dark else 'light'}.png"))
    model = view.model()
    selected = view.selectionModel().selectedIndexes()
    assert selected, f"{name}: no selected row"
    rect = view.visualRect(selected[0])
    background = _background(image, rect)
    text = max(_pixels(image, rect), key=lambda c: _contrast(c, background))
    others = [view.visualRect(model.index(r, 0, selected[0].parent())) for r in range(model.rowCount())
              if r != selected[0].row()]
    problems = []
    if others:
        plain = _background(image, others[0])
        if _contrast(plain, background) < 1.3:
            problems.append(f"the selection does not show ({background.name()} on {plain.name()})")
    if _contrast(text, background) < 3.0:
        problems.append(f"its text ({text.name()}) does not read on {background.name()}")
    return f"{name} ({'dark' if dark else 'light'}): " + ", ".join(problems) if problems else ""


@pytest.fixture(params=[False, True], ids=["light", "dark"])
async def themed(request: pytest.FixtureRequest, real_window: MainWindow) -> AsyncIterator[bool]:
    """The window in the light or the dark theme (back to light afterwards)."""
    dark: bool = request.param
    theme.apply_theme("dark" if dark else "light")
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield dark
    theme.apply_theme("light")


async def test_selected_rows_read_in_every_list(themed: bool, real_window: MainWindow,
                                                real_kernel: Kernel) -> None:
    """The VP library, Connections, Ctrl+K's first match, search hits and a composer picker."""
    dark = themed
    await real_kernel.vps.add_vp(VP("", "Martin", "", "You review."))
    await real_kernel.connections.add_connection(Connection("local", ProviderKind.OPENAI, "http://127.0.0.1:1/v1"))
    session_id = await open_session(real_window, real_kernel, title="Tokenizer study")
    await real_kernel.store.write(append_messages, session_id, [
        Message(f"m{i}", session_id, "user", (TextPart(f"the frobnicator, take {i}"),)) for i in range(3)])
    problems: list[str] = []

    library = VPLibraryDialog(real_kernel, real_window)
    await library.refresh("martin")
    library.show()
    await settle()
    problems.append(_row_problem(library.list, "vp_library", dark))
    library.close()

    connections = ConnectionsDialog(real_kernel, real_window.runner, real_window)
    await connections.refresh()
    connections.list.setCurrentRow(0)
    connections.show()
    await settle()
    problems.append(_row_problem(connections.list, "connections", dark))
    connections.close()

    switcher = QuickSwitcher([Choice("Release notes", "", session_id="a"), Choice("Tokenizer study", "",
                              session_id="b")], [], real_window)
    switcher.show()
    await settle()
    problems.append(_row_problem(switcher.list, "ctrl_k", dark))
    switcher.close()

    search = await real_window.find_actions.open_search()
    search.query.setText("frobnicator")
    await wait_signal(search.searched, 10)
    search.results.setCurrentRow(1)
    await settle()
    problems.append(_row_problem(search.results, "search_hits", dark))
    search.close()

    picker: QComboBox = real_window.pane.status.approval
    picker.showPopup()
    await settle()
    problems.append(_row_problem(picker.view(), "composer_picker", dark))
    picker.hidePopup()

    assert "\n".join(p for p in problems if p) == ""
