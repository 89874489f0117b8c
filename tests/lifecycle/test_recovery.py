"""Restart: every session idle, dangling tool calls closed honestly, nothing re-executed."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.messages import Message, TextPart, ToolCallPart, ToolState
from foya_desktop.core.model import ApprovalMode, Phase
from foya_desktop.engine.ops.recovery import NOT_STARTED_RESULT
from foya_desktop.engine.request.context import INTERRUPTED_RESULT
from foya_desktop.store.ops_children import finish_child
from foya_desktop.store.tasks import get_task
from tests.fakeprovider import FakeProviderServer
from tests.lifecycle.conftest import KernelBox


async def test_running_and_pending_calls_get_interrupted_results(
        box: KernelBox, fake: FakeProviderServer, project: Path) -> None:
    kernel = box.kernel
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.store.append_message(Message("msg_u", s.id, "user", (TextPart("go"),), turn_id="t1"))
    await kernel.store.append_message(Message("msg_a", s.id, "assistant", (
        ToolCallPart("c_run", "write_file", {"path": "ran.txt", "content": "1"}, ToolState.RUNNING),
        ToolCallPart("c_wait", "write_file", {"path": "never.txt", "content": "2"}, ToolState.PENDING),
    ), speaker="omni", turn_id="t1"))
    await kernel.store.set_phase(s.id, Phase.TURN)

    kernel = await box.restart()

    assert (await kernel.sessions.get_session(s.id)).phase == Phase.IDLE
    msgs = await kernel.store.valid_messages(s.id)
    assert [c.state for c in msgs[1].tool_calls] == [ToolState.ERROR, ToolState.ERROR]
    results = {m.tool_result.call_id: m.tool_result for m in msgs if m.tool_result}
    assert results["c_run"].content == INTERRUPTED_RESULT and results["c_run"].is_error
    assert results["c_wait"].content == NOT_STARTED_RESULT
    assert [m.id for m in await kernel.store.replay(s.id)] == [m.id for m in msgs]
    requests = len(fake.requests)
    await kernel.turns.send(s.id, "what happened?")
    await kernel.turns.wait_idle()
    tool_msgs = [m for m in fake.requests[requests].body["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tool_msgs] == [f"Error: {INTERRUPTED_RESULT}", f"Error: {NOT_STARTED_RESULT}"]
    assert not (project / "ran.txt").exists() and not (project / "never.txt").exists()  # nothing re-run
    kernel = await box.restart()
    assert len(await kernel.store.valid_messages(s.id)) == len(msgs) + 2  # idempotent: no second result


async def test_running_sub_agent_is_lost_after_restart(box: KernelBox, project: Path) -> None:
    kernel = box.kernel
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.turns.send(s.id, "spawn say something")
    await kernel.turns.wait_idle()
    (task,) = await kernel.lifecycle.list_child_tasks(s.id)
    await kernel.store.write(finish_child, task.record.id, "running", "")  # as if cut off mid-run
    kernel = await box.restart()
    assert (await kernel.store.read(get_task, task.record.id)).state == "lost"
    assert all(x.phase == Phase.IDLE for x in await kernel.sessions.list_sessions())
    assert kernel.queue.items(s.id) == ()
