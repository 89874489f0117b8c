"""Image thumbnails never overlap later messages, also after a session is reopened (issue 11; Y47–Y49).

Real kernel: the fake model calls ``view_image`` on PNGs in the project, then the session is
reopened (switching away and back, and in a new window on the same data, as after a restart).
Every thumbnail box must lie inside its own row, and rows must not overlap.
"""

from __future__ import annotations

from pathlib import Path

from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.model import HEADER_ROLE
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.conftest import _window
from tests.ui.helpers import Events, open_session, settle, show
from tests.ui.test_images import _png


def _overlaps(window: MainWindow) -> list[str]:
    """Thumbnails drawn outside their row, or rows drawn over each other."""
    model, view = window.pane.timeline_model, window.pane.timeline_view
    problems = []
    previous_bottom = None
    for i in range(model.rowCount()):
        rect = view.row_rect(i)
        canvas = Canvas(None, 0, 0, view.timeline_delegate.width())
        view.timeline_delegate.renderer.walk(canvas, model.row_at(i), bool(model.index(i, 0).data(HEADER_ROLE)))
        if canvas.y > rect.height():
            problems.append(f"row {i} needs {canvas.y}px but has {rect.height()}px")
        for box, _sha in canvas.images:
            if box.bottom() > rect.height():
                problems.append(f"row {i}: thumbnail ends at {box.bottom()} below its row ({rect.height()})")
        if previous_bottom is not None and rect.top() <= previous_bottom:
            problems.append(f"row {i} starts at {rect.top()} above the previous row's end {previous_bottom}")
        previous_bottom = rect.bottom()
    return problems


async def test_thumbnails_stay_inside_their_rows_after_reopening(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    for name, color in (("red.png", "#d62728"), ("blue.png", "#1f77b4"), ("green.png", "#2ca02c")):
        _png(project / name, color, 320, 200)
    fake_provider.script(
        Reply(text="Let me look.", tool_calls=[ToolCallSpec("view_image", {"path": "red.png"}),
                                               ToolCallSpec("view_image", {"path": "blue.png"})]),
        Reply(text="Now the third.", tool_calls=[ToolCallSpec("view_image", {"path": "green.png"})]),
        Reply(text="Red, blue and green."),
        Reply(text="Anything else?"))
    events = Events(real_kernel)
    sid = await open_session(real_window, real_kernel, title="Pictures", workdir=str(project), approval_mode="auto")
    real_window.pane.composer.input.setPlainText("what colours are the pictures?")
    real_window.pane.send()
    await events.turns(1)
    real_window.pane.composer.input.setPlainText("thanks")
    real_window.pane.send()
    await events.turns(2)
    await settle(5)
    assert _overlaps(real_window) == [], "live"
    other = await open_session(real_window, real_kernel, title="Elsewhere")
    await show(real_window, sid)  # reopened: thumbnails not loaded yet when the rows are measured
    await settle(10)
    real_window.grab().save(str(shots / "thumbnails_reopened.png"))
    # before: the rows reused heights measured for their first state (no results, no thumbnails yet)
    assert _overlaps(real_window) == [], "reopened"
    assert other
    async with _window(real_kernel) as second:  # a new window on the same data, as after a restart
        await show(second, sid)
        await settle(10)
        assert _overlaps(second) == [], "after a restart"
        second.grab().save(str(shots / "thumbnails_after_restart.png"))
