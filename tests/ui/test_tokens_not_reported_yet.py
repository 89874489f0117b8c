"""Tokens while a request is on its way, in the window and in ``foya sessions status`` (Yeaft
Y41-Y43), on the real kernel and the HTTP fake model.

A provider reports usage at a request's end, so until then the status line says "not reported
yet"; "not provided" only for a request that ended without usage. Waiting for an approval the
request is over: its reported tokens show. And a second process asking ``foya sessions status``
while the first request is still on its way counts it, as the window does: the request is recorded
when it is sent (``store.ledger.request_started``), not only when it ends.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from foya_desktop.core.events import VPStatus
from foya_desktop.core.figures import RunFigures
from foya_desktop.core.model import ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.base import RetryPolicy, Timeouts
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.ui.composer.vp_status import VPStatusBlock
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.helpers.cli_process import foya_async
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.conftest import _window
from tests.ui.helpers import Events, open_session, settle, wait_until

HELD = 120.0
"""The fake model holds the first request this long before its first byte: far longer than the
test needs, which stops the turn once it has looked (nothing waits for it to pass)."""


@pytest.fixture
async def window_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        fake_provider: FakeProviderServer) -> AsyncIterator[Kernel]:
    """The window's kernel (it holds the session's lease, as the app does) with room for a held request."""
    root = tmp_path / "foya-home"
    monkeypatch.setenv("FOYA_HOME", str(root))
    kernel = build_kernel(Home(root), keystore=KeyStore(MemoryKeyring()), kind="window",
                          timeouts=Timeouts(connect=2, first_byte=HELD * 2, idle=30, total=HELD * 3),
                          retry=RetryPolicy(max_attempts=1))
    await kernel.connections.add_connection(
        Connection("fake", ProviderKind.OPENAI, fake_provider.base_url, "fake-model"))
    yield kernel
    await kernel.close()


def _block(window: MainWindow) -> VPStatusBlock | None:
    return window.pane.status.vp_panel.blocks.get("omni")


def _figures(window: MainWindow) -> str:
    block = _block(window)
    return block.figures_label.text() if block is not None else ""


async def test_a_request_on_its_way_is_not_reported_yet_here_and_counted_by_another_process(
        window_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path, shots: Path) -> None:
    fake_provider.script(Reply(text="late", usage=(11, 7), fault=Fault.hang_before_first_byte(HELD)))
    async with _window(window_kernel) as window:
        sid = await open_session(window, window_kernel, title="Held")
        events = Events(window_kernel)
        window.pane.composer.input.setPlainText("take your time")
        window.pane.send()
        await wait_until(lambda: "1 model request" in _figures(window), timeout=15, what="the request counted")
        await wait_until(lambda: fake_provider.requests, timeout=15, what="the request at the fake model")
        assert "tokens: not reported yet" in _figures(window)
        assert "not provided" not in _figures(window)
        await settle()
        window.grab().save(str(shots / "tokens-not-reported-yet.png"))

        code, out, err = await foya_async(tmp_path / "foya-home", "sessions", "status", sid, "--json")
        assert code == 0, err
        status = json.loads(out)
        assert status["state"] == "running"
        (vp,) = status["vps"]
        assert (vp["requests"], vp["requests_open"]) == (1, 1)  # the window's "1 model request"
        assert vp["input_tokens"] is None and vp["output_tokens"] is None
        code, out, err = await foya_async(tmp_path / "foya-home", "sessions", "status", sid)
        assert code == 0 and "tokens: not reported yet" in out and "model requests 1 " in out, out + err

        window.pane.composer.stop_button.click()
        assert (await events.turns(1, sid))[0].status == "stopped"


@pytest.mark.parametrize(("report", "phrase"), [(True, "input 11 · output 7 tokens"),
                                                 (False, "tokens: not provided by the service")])
async def test_waiting_for_approval_shows_what_the_ended_request_reported(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path, report: bool, phrase: str) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    fake_provider.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "n.md", "content": "hi"})],
                               usage=(11, 7), report_usage=report), Reply(text="Written.", usage=(3, 2)))
    sid = await open_session(real_window, real_kernel, workdir=str(project), approval_mode=ApprovalMode.ASK)
    events = Events(real_kernel)
    real_window.pane.composer.input.setPlainText("write it")
    real_window.pane.send()
    await wait_until(lambda: real_window.pane.attention.card is not None, timeout=15, what="approval card")
    await settle()
    assert phrase in _figures(real_window), _figures(real_window)
    assert "not reported yet" not in _figures(real_window)
    real_window.grab().save(str(shots / f"tokens-waiting-for-approval-{'reported' if report else 'none'}.png"))
    card = real_window.pane.attention.card
    assert card is not None
    card.buttons["once"].click()
    assert (await events.turns(1, sid))[0].status == "completed"


async def test_before_the_first_request_nothing_is_said_to_be_not_provided(
        real_window: MainWindow, real_kernel: Kernel) -> None:
    """A VP's block appears as its run starts, before its first request is even sent: nothing
    could have been reported; once a request ended without usage, the service did not provide it."""
    sid = await open_session(real_window, real_kernel)
    pane = real_window.pane
    pane.composer.set_busy(True)
    pane.on_vp_status(VPStatus(sid, "t1", "omni", "running"))
    await settle()
    assert "tokens: not reported yet · 0 model requests" in _figures(real_window)
    pane.on_vp_status(VPStatus(sid, "t1", "omni", "running", requests=1, figures=RunFigures(requests=1)))
    assert "tokens: not provided by the service · 1 model request" in _figures(real_window)
    pane.composer.set_busy(False)
