"""Agent mode is real: plan offers no writing tools and says so; a plan waits for confirmation.

Foya seed F15 (agent mode separate from phase, governs how the agent works);
the Yeaft seed's point that "investigate first" in a message is no sandbox.
Real kernel, real SQLite, the fake provider over HTTP.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import AgentMode, ApprovalMode, Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.agent_mode import CONFIRM_TEXT
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_turns

READ_ONLY_OFFER = {"read_file", "list_dir", "glob", "grep", "view_image", "ask_user", "task_list",
                   "task_output", "memory"}
"""``memory`` changes nothing in the project (a user-scope save still asks the person)."""


def _offered(body: dict[str, object]) -> set[str]:
    return {t["function"]["name"] for t in body.get("tools", [])}  # type: ignore[attr-defined]


async def test_plan_mode_offers_no_writing_tool_and_refuses_a_write(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "x.txt", "content": "no"})]),
                Reply(tool_calls=[ToolCallSpec("run_command", {"command": "touch y.txt"})]),
                Reply(text="1. Read the code. 2. Change app.py."))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.sessions.update_session(s.id, agent_mode="plan")
    await kernel.turns.send(s.id, "investigate first")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    first = fake.requests[0].body
    assert _offered(first) == READ_ONLY_OFFER
    assert not {"write_file", "edit_file", "run_command", "spawn_agent"} & _offered(first)
    assert "Plan mode" in system_prompt(first) and "no tool that writes files" in system_prompt(first)
    assert not (project / "x.txt").exists() and not (project / "y.txt").exists()
    results = [m.tool_result for m in await kernel.history.history_page(s.id) if m.tool_result is not None]
    assert [r.is_error for r in results] == [True, True]
    assert all("not available in plan mode" in r.content for r in results)
    after = await kernel.sessions.get_session(s.id)
    assert after.agent_mode == AgentMode.AWAITING_CONFIRMATION
    assert kernel.turns.phase(s.id) == Phase.IDLE  # the mode is not the phase (F15)


async def test_confirming_a_plan_executes_it(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                             project: Path) -> None:
    fake.script(Reply(text="Plan: write x.txt."),
                Reply(tool_calls=[ToolCallSpec("write_file", {"path": "x.txt", "content": "done"})]),
                Reply(text="Done."))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.sessions.update_session(s.id, agent_mode="plan")
    await kernel.turns.send(s.id, "plan it")
    await wait_turns(rec, s.id, 1)
    assert (await kernel.sessions.get_session(s.id)).agent_mode == AgentMode.AWAITING_CONFIRMATION
    receipt = await kernel.turns.confirm_plan(s.id)
    assert receipt.message_id
    second, = (await wait_turns(rec, s.id, 2))[1:]
    assert second.status == "completed"
    assert (project / "x.txt").read_text() == "done"
    assert (await kernel.sessions.get_session(s.id)).agent_mode == AgentMode.EXECUTE
    assert "write_file" in _offered(fake.requests[1].body)
    assert "Plan mode" not in system_prompt(fake.requests[1].body)
    users = [m.text for m in await kernel.history.history_page(s.id) if m.role == "user"]
    assert users == ["plan it", CONFIRM_TEXT]


async def test_keep_planning_and_messages_while_awaiting_stay_read_only(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    fake.script(Reply(text="Plan A."), Reply(text="Plan B."), Reply(text="Plan C."))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    with pytest.raises(InvalidOperation, match="no plan waiting"):
        await kernel.turns.confirm_plan(s.id)
    await kernel.sessions.update_session(s.id, agent_mode="plan")
    await kernel.turns.send(s.id, "plan")
    await wait_turns(rec, s.id, 1)
    await kernel.turns.send(s.id, "what about tests?")  # still awaiting: read and discuss only
    await wait_turns(rec, s.id, 2)
    assert _offered(fake.requests[1].body) == READ_ONLY_OFFER
    assert "not confirmed your plan yet" in system_prompt(fake.requests[1].body)
    assert (await kernel.sessions.get_session(s.id)).agent_mode == AgentMode.AWAITING_CONFIRMATION
    assert (await kernel.turns.keep_planning(s.id)).agent_mode == AgentMode.PLAN
    await kernel.turns.send(s.id, "refine")
    await wait_turns(rec, s.id, 3)
    assert (await kernel.sessions.get_session(s.id)).agent_mode == AgentMode.AWAITING_CONFIRMATION
