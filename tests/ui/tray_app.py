"""The real window under X11 with a real tray host, for ``tests/ui/test_tray_xvfb.py``.

It waits until a tray host (trayer) holds the system-tray selection, opens the
window on a real kernel (temporary data folder) talking to the fake provider,
sends a slowly streamed message, closes the window mid-turn, waits for the turn
to finish and then reads the tray's message as Qt shows it on this host (the
balloon next to the icon). It prints one JSON line and exits.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import qasync
from PySide6.QtWidgets import QApplication, QLabel, QSystemTrayIcon

from foya_desktop.core.events import TurnFinished
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui.bridge import EngineBridge
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.fake_keyring import MemoryKeyring


def _balloon_texts(app: QApplication) -> list[str]:
    """The texts of Qt's tray message balloons on screen (QBalloonTip is Qt's own widget)."""
    texts = []
    for widget in app.topLevelWidgets():
        if widget.metaObject().className() == "QBalloonTip" and widget.isVisible():
            texts += [label.text() for label in widget.findChildren(QLabel) if label.text()]
    return texts


async def _until(predicate: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def scenario(app: QApplication, home: Path, server: FakeProviderServer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    out["tray"] = await _until(QSystemTrayIcon.isSystemTrayAvailable, 15)
    if not out["tray"]:
        return out
    kernel = build_kernel(Home(home), keystore=KeyStore(MemoryKeyring()))
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, server.base_url, "fake-model"))
    finished: list[TurnFinished] = []
    kernel.bus.subscribe(lambda e: finished.append(e) if isinstance(e, TurnFinished) else None)
    bridge = EngineBridge(kernel.bus)
    window = MainWindow(kernel, bridge, use_tray=None, preferences=PreferencesFile(Home(home)))
    window.show()
    await window.start()
    shown: list[tuple[str, str, str]] = []
    window.tray_agent.notified.connect(lambda *item: shown.append(item))
    told: list[tuple[str, str]] = []
    window.quit_controller.told_about_tray.connect(lambda *m: told.append(m))
    out["tray_icon_visible"] = window.quit_controller.tray is not None and window.quit_controller.tray.isVisible()
    session = await kernel.sessions.create_session(title="Long answer", connection="fake", model="fake-model")
    await _until(lambda: window.tree_model.session(session.id) is not None, 5)
    window.tree_view.select_session(session.id)
    await _until(lambda: window.current_session_id() == session.id, 10)
    window.pane.composer.input.setPlainText("take your time")
    window.pane.send()
    out["running"] = await _until(lambda: window.tray_agent.running == [session.id], 10)
    window.close()  # mid-turn
    out["hidden_mid_turn"] = not window.isVisible() and not finished
    out["told"] = [t for t, _ in told]
    out["finished"] = await _until(lambda: bool(finished), 30) and finished[0].status
    out["balloon"] = []
    await _until(lambda: bool(shown), 10)
    if await _until(lambda: "Reply finished" in _balloon_texts(app), 10):
        out["balloon"] = _balloon_texts(app)
        shots = Path(os.environ.get("FOYA_SHOTS", "/tmp/foya-shots"))
        shots.mkdir(parents=True, exist_ok=True)
        screen = app.primaryScreen()
        screen.grabWindow(0).save(str(shots / "tray-notification-xvfb.png"))  # the whole X screen
    out["notified"] = [list(item) for item in shown]
    out["stored"] = [m.role for m in await kernel.history.history_page(session.id, before_seq=None, limit=10)]
    window.quit_controller.quitting = True
    bridge.close()
    await kernel.close()
    return out


def main() -> None:
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    app.setStyle("Fusion")
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    slow = Reply(text="The long answer arrives slowly. " * 3, chunk_size=6, delay_per_chunk=0.05)
    with tempfile.TemporaryDirectory() as tmp, FakeProviderServer() as server, loop:
        server.script(slow)
        result = loop.run_until_complete(scenario(app, Path(tmp) / "home", server))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
