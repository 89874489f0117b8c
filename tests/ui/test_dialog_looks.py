"""The dialogs follow the theme: connections, new session, VP library, MCP servers, usage, session
settings, rewind preview, preferences — in light and dark. Buttons, fields and combo boxes get the
type scale's hit sizes, the default button is the accent, fields sit on the base colour; the queue's
small buttons are comfortable to hit. Screenshots of each go to /tmp/shots-desk/ (looked at)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QLineEdit, QPushButton, QWidget

from foya_desktop.core.records import QueueItem
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.rewind import RewindPreview
from foya_desktop.engine.ops.rewind_files import UnsafeFile
from foya_desktop.store.preferences import Preferences
from foya_desktop.ui import theme
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.composer.queue_widget import QueueWidget
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.dialogs.mcp_servers import McpServersDialog
from foya_desktop.ui.dialogs.new_session import NewSessionDialog
from foya_desktop.ui.dialogs.preferences import PreferencesDialog
from foya_desktop.ui.dialogs.usage import UsageDialog
from foya_desktop.ui.dialogs.vp_library import VPLibraryDialog
from foya_desktop.ui.ops.merge_dialog import MergeDialog
from foya_desktop.ui.ops.rewind_dialog import RewindDialog
from tests.fakeprovider import FakeProviderServer, Reply
from tests.ui.helpers import Events, settle

SHOTS = Path("/tmp/shots-desk")


@pytest.fixture(params=["light", "dark"])
async def themed(request: pytest.FixtureRequest, qapp: QApplication) -> AsyncIterator[str]:
    choice = str(request.param)
    theme.apply_theme(choice)  # type: ignore[arg-type]
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield choice
    finally:
        theme.apply_theme("light")


async def _merge_preview(kernel: Kernel, fake_provider: FakeProviderServer) -> MergeDialog:
    """A real merge plan: one shared turn, then a turn on each side."""
    fake_provider.script(Reply(text="Shared."), Reply(text="From A."), Reply(text="From B."))
    events = Events(kernel)
    a = await kernel.sessions.create_session(title="Plan A", connection="fake", model="fake-model")
    await kernel.turns.send(a.id, "shared start")
    await events.turns(1, a.id)
    b = await kernel.lifecycle.fork(a.id)
    await kernel.turns.send(a.id, "idea from A")
    await events.turns(2, a.id)
    await kernel.turns.send(b.id, "idea from B")
    await events.turns(1, b.id)
    return MergeDialog(await kernel.lifecycle.merge_preview(a.id, b.id), "Plan A", "Plan B")


async def _dialogs(kernel: Kernel, runner: TaskRunner, session_id: str, tmp_path: Path) -> dict[str, QDialog]:
    connections = ConnectionsDialog(kernel, runner)
    await connections.refresh()
    library = VPLibraryDialog(kernel)
    await library.refresh()
    usage = UsageDialog(kernel, runner, session_id)
    await usage.reload()
    preview = RewindPreview(session_id, "m", 3, 9, "tok", "fix the login form", 2,
                            ("src/login.py", "src/forms.py"), ("notes.md",),
                            (UnsafeFile("run.log", "changed by a command"),))
    return {
        "connections": connections,
        "new_session": NewSessionDialog(await kernel.vps.list_vps(), await kernel.projects.list_projects(),
                                        await kernel.connections.list_connections(), str(tmp_path)),
        "vp_library": library,
        "mcp_servers": McpServersDialog(kernel, runner, None),
        "usage": usage,
        "rewind_preview": RewindDialog(preview),
        "preferences": PreferencesDialog(Preferences(), await kernel.connections.list_connections(), tmp_path),
    }


def _luma(color: QColor) -> float:
    return 0.2126 * color.redF() + 0.7152 * color.greenF() + 0.0722 * color.blueF()


async def test_dialogs_follow_the_theme_with_comfortable_hit_sizes(
        themed: str, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path) -> None:
    """Connections, new session, VP library and editor, MCP servers, usage, rewind and merge previews,
    Preferences."""
    runner = TaskRunner()
    project = tmp_path / "proj"  # not the folder holding the data folder (a broad project asks first)
    project.mkdir()
    session = await real_kernel.sessions.create_session(title="Looks", workdir=str(project), connection="fake",
                                               model="fake-model")
    dialogs = await _dialogs(real_kernel, runner, session.id, tmp_path)
    dialogs["merge_preview"] = await _merge_preview(real_kernel, fake_provider)
    c = theme.colors(themed == "dark")
    problems: list[str] = []
    for name, dialog in dialogs.items():
        dialog.resize(max(dialog.sizeHint().width(), 560), max(dialog.sizeHint().height(), 360))
        dialog.show()
        await settle(3)
        dialog.grab().save(str(SHOTS / f"{name}_{themed}.png"))
        window = dialog.palette().color(dialog.backgroundRole())
        if (_luma(window) < 0.5) != (themed == "dark"):
            problems.append(f"{name}: background {window.name()} is not {themed}")
        widgets: list[QWidget] = dialog.findChildren(QWidget)
        for w in widgets:
            if not w.isVisibleTo(dialog):
                continue
            if isinstance(w, (QPushButton, QComboBox, QLineEdit)) and w.height() < theme.SMALL_HIT - 2:
                problems.append(f"{name}: {type(w).__name__} {getattr(w, 'text', lambda: '')()!r} is "
                                f"{w.height()} px high")
        default = next((b for b in dialog.findChildren(QPushButton)
                        if b.isDefault() and b.isVisible() and b.isEnabled()), None)
        if default is not None:
            shot = default.grab().toImage()
            middle = QColor(shot.pixel(shot.width() // 2, 3))
            if abs(middle.hue() - QColor(c["highlight"]).hue()) > 12:
                problems.append(f"{name}: the default button {default.text()!r} is not the accent colour")
        dialog.close()
        dialog.deleteLater()
    await runner.drain()
    assert problems == [], "\n".join(problems)


async def test_queue_buttons_are_themed_and_comfortable_to_hit(themed: str, qapp: QApplication) -> None:
    queue = QueueWidget()
    queue.set_items((QueueItem("q1", "first queued message", 1), QueueItem("q2", "second", 2)), paused=False)
    queue.resize(520, 220)
    queue.show()
    await settle(3)
    queue.grab().save(str(SHOTS / f"queue_{themed}.png"))
    buttons = [b for b in queue.findChildren(QWidget) if b.objectName() == "queueButton"]
    assert len(buttons) >= 5
    assert all(b.width() >= theme.SMALL_HIT and b.height() >= theme.SMALL_HIT for b in buttons)
    queue.close()
    queue.deleteLater()
