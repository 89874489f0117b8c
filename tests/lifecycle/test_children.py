"""Sub-agents: child sessions with an immutable snapshot, tracked as task records of the parent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import TaskChanged
from foya_desktop.core.messages import MessageStatus
from foya_desktop.core.model import VP, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.history import valid_messages
from foya_desktop.store.ledger import usage_totals
from foya_desktop.store.sessions import is_tombstoned
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, last_user_text, system_prompt
from tests.helpers.agent_script import agent_responder
from tests.helpers.engine import Recorder, wait_for, wait_turns
from tests.lifecycle.conftest import Say


async def test_spawn_agent_runs_a_child_and_returns_its_answer(
        kernel: Kernel, session: Session, say: Say, rec: Recorder, project: Path) -> None:
    await say("spawn write from_child.txt hello")
    (child,) = [s for s in await kernel.sessions.list_sessions() if s.parent_id == session.id]
    parent_msgs = await kernel.store.read(valid_messages, session.id)
    call = next(m for m in parent_msgs if m.tool_calls).tool_calls[0]
    assert child.origin == f"subagent:{call.call_id}" and child.project_id == session.project_id
    snap: dict[str, Any] = child.child_snapshot
    assert snap["agent"]["id"] == "omni" and snap["max_turns"] == 15
    assert "write_file" in snap["tools"] and "spawn_agent" not in snap["tools"]
    assert (project / "from_child.txt").read_text() == "hello"
    child_msgs = await kernel.store.read(valid_messages, child.id)
    assert [m.role for m in child_msgs] == ["user", "assistant", "tool", "assistant"]
    result = next(m for m in parent_msgs if m.role == "tool").tool_result
    assert result is not None and not result.is_error and "done" in result.content
    (task,) = await kernel.lifecycle.list_child_tasks(session.id)
    assert (task.record.kind, task.record.state, task.record.consumed) == ("subagent", "completed", True)
    assert task.child_session_id == child.id and task.record.output_tail == "done"
    assert (await kernel.store.read(usage_totals, child.id)).input_tokens == 20  # its own usage
    assert any(isinstance(e, TaskChanged) and e.task.state == "completed" for e in rec.events)


async def test_background_child_can_be_cancelled(
        kernel: Kernel, fake: FakeProviderServer, session: Session, rec: Recorder) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if last_user_text(body) == "dig deep":
            return Reply(text="digging " * 200, chunk_size=4, delay_per_chunk=0.02)
        return agent_responder(body)
    fake.responder = respond
    fake.script(Reply(tool_calls=[ToolCallSpec("spawn_agent", {"task": "dig deep", "wait": False}, id="bg1")]))
    await kernel.turns.send(session.id, "start it in the background")
    await wait_turns(rec, session.id, 1)
    (task,) = await kernel.lifecycle.list_child_tasks(session.id)
    assert task.record.state == "running"
    await wait_for(lambda: any(type(e).__name__ == "PartDelta" and e.session_id == task.child_session_id
                               for e in rec.events))
    user = (await kernel.store.read(valid_messages, session.id))[0]
    with pytest.raises(InvalidOperation, match="sub-agent of this session is still running"):
        await kernel.lifecycle.rewind_preview(session.id, user.id)
    record = await kernel.lifecycle.cancel_child_task(session.id, task.record.id)
    assert record.state == "cancelled"
    partial = (await kernel.store.read(valid_messages, task.child_session_id))[-1]
    assert partial.status == MessageStatus.INTERRUPTED and partial.text and ("digging " * 200).startswith(partial.text)
    consumed = await kernel.lifecycle.consume_child_result(session.id, task.record.id)
    assert consumed.consumed
    assert kernel.turns.phase(task.child_session_id) == "idle"


async def test_snapshot_is_immutable_while_the_child_runs(
        kernel: Kernel, fake: FakeProviderServer, session: Session, rec: Recorder) -> None:
    await kernel.vps.add_vp(VP("scout", "Scout", "Scout", "You are the ORIGINAL scout.", max_steps=7))
    await kernel.sessions.update_session(session.id, roster=["omni", "Scout"], default_vp="omni")
    souls: list[str] = []

    def respond(body: dict[str, Any]) -> Reply:
        prompt = system_prompt(body)
        if "scout." in prompt.splitlines()[0]:
            souls.append(prompt.splitlines()[0])
            if len(souls) == 1:
                return Reply(tool_calls=[ToolCallSpec("list_dir", {"path": "."}, id="s1")],
                             delay_per_chunk=0.05)
            return Reply(text="scouted")
        return agent_responder(body)
    fake.responder = respond
    fake.script(Reply(tool_calls=[ToolCallSpec("spawn_agent", {"task": "look around", "agent": "Scout",
                                                               "max_turns": 3}, id="sp1")]))
    await kernel.turns.send(session.id, "delegate")
    await wait_for(lambda: len(souls) == 1)
    await kernel.vps.edit_vp("scout", soul="You are the EDITED scout.")
    await wait_turns(rec, session.id, 1)
    assert souls == ["You are the ORIGINAL scout.", "You are the ORIGINAL scout."]
    (task,) = await kernel.lifecycle.list_child_tasks(session.id)
    child = await kernel.sessions.get_session(task.child_session_id)
    assert child.child_snapshot["max_turns"] == 3
    assert child.child_snapshot["agent"]["soul"] == "You are the ORIGINAL scout."  # type: ignore[index]


async def test_stopping_the_parent_cancels_a_waited_child(
        kernel: Kernel, fake: FakeProviderServer, session: Session, rec: Recorder) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if last_user_text(body) == "slow work":
            return Reply(text="working " * 300, chunk_size=4, delay_per_chunk=0.02)
        return agent_responder(body)
    fake.responder = respond
    await kernel.turns.send(session.id, "spawn slow work")
    await wait_for(lambda: any(type(e).__name__ == "PartDelta" and e.session_id != session.id
                               for e in rec.events))
    await kernel.turns.stop(session.id)
    (task,) = await kernel.lifecycle.list_child_tasks(session.id)
    await wait_for(lambda: not kernel.turn_manager.owner(task.child_session_id).busy)
    assert (await kernel.lifecycle.inspect_child_task(session.id, task.record.id)).record.state == "cancelled"


async def test_deleting_the_parent_stops_a_background_child(
        kernel: Kernel, fake: FakeProviderServer, session: Session, rec: Recorder) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if last_user_text(body) == "long job":
            return Reply(text="busy " * 300, chunk_size=4, delay_per_chunk=0.02)
        return agent_responder(body)
    fake.responder = respond
    fake.script(Reply(tool_calls=[ToolCallSpec("spawn_agent", {"task": "long job", "wait": False}, id="bg2")]))
    await kernel.turns.send(session.id, "start it")
    await wait_turns(rec, session.id, 1)
    (task,) = await kernel.lifecycle.list_child_tasks(session.id)
    await wait_for(lambda: kernel.turn_manager.owner(task.child_session_id).busy)
    deleted = await kernel.lifecycle.delete_session(session.id)
    assert deleted == [task.child_session_id, session.id]
    assert not kernel.turn_manager.scheduler.known(task.child_session_id)
    assert await kernel.store.read(is_tombstoned, task.child_session_id)
