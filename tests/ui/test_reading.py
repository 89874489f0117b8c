"""Finding things again on the real kernel: Ctrl+F across a 50,000-message session, and
search across sessions that opens a hit at its message (Y35, Y36)."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.reading.jump import row_of_message
from tests.ui.helpers import open_session, settle, wait_signal, wait_until

BIG = 50_000


def _visible(window: MainWindow, message_id: str) -> bool:
    row = row_of_message(window.pane, message_id)
    if row is None:
        return False
    view = window.pane.timeline_view
    return view.visualRect(window.pane.timeline_model.index(row, 0)).intersects(view.viewport().rect())


async def test_find_in_a_50k_session_walks_matches_on_every_page(
        real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    sid = await open_session(real_window, real_kernel, title="Huge")
    needles = [8, 20_007, 49_907]
    await real_kernel.store.import_messages(sid, [
        Message(f"m{i:05d}", sid, "user" if i % 2 == 0 else "assistant",
                (TextPart(f"message {i}: " + ("the needle is here" if i in needles else "only hay")),),
                speaker="" if i % 2 == 0 else "omni") for i in range(BIG)])
    await real_window.show_session(await real_kernel.sessions.get_session(sid))
    real_window.find_actions.find_action.trigger()
    bar = real_window.find_actions.find_bar
    assert bar.isVisible()
    bar.text.setText("needle")
    (count,) = await wait_signal(bar.matched, 20)
    assert count == 3
    await wait_until(lambda: bar.position() == (3, 3) and _visible(real_window, "m49907"), 20, "newest match")
    assert bar.count.text() == "3 of 3"
    bar.prev_button.click()
    await wait_signal(bar.moved, 20)
    assert bar.position() == (2, 3) and _visible(real_window, "m20007"), "a match far from the window is paged in"
    bar.prev_button.click()
    await wait_signal(bar.moved, 20)
    assert _visible(real_window, "m00008")
    await settle()
    real_window.grab().save(str(shots / "find_in_session.png"))
    bar.prev_button.click()  # before the oldest: wraps around to the newest
    await wait_until(lambda: bar.position() == (3, 3) and _visible(real_window, "m49907"), 20, "wrapped")
    bar.next_button.click()  # after the newest: wraps around to the oldest
    await wait_until(lambda: bar.position() == (1, 3) and _visible(real_window, "m00008"), 20, "wrapped back")
    bar.speaker.setCurrentIndex(bar.speaker.findData("omni"))
    (count,) = await wait_signal(bar.matched, 20)
    assert count == 2, "20007 and 49907 are the VP's replies; 8 is the person's message"
    bar.run()
    assert real_window.runner.pending >= 1, "a find runs on the window's runner: closing the window drains it"


async def test_search_all_sessions_opens_the_hit_at_its_message(
        real_window: MainWindow, real_kernel: Kernel, shots: Path) -> None:
    first = await open_session(real_window, real_kernel, title="Older work")
    await real_kernel.store.import_messages(first, [
        Message(f"o{i:04d}", first, "user", (TextPart(f"note {i}" + (" about the frobnicator" if i == 3 else "")),))
        for i in range(600)])
    second = await open_session(real_window, real_kernel, title="Newer work")
    await real_kernel.store.import_messages(second, [
        Message("n1", second, "assistant", (TextPart("the frobnicator is fixed"),), speaker="omni")])
    window = await real_window.find_actions.open_search()
    window.query.setText("frobnicator")
    (count,) = await wait_signal(window.searched, 10)
    assert count == 2
    assert window.results.item(0).text().startswith("Newer work · omni")
    await settle()
    window.grab().save(str(shots / "search_all_sessions.png"))
    window.results.itemActivated.emit(window.results.item(1))
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == first
                     and _visible(real_window, "o0003"), 10, "opened at the message")
    window.speaker.setCurrentIndex(window.speaker.findData("user"))
    (count,) = await wait_signal(window.searched, 10)
    assert count == 1
    window.close()


async def test_quote_and_edit_as_new_from_the_message_menu(real_window: MainWindow, real_kernel: Kernel) -> None:
    """Y37: quote any message into the composer; put your own message back as a new one."""
    from PySide6.QtGui import QColor, QImage

    from foya_desktop.ui.composer.attachments import png_bytes
    from foya_desktop.ui.reading.message_actions import EDIT_AS_NEW, QUOTE

    sid = await open_session(real_window, real_kernel, title="Quotes")
    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    image.fill(QColor("red"))
    png = png_bytes(image)
    sha = await real_kernel.store.put_artifact(png, "image/png")
    from foya_desktop.core.messages import ImagePart
    await real_kernel.store.import_messages(sid, [
        Message("q1", sid, "user", (TextPart("Please look at this"), ImagePart(sha, "image/png", "shot.png"))),
        Message("q2", sid, "assistant", (TextPart("Line one\nLine two"),), speaker="omni")])
    await real_window.show_session(await real_kernel.sessions.get_session(sid))
    view, model = real_window.pane.timeline_view, real_window.pane.timeline_model
    reply_menu = view.menu_for_row(model.rowCount() - 1)
    assert EDIT_AS_NEW not in [a.text() for a in reply_menu.actions()]
    next(a for a in reply_menu.actions() if a.text() == QUOTE).trigger()
    composer = real_window.pane.composer
    assert composer.input.toPlainText() == "> Line one\n> Line two\n\n"
    user_menu = view.menu_for_row(0)
    next(a for a in user_menu.actions() if a.text() == EDIT_AS_NEW).trigger()
    await real_window.runner.drain()
    assert composer.input.toPlainText() == "Please look at this"
    assert [(a.kind, a.name, a.data) for a in composer.attachments()] == [("image", "shot.png", png)]
    assert await real_kernel.history.message_count(sid) == 2, "the original stays"
