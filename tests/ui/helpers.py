"""Awaitable waiting for async UI tests (no nested Qt event loops; see conftest.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QApplication, QDialog

from foya_desktop.core.messages import (
    Message,
    MessageStatus,
    Part,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolState,
)
from foya_desktop.ui.picker.dialog import FolderPicker


async def settle(rounds: int = 3) -> None:
    """Let queued Qt events and asyncio callbacks run (layout, repaint, posted slots).

    NOTE: never call ``QApplication.processEvents()`` inside a coroutine under
    qasync: it runs other tasks' steps re-entrantly inside this task's step;
    asyncio refuses to enter them and their wake-ups are lost for good (the task
    hangs forever). Sleeping hands control back to the Qt loop instead.
    """
    for _ in range(rounds):
        await asyncio.sleep(0.01)


async def wait_until(predicate: Callable[[], Any], timeout: float = 5.0, what: str = "") -> None:
    """Poll ``predicate`` while the qasync loop keeps running Qt and asyncio."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.01)


async def wait_signal(signal: SignalInstance, timeout: float = 5.0) -> tuple[Any, ...]:
    """The arguments of the next emission of ``signal``."""
    future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def fire(*args: Any) -> None:
        if not future.done():
            future.set_result(args)

    signal.connect(fire)
    try:
        return await asyncio.wait_for(future, timeout)
    finally:
        signal.disconnect(fire)


# ---- dialogs -------------------------------------------------------------------------------

def visible_dialog[D: QDialog](kind: type[D], name: str | None = None) -> D | None:
    """The open dialog of this kind (and object name, if given), if any."""
    return next((w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()
                 and (name is None or w.objectName() == name)), None)


async def dialog_of[D: QDialog](kind: type[D], name: str | None = None) -> D:
    """Wait for a dialog of this kind (and object name, if given) to open."""
    await wait_until(lambda: visible_dialog(kind, name) is not None, what=f"{kind.__name__} {name or ''} open")
    found = visible_dialog(kind, name)
    assert found is not None
    return found


async def pick_folder(folder: Path) -> FolderPicker:
    """Type ``folder`` into the open folder picker and load it; the picker, not yet confirmed."""
    picker = await dialog_of(FolderPicker)
    picker.path_edit.setText(str(folder))
    picker.go_button.click()
    await wait_until(lambda: picker.chosen() == str(folder) and picker.confirm_enabled(), what="loaded")
    return picker


# ---- message builders ----------------------------------------------------------------------

def user(text: str, mid: str = "") -> Message:
    """A user message (id filled in by the fake kernel if empty)."""
    return Message(mid or f"msg_u_{abs(hash(text)) % 10**8}", "", "user", (TextPart(text),))


def reply(text: str, speaker: str = "omni", *, mid: str = "", parts: Sequence[Part] = (),
          status: MessageStatus = MessageStatus.COMPLETE, turn_id: str = "", meta: dict[str, Any] | None = None) -> Message:
    """An assistant message with text (and optional extra parts first)."""
    body = (*parts, TextPart(text)) if text else tuple(parts)
    return Message(mid or f"msg_a_{abs(hash((text, speaker, tuple(parts)))) % 10**8}", "", "assistant", body,
                   speaker=speaker, status=status, turn_id=turn_id, meta=meta or {})


def tool_call(call_id: str, name: str, **arguments: Any) -> ToolCallPart:
    """A completed tool call part."""
    return ToolCallPart(call_id, name, arguments, ToolState.COMPLETED)


def tool_result(call_id: str, name: str, content: str, *, error: bool = False, speaker: str = "omni",
                mid: str = "") -> Message:
    """A tool result message."""
    return Message(mid or f"msg_t_{call_id}", "", "tool", (ToolResultPart(call_id, name, content, error),),
                   speaker=speaker)


def thinking(text: str) -> ReasoningPart:
    """A reasoning part."""
    return ReasoningPart(text)


def conversation(count: int) -> list[Message]:
    """``count`` alternating user/assistant messages with some markdown."""
    out: list[Message] = []
    for i in range(count):
        if i % 2 == 0:
            out.append(user(f"Question {i}: how does part {i} work?", mid=f"msg_{i:06d}"))
        else:
            out.append(reply(f"Answer {i}. It uses **bold** text, `code` and a list:\n\n- one\n- two\n",
                             mid=f"msg_{i:06d}"))
    return out


# ---- the real window on the real kernel ----------------------------------------------------

async def open_session(window: Any, kernel: Any, **settings: Any) -> str:
    """Create a session on the fake connection, select it in the tree, wait until it is shown."""
    session = await kernel.sessions.create_session(connection="fake", model="fake-model", **settings)
    await wait_until(lambda: window.tree_model.session(session.id) is not None, what="tree row")
    window.tree_view.select_session(session.id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session.id,
                     what="session shown")
    await window.runner.drain()
    return str(session.id)


async def show(window: Any, session_id: str) -> None:
    """Select a session in the tree and wait until the pane shows it (history loaded)."""
    await wait_until(lambda: window.tree_model.session(session_id) is not None, what="tree row")
    window.tree_view.select_session(session_id)
    await wait_until(lambda: window.pane.session is not None and window.pane.session.id == session_id,
                     what="session shown")
    await window.runner.drain()
    await settle()


class Events:
    """Every event a kernel publishes from now on (subscribe before acting)."""

    def __init__(self, kernel: Any) -> None:
        self.seen: list[Any] = []
        kernel.bus.subscribe(self.seen.append)

    def of(self, kind: type, session_id: str | None = None) -> list[Any]:
        """Events of one type (of one session), in order."""
        return [e for e in self.seen if isinstance(e, kind) and (session_id is None or getattr(e, "session_id", None) == session_id)]

    async def turns(self, count: int, session_id: str | None = None, timeout: float = 15.0) -> list[Any]:
        """Wait until ``count`` turns have finished; returns them."""
        from foya_desktop.core.events import TurnFinished

        await wait_until(lambda: len(self.of(TurnFinished, session_id)) >= count, timeout, f"{count} turns")
        return self.of(TurnFinished, session_id)

