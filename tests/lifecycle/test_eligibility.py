"""One rule for branch and rewind eligibility, shared by the kernel and the window's menus (issue 7)."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import Phase, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.eligibility import NOT_MOVABLE_META, rewind_block, valid_boundaries
from tests.lifecycle.conftest import Say


def _menu_rules() -> ModuleType | None:
    """The window's menu module (it imports Qt for its labels): ``None`` in the Qt-free CI job,
    where the kernel half of each test still runs."""
    try:
        return importlib.import_module("foya_desktop.ui.ops.boundaries")
    except ModuleNotFoundError as missing:
        if missing.name and missing.name.split(".")[0] in ("PySide6", "shiboken6"):
            return None
        raise


async def test_the_kernel_accepts_a_branch_exactly_where_the_menu_offers_one(
        kernel: Kernel, session: Session, say: Say) -> None:
    """F32: every message is tried; the kernel's verdict equals the shared rule's."""
    await say("hello")
    await say("write notes.txt one")
    history = await kernel.store.valid_messages(session.id)
    offered = valid_boundaries(history)
    assert offered and offered != {m.id for m in history}
    menus = _menu_rules()
    if menus is not None:
        assert menus.valid_boundaries is valid_boundaries  # the menu uses the very same rule
    for message in history:
        try:
            await kernel.lifecycle.branch(session.id, message.id)
            accepted = True
        except InvalidOperation:
            accepted = False
        assert accepted == (message.id in offered), (message.role, message.text)


async def test_rewind_refuses_what_the_menu_does_not_offer(kernel: Kernel, session: Session) -> None:
    """F39: the composer cannot hold browser elements or a command id: neither side offers the rewind."""
    stored = await kernel.store.append_message(Message(
        "msg_meta", session.id, "user", (TextPart("run it"),), turn_id="turn_x",
        meta={NOT_MOVABLE_META[1]: "cmd_1"}))
    assert rewind_block(stored) == "not_movable_meta"
    menus = _menu_rules()
    if menus is not None:
        assert menus.rewind_refusal(stored, Phase.IDLE) is not None
    with pytest.raises(InvalidOperation, match="command id"):
        await kernel.lifecycle.rewind_preview(session.id, stored.id)
