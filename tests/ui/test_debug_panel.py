"""The debug panel on the real kernel and the fake provider (Yeaft Y05, Y39)."""

from __future__ import annotations

import json
from pathlib import Path

from foya_desktop.core.events import TurnFinished
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import settle, wait_until


async def test_debug_panel_shows_each_request_and_tool_call_of_the_turn(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("hello\n")
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], usage=(321, 12)),
                         Reply(text="It says hello.", usage=(400, 6)))
    session = await real_kernel.sessions.create_session(connection="fake", model="fake-model", workdir=str(project),
                                               approval_mode=ApprovalMode.AUTO)
    await wait_until(lambda: real_window.tree_model.session(session.id) is not None, what="tree row")
    real_window.tree_view.select_session(session.id)
    await wait_until(lambda: real_window.pane.session is not None)
    await real_window.runner.drain()
    pane = real_window.pane
    finished: list[TurnFinished] = []
    real_kernel.bus.subscribe(lambda e: finished.append(e) if isinstance(e, TurnFinished) else None)
    pane.status.debug.click()
    assert pane.debug.isVisibleTo(real_window)
    pane.composer.input.setPlainText("what does the readme say?")
    pane.composer.send_button.click()
    await wait_until(lambda: finished, timeout=15, what="turn finished")
    await wait_until(lambda: pane.debug.rows.topLevelItemCount() == 3, timeout=10, what="three traces")
    rows = [pane.debug.rows.topLevelItem(i) for i in range(3)]
    cells = [[r.text(c) for c in range(8)] for r in rows if r is not None]
    assert [c[0] for c in cells] == ["request", "tool", "request"]
    assert cells[0][2] == "fake/fake-model" and cells[0][3] == "321 / 12" and cells[0][4] == "tool_calls"
    assert cells[1][2] == "read_file" and cells[1][3].endswith("chars")
    assert cells[2][4] == "stop" and cells[2][7] == "0"
    detail = json.loads(pane.debug.detail.toPlainText())
    assert detail["request"]["messages"][0]["parts"][0]["text"] == "what does the readme say?"
    assert "read_file" in {t["name"] for t in detail["request"]["tools"]}
    assert "for you, the owner" in pane.debug.warning.text()
    assert finished[0].turn_id == pane.debug.turns.currentData()
    await settle(3)
    real_window.grab().save(str(shots / "debug_panel.png"))
    pane.status.debug.click()
    assert not pane.debug.isVisibleTo(real_window)
