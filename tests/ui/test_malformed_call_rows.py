"""The window shows a model's malformed tool call as a failed call, and a reply the server could not read
as a failed reply saying why — on the real kernel with the HTTP fake model (llama.cpp's error shape).

The turn goes on after both (the model is told and corrects itself); the status counts the failure.
"""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.events import VPStatus
from foya_desktop.core.messages import MessageStatus
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline import summaries
from foya_desktop.ui.timeline.call_outcome import outcome
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.ui.helpers import Events, open_session, settle, wait_until


def _tool_line(window: MainWindow, call_id: str) -> str:
    """What the tool row of ``call_id`` says after the call's name and arguments (as drawn)."""
    model = window.pane.timeline_model
    index = model.row_of_call(call_id)
    assert index is not None, "the call is in the timeline"
    row = model.row_at(index)
    assert isinstance(row, MessageRow)
    call = next(c for c in row.message.tool_calls if c.call_id == call_id)
    renderer = window.pane.renderer
    said = outcome(row.message, call, row.results.get(call_id), renderer.activity, renderer.small)
    if said is not None:
        return said.text.strip()
    result = row.result_for(call_id)
    assert result is not None, "the row has the call's result"
    return ("✗ " if result.is_error else "→ ") + summaries.summarize_result(result)


def _failed_reply_caption(window: MainWindow) -> str | None:
    model = window.pane.timeline_model
    for i in range(model.rowCount()):
        row = model.row_at(i)
        if isinstance(row, MessageRow) and row.message.status == MessageStatus.ERROR:
            return summaries.status_caption(row.message)
    return None


async def test_malformed_call_and_unreadable_reply_are_shown_and_the_turn_goes_on(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "notes.md").write_text("remember the milk\n")
    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("read_file", '{"path": "notes.md"', id="call_bad")]),
        Reply(fault=Fault.llama_cpp_error("Failed to parse input at pos 0: <tool_call>read_file",
                                          after_chunks=0)),
        Reply(tool_calls=[ToolCallSpec("read_file", {"path": "notes.md"}, id="call_good")]),
        Reply(text="The note says: remember the milk."))
    sid = await open_session(real_window, real_kernel, title="Malformed", workdir=str(project))
    events = Events(real_kernel)
    panel = real_window.pane.status.vp_panel
    figures: list[str] = []
    real_kernel.bus.subscribe(lambda e: figures.append(panel.blocks["omni"].figures_label.text())
                              if isinstance(e, VPStatus) and e.state == "done" and "omni" in panel.blocks
                              else None)
    real_window.pane.composer.input.setPlainText("What does notes.md say?")
    real_window.pane.send()
    (done,) = await events.turns(1, sid)
    assert done.status == "completed", done.error
    await wait_until(lambda: real_window.pane.timeline_model.row_of_call("call_good") is not None
                     and _failed_reply_caption(real_window) is not None, 10, "rows shown")
    await settle(5)
    real_window.grab().save(str(shots / "malformed_call_rows.png"))
    line = _tool_line(real_window, "call_bad")
    assert line.startswith("✗ The arguments of this read_file call are not valid JSON"), line
    assert _tool_line(real_window, "call_good").startswith("→ ")
    caption = _failed_reply_caption(real_window)
    assert caption is not None and caption.startswith("Error — "), caption
    assert "Failed to parse input at pos 0" in caption
    assert figures and "1 failed" in figures[-1], figures
