"""Screenshots of the real window in realistic states (saved to $FOYA_SHOTS or /tmp/foya-shots).

These are tests so they stay working, but their point is to be looked at.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialog

from foya_desktop.core.events import PartDelta, StreamStarted, VPStatus
from foya_desktop.core.messages import MessageStatus
from foya_desktop.core.model import VP, Connection, Phase, ProviderKind
from foya_desktop.core.records import QueueItem
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.main_window import MainWindow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import reply, settle, thinking, tool_call, tool_result, user, wait_until

FINDINGS = """Startup spends most of its time importing **pandas** at module level:

| step | time |
| --- | --- |
| `import pandas` | 420 ms |
| read config | 12 ms |

Move the import into `main()`:

```python
def main() -> int:
    import pandas as pd  # imported only when needed
    return run(pd.read_csv(CONFIG))
```
"""


def _seed(kernel: FakeKernel, tmp: Path) -> None:
    kernel.vp_list = [VP("linus", "Linus", "Linus — implementer", "You implement."),
                  VP("martin", "Martin", "Martin — reviewer", "You review.")]
    kernel.connection_map = {"openai": Connection("openai", ProviderKind.OPENAI, "https://api.openai.com/v1",
                                               "gpt-4.1"),
                          "local": Connection("local", ProviderKind.OPENAI, "http://127.0.0.1:11434/v1",
                                              "qwen3:8b")}


async def _rich_session(window: MainWindow, kernel: FakeKernel, tmp: Path) -> str:
    folder = tmp / "parser"
    folder.mkdir()
    session = await kernel.sessions.create_session(title="Speed up startup", workdir=str(folder),
                                          roster=["omni", "linus", "martin"], default_vp="omni",
                                          connection="openai", model="gpt-4.1")
    await kernel.sessions.create_session(title="Release notes 0.3")
    await kernel.sessions.create_session(title="Explore the tokenizer", workdir=str(folder))
    sid = session.id
    kernel.add_messages(sid, [
        user("Why does `foya` take two seconds to start? Look at src/app.py.", mid="u1"),
        reply("I'll check the entry point and measure imports.", mid="a1", parts=[
            thinking("The person asks about startup time. Read the entry point, then time the imports."),
            tool_call("c1", "read_file", path="src/app.py"),
            tool_call("c2", "shell", command="python -X importtime -c 'import app' 2>&1 | sort -k2 -n | tail"),
            tool_call("c3", "grep", pattern="import pandas", path="src/")]),
        tool_result("c1", "read_file", "import sys\nimport pandas as pd\n" * 60, mid="t1"),
        tool_result("c2", "shell", "import time: self [us] | cumulative | imported package\n..." * 10, mid="t2"),
        tool_result("c3", "grep", "grep: src/: Is a directory", error=True, mid="t3"),
        reply(FINDINGS, mid="a2"),
        user("@Linus make the change, @Martin review it", mid="u2"),
        reply("Done — `pandas` is now imported inside `main()`. Startup drops to **0.3 s**.", "linus", mid="a3",
              parts=[tool_call("c4", "edit_file", path="src/app.py")]),
        tool_result("c4", "edit_file", "Applied 1 edit to src/app.py", speaker="linus", mid="t4"),
        reply("Reviewing the diff: the lazy import is fine, but the type hint on `run`",
              "martin", mid="a4", status=MessageStatus.INTERRUPTED, meta={"interrupted_reason": "stopped by you"}),
        user("Now add a regression test for the startup time. 请把启动时间控制在 0.5 秒以内。", mid="u3"),
    ])
    await settle()
    window.tree_view.select_session(sid)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == sid)
    await window.runner.drain()
    return sid


async def _stream(window: MainWindow, kernel: FakeKernel, sid: str) -> None:
    kernel.set_phase(sid, Phase.TURN)
    kernel.publish(StreamStarted(sid, "st1", "linus", "t9"))
    kernel.publish(PartDelta(sid, "st1", "linus", "reasoning", "Plan the test first."))
    kernel.publish(PartDelta(sid, "st1", "linus", "text",
                             "I'll add `tests/test_startup.py`:\n\n```python\nimport subprocess, time\n\n"
                             "def test_starts_fast():\n    t0 = time.perf_counter()\n"))
    kernel.publish(VPStatus(sid, "t9", "linus", "running", requests=2, tool_runs=1))
    kernel.publish(VPStatus(sid, "t9", "martin", "waiting", requests=0, tool_runs=0))
    kernel.queues[sid] = [QueueItem("q1", "Then update the changelog", 1),
                          QueueItem("q2", "And bump the version to 0.3.1", 2)]
    kernel._queue_changed(sid)
    await settle(5)


async def test_screenshot_session_with_vps_tools_streaming_and_queue(fake_window: MainWindow,
                                                                      fake_kernel: FakeKernel,
                                                                      tmp_path: Path, shots: Path) -> None:
    _seed(fake_kernel, tmp_path)
    await fake_window.refresh_connections()
    sid = await _rich_session(fake_window, fake_kernel, tmp_path)
    await _stream(fake_window, fake_kernel, sid)
    fake_window.grab().save(str(shots / "window_session.png"))
    fake_window.pane.timeline_view.scrollToTop()
    await settle()
    fake_window.grab().save(str(shots / "window_session_top.png"))
    assert fake_window.pane.queue.isVisible()


def _grab_dialog[D: QDialog](kind: type[D], path: Path) -> D:
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible())
    dialog.grab().save(str(path))
    return dialog


async def test_screenshot_dialogs(fake_window: MainWindow, fake_kernel: FakeKernel, tmp_path: Path,
                                  shots: Path) -> None:
    _seed(fake_kernel, tmp_path)
    await fake_kernel.projects.add_project(str(tmp_path), "demo")
    fake_window._actions["new"].trigger()
    await wait_until(lambda: any(isinstance(w, NewSessionDialog) and w.isVisible()
                                 for w in QApplication.topLevelWidgets()))
    await settle()
    _grab_dialog(NewSessionDialog, shots / "dialog_new_session.png").reject()
    fake_kernel.problem = "No secure keyring backend is available (install gnome-keyring or KWallet)."
    fake_window._actions["connections"].trigger()
    await wait_until(lambda: any(isinstance(w, ConnectionsDialog) and w.isVisible()
                                 for w in QApplication.topLevelWidgets()))
    await settle()
    dialog = _grab_dialog(ConnectionsDialog, shots / "dialog_connections.png")
    dialog.list.setCurrentRow(0)
    await settle()
    dialog.grab().save(str(shots / "dialog_connections_selected.png"))
    dialog.reject()
    await fake_window.runner.drain()
