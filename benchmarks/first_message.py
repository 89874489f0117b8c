"""The first message of a fresh window into a 50,000-message session (issue 14: ≤ 16 ms on the GUI
thread). A command, not a test::

    QT_QPA_PLATFORM=offscreen python -m benchmarks.first_message

``benchmarks.timeline`` sends its first message after streaming in the same process, when the
HTTP stack is long loaded; a person sends theirs soon after opening the window. Importing that
stack on the loop at the first request froze the window 30–60 ms, which only a fresh process
shows. So this builds the session, then starts a second interpreter that does what the app does
(build the window, list the sessions, start the warm-ups of ``foya_desktop.app``, show the
session) and sends the message a moment later, as a person would.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timeline import FIRST_MESSAGE_REPLIES, build_session, measure_first_message
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer

KEY_ENV = "FOYA_BENCH_KEY"
TYPING_S = 2.0
"""From the session shown to the message sent: the warm-ups run meanwhile, as while a person types."""


async def build(home: Path, base_url: str) -> str:
    """A home with the fake connection and one 50k session; returns the session id."""
    kernel = build_kernel(Home(home))
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, base_url,
                                                       "fake-model", api_key_env=KEY_ENV))
    session_id = await build_session(kernel, "first message", 50_000)
    await kernel.close()
    return session_id


async def child(home: Path, session_id: str) -> None:
    """The window's side, in a fresh interpreter: start as ``foya_desktop.app`` does, send, measure."""
    from foya_desktop.app import WarmUps, warm_up, warm_up_providers
    from foya_desktop.ui.bridge import EngineBridge
    from foya_desktop.ui.gc_timer import GuiThreadCollector
    from foya_desktop.ui.main_window import MainWindow

    kernel = build_kernel(Home(home))
    window = MainWindow(kernel, EngineBridge(kernel.bus), use_tray=False)
    collector = GuiThreadCollector(window)
    collector.start()
    window.resize(1200, 800)
    window.show()
    warm = WarmUps()
    warm.start(warm_up)
    await window.start()
    warm.start(warm_up_providers)
    collector.freeze_startup()
    await window.show_session(await kernel.sessions.get_session(session_id))
    await window.runner.drain()
    await asyncio.sleep(TYPING_S)
    await measure_first_message(window, kernel, session_id,
                                "first message of a fresh window into the 50k session")
    print(f"  {collector.histogram()} (goal: none over 16 ms)", flush=True)
    window.quit_controller.quitting = True
    window.close()
    await warm.finish()
    await kernel.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", nargs=2, metavar=("HOME", "SESSION"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        import qasync
        from PySide6.QtWidgets import QApplication

        from benchmarks.timeline import quiet_offscreen_plugin

        quiet_offscreen_plugin()
        app = QApplication(sys.argv)
        app.setQuitOnLastWindowClosed(False)  # the child closes its window, then the engine
        qasync.run(child(Path(args.child[0]), args.child[1]))
        return 0
    with tempfile.TemporaryDirectory(prefix="foya-bench-") as tmp, FakeProviderServer() as fake:
        env = {**os.environ, "FOYA_HOME": tmp, KEY_ENV: "sk-bench"}
        os.environ.update(env)
        session_id = asyncio.run(build(Path(tmp), fake.base_url))
        fake.script(*FIRST_MESSAGE_REPLIES)
        return subprocess.run([sys.executable, "-m", "benchmarks.first_message", "--child", tmp, session_id],
                              env=env, check=False, timeout=300).returncode


if __name__ == "__main__":
    sys.exit(main())
