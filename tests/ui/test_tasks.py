"""The background tasks panel: list, inspect (live output), cancel — real kernel and model checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.tasks import panel as tasks_panel
from foya_desktop.ui.tasks.model import RECORD_ROLE, TaskListModel
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import Events, open_session, settle, show, wait_until


def _record(tid: str, sid: str = "ses_1", state: str = "running", created: int = 1, **kw: object) -> TaskRecord:
    return TaskRecord(tid, sid, "shell", f"make {tid}", state, created_at=created, **kw)  # type: ignore[arg-type]


def test_task_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = TaskListModel()
    model.set_tasks([_record("a", created=1), _record("b", state="failed", exit_code=2, created=3)])
    qtmodeltester.check(model)
    assert [model.record(i).id for i in range(2)] == ["b", "a"]  # type: ignore[union-attr]
    assert model.index(0, 0).data() == "✗ failed (exit 2)"
    model.upsert(_record("c", created=5))
    model.upsert(_record("a", state="completed", exit_code=0, created=1))
    qtmodeltester.check(model)
    assert [model.record(i).id for i in range(3)] == ["c", "b", "a"]  # type: ignore[union-attr]
    assert model.index(2, 0).data() == "✓ done" and model.index(2, 0).data(RECORD_ROLE).state == "completed"


async def test_panel_follows_task_events_of_the_session_on_screen(fake_window: MainWindow,
                                                                 fake_kernel: FakeKernel) -> None:
    session = await fake_kernel.sessions.create_session(title="Builds")
    other = await fake_kernel.sessions.create_session(title="Other")
    await settle()
    await show(fake_window, session.id)
    panel = fake_window.pane.tasks
    assert not panel.isVisible()
    fake_kernel.put_task(_record("t1", session.id, output_tail="compiling…\n"))
    fake_kernel.put_task(_record("t9", other.id))
    await settle()
    assert panel.isVisible() and panel.model.rowCount() == 1
    assert panel.header.text() == "Background tasks · 1 running"
    panel.header.click()
    await fake_window.runner.drain()
    assert panel.body.isVisible() and panel.selected() == "t1"
    assert panel.output.toPlainText() == "compiling…\n" and panel.cancel_button.isEnabled()
    panel.cancel_button.click()
    await fake_window.runner.drain()
    await settle()
    assert fake_kernel.called("cancel_task") == [(session.id, "t1")]
    assert panel.state.text() == "■ cancelled" and not panel.cancel_button.isEnabled()
    assert panel.header.text() == "Background tasks · 1 finished"
    await show(fake_window, other.id)
    assert panel.model.rowCount() == 1 and panel.model.record(0).id == "t9"  # type: ignore[union-attr]


async def test_background_task_from_a_real_turn_can_be_inspected_and_cancelled(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tasks_panel, "REFRESH_MS", 100)
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(
        Reply(tool_calls=[ToolCallSpec("run_background", {"command": "echo started; sleep 30"})]),
        Reply(text="The server runs in the background."))
    events = Events(real_kernel)
    sid = await open_session(real_window, real_kernel, title="Server", workdir=str(project), approval_mode="auto")
    real_window.pane.composer.input.setPlainText("start the server")
    real_window.pane.send()
    assert (await events.turns(1))[0].status == "completed"
    panel = real_window.pane.tasks
    await wait_until(lambda: panel.isVisible() and panel.model.rowCount() == 1, what="task row")
    assert panel.header.text() == "Background tasks · 1 running"
    panel.header.click()
    await wait_until(lambda: "started" in panel.output.toPlainText(), timeout=10, what="live output")
    assert panel.title.text() == "echo started; sleep 30" and panel.cancel_button.isEnabled()
    panel.cancel_button.click()
    await wait_until(lambda: (r := panel.model.record(0)) is not None and r.state == "cancelled",
                     timeout=10, what="cancelled")
    await real_window.runner.drain()
    (record,) = await real_kernel.tasks.list_tasks(sid)
    assert record.state == "cancelled"
    assert not panel.cancel_button.isEnabled() and not panel._timer.isActive()
