"""A three-VP session in the real window on the real kernel: a RouteForward hand-off is drawn as
"→ Martin: …" in the sender's block and Martin's reply follows in his own (Y31, Y28, Y37)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from foya_desktop.core.events import TurnFinished
from foya_desktop.core.model import VP, Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.main_window import MainWindow
from foya_desktop.ui.timeline.rows import MessageRow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.ui.helpers import settle, wait_until


def _who(body: dict[str, Any]) -> str:
    return system_prompt(body).split("Your name in this session is ", 1)[1].split(" ", 1)[0]


async def test_three_vps_with_a_hand_off(real_window: MainWindow, real_kernel: Kernel,
                                         fake_provider: FakeProviderServer, tmp_path: Path, shots: Path) -> None:
    project = tmp_path / "parser"
    project.mkdir()
    (project / "app.py").write_text("import pandas as pd\n\ndef main():\n    return pd\n")
    await real_kernel.vps.add_vp(VP("", "Linus", "Linus — implementer", "You implement."))
    await real_kernel.vps.add_vp(VP("", "Martin", "Martin — reviewer", "You review."))

    def respond(body: dict[str, Any]) -> Reply:
        who, last = _who(body), body["messages"][-1]
        if who == "Omni":
            return Reply(text="Startup is slow because `pandas` is imported at module level. "
                              "Linus can move it into `main()`.", delay_per_chunk=0.005)
        if who == "Linus" and last["role"] == "tool":
            return Reply(text="Moved the import into `main()`; handing the diff to Martin for review.")
        if who == "Linus":
            return Reply(tool_calls=[ToolCallSpec("read_file", {"path": "app.py"}, id="r1"),
                                     ToolCallSpec("route_forward", {
                                         "vp": "Martin", "message": "Please review the lazy pandas import "
                                                                   "in app.py: correctness and a test."},
                                         id="rf1")])
        return Reply(text="Reviewed: the lazy import is correct. Add a test that `import app` does not "
                          "import pandas.", delay_per_chunk=0.005)

    fake_provider.responder = respond
    session = await real_kernel.sessions.create_session(title="Speed up startup", connection="fake", model="fake-model",
                                               workdir=str(project), roster=["omni", "Linus", "Martin"],
                                               default_vp="omni")
    finished: list[TurnFinished] = []
    real_kernel.bus.subscribe(lambda e: finished.append(e) if isinstance(e, TurnFinished) else None)
    await wait_until(lambda: real_window.tree_model.session(session.id) is not None, what="tree row")
    real_window.tree_view.select_session(session.id)
    await wait_until(lambda: real_window.pane.session is not None and real_window.pane.session.id == session.id)
    await real_window.runner.drain()
    pane = real_window.pane
    for text in ("Why is startup slow?", "@Linus fix it"):
        count = len(finished)
        pane.composer.input.setPlainText(text)
        pane.send()
        await wait_until(lambda n=count: len(finished) > n, timeout=20, what="turn finished")  # type: ignore[misc]
        assert finished[-1].status == "completed", finished[-1].error
    await wait_until(lambda: real_kernel.turns.phase(session.id) == Phase.IDLE)
    await settle(5)
    model = pane.timeline_model
    rows = [model.row_at(i) for i in range(model.rowCount())]
    speakers = [r.message.speaker for r in rows if isinstance(r, MessageRow) and r.message.role == "assistant"]
    assert speakers == ["omni", "linus", "linus", "martin"]
    route_rows = [r for r in rows if isinstance(r, MessageRow)
                  and any(c.name == "route_forward" for c in r.message.tool_calls)]
    assert route_rows and route_rows[0].result_for("rf1") is not None
    renderer = pane.renderer
    segments = renderer._route_segments(route_rows[0].message.tool_calls[1])
    assert segments[0].text == "→ Martin: " and segments[1].text.startswith("Please review the lazy")
    real_window.resize(1100, 820)
    await settle(5)
    real_window.grab().save(str(shots / "route_forward_three_vps.png"))
