""""Allow for this session" does what it says, or is greyed with the reason (docs/privacy-security.md "Approvals
and safety"), on the real kernel with the HTTP fake model calling ``run_command`` in ask mode.

A chain of commands has no narrow rule, so *Always* is greyed; the session grant is its exact
command line, and the same line runs unasked for the rest of the session. A network command
asks every time, so the card does not offer the session grant at all.
"""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.events import ApprovalRequested
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.cards.approval_card import no_rule_tip, no_session_tip
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.helpers import Events, open_session, settle
from tests.ui.test_approvals import _send_and_wait_card

CHAIN = "echo x > f && ls"


def _run(command: str) -> Reply:
    return Reply(tool_calls=[ToolCallSpec("run_command", {"command": command})])


async def _session(window: MainWindow, kernel: Kernel, tmp_path: Path) -> tuple[str, Path]:
    project = tmp_path / "proj"
    project.mkdir()
    sid = await open_session(window, kernel, title="Commands", workdir=str(project), approval_mode="ask")
    return sid, project


async def test_allow_for_this_session_on_a_chain_runs_the_same_line_unasked_next_time(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    fake_provider.script(_run(CHAIN), Reply(text="Listed."), _run(CHAIN), Reply(text="Listed again."),
                         _run(CHAIN + " -a"), Reply(text="Other."))
    sid, project = await _session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "make f and list")
    assert card.buttons["session"].isEnabled()
    assert not card.buttons["always"].isEnabled() and card.buttons["always"].toolTip() == no_rule_tip()
    card.buttons["session"].click()
    assert (await events.turns(1, sid))[0].status == "completed"
    assert (project / "f").read_text() == "x\n"
    (project / "f").unlink()
    real_window.pane.composer.input.setPlainText("again")
    real_window.pane.send()
    assert [t.status for t in await events.turns(2, sid)] == ["completed", "completed"]
    assert (project / "f").read_text() == "x\n"  # the same line ran without asking
    assert len(events.of(ApprovalRequested, sid)) == 1
    # the grant is the exact line: another line still asks
    card = await _send_and_wait_card(real_window, "and with -a")
    assert card.request.command == CHAIN + " -a"
    card.buttons["once"].click()
    await events.turns(3, sid)
    assert len(events.of(ApprovalRequested, sid)) == 2
    await settle()
    real_window.grab().save(str(shots / "session-grant-chain.png"))


async def test_a_network_command_greys_allow_for_this_session_with_the_reason(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, tmp_path: Path,
        shots: Path) -> None:
    fake_provider.script(_run("curl http://127.0.0.1:9/x"), Reply(text="Not fetched."))
    sid, _project = await _session(real_window, real_kernel, tmp_path)
    events = Events(real_kernel)
    card = await _send_and_wait_card(real_window, "fetch it")
    assert not card.request.can_session
    session = card.buttons["session"]
    assert not session.isEnabled() and session.toolTip() == no_session_tip()
    assert card.buttons["once"].isEnabled()
    await settle()
    real_window.grab().save(str(shots / "session-grant-network.png"))
    card.feedback.setText("not now")
    card.buttons["deny"].click()
    assert (await events.turns(1, sid))[0].status == "completed"
