"""Approval modes, the approval broker and grants, through the real kernel."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.events import ApprovalRequested, TurnFinished
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.permissions.policy import decide, grant_key
from foya_desktop.tools.base import Action
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns


def write_call(path: str, content: str) -> Reply:
    return Reply(tool_calls=[ToolCallSpec("write_file", {"path": path, "content": content})])


def command_call(command: str) -> Reply:
    return Reply(tool_calls=[ToolCallSpec("run_command", {"command": command})])


@pytest.mark.parametrize(("kind", "mode", "expected"), [
    ("read", ApprovalMode.READ_ONLY, "allow"),
    ("write", ApprovalMode.READ_ONLY, "deny"),
    ("write", ApprovalMode.ASK, "ask"),
    ("write", ApprovalMode.AUTO_EDIT, "allow"),
    ("write", ApprovalMode.AUTO, "allow"),
])
def test_policy_for_file_actions(tmp_path: Path, kind: str, mode: ApprovalMode, expected: str) -> None:
    action = Action(kind=kind, summary="x", paths=(tmp_path / "a.txt",))  # type: ignore[arg-type]
    assert decide(action, mode, tmp_path, set()).decision == expected


@pytest.mark.parametrize(("command", "mode", "expected"), [
    ("ls", ApprovalMode.ASK, "allow"),
    ("make build", ApprovalMode.ASK, "ask"),
    ("make build", ApprovalMode.AUTO_EDIT, "ask"),
    ("make build", ApprovalMode.AUTO, "allow"),
    ("curl https://example.com", ApprovalMode.AUTO, "ask"),
    ("git clone https://example.com/x.git", ApprovalMode.AUTO, "ask"),
    ("ls", ApprovalMode.READ_ONLY, "deny"),
])
def test_policy_for_commands(tmp_path: Path, command: str, mode: ApprovalMode, expected: str) -> None:
    from foya_desktop.tools.base import ToolContext
    from foya_desktop.tools.shell import RunCommandTool
    action = RunCommandTool().plan({"command": command}, ToolContext("s", tmp_path, tmp_path / "data"))
    assert decide(action, mode, tmp_path, set()).decision == expected


def test_secret_files_always_ask_even_in_auto(tmp_path: Path) -> None:
    for kind in ("read", "write"):
        action = Action(kind=kind, summary="x", paths=(tmp_path / ".env",))
        assert decide(action, ApprovalMode.AUTO, tmp_path, set()).decision == "ask"


def test_grant_keys_are_exact(tmp_path: Path) -> None:
    plain = Action(kind="exec", summary="", command="git status")
    redirected = Action(kind="exec", summary="", command="git status > x")
    key = grant_key(plain, tmp_path)
    assert key == "cmd:git status"
    assert grant_key(redirected, tmp_path) != key
    assert decide(redirected, ApprovalMode.ASK, tmp_path, {key}).decision == "ask"
    assert decide(plain, ApprovalMode.ASK, tmp_path, {key}).decision == "allow"


async def _ask_session(kernel: Kernel, project: Path, mode: ApprovalMode = ApprovalMode.ASK) -> str:
    kernel.asks.set_interactive(True)
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=mode)
    return s.id


async def _next_request(rec: Recorder, seen: int) -> ApprovalRequested:
    await wait_for(lambda: len(rec.of(ApprovalRequested)) > seen)
    return rec.of(ApprovalRequested)[seen]  # type: ignore[return-value]


async def test_allow_once_writes_the_file(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                          project: Path) -> None:
    fake.script(write_call("notes.txt", "hello"), Reply(text="written"))
    sid = await _ask_session(kernel, project)
    await kernel.turns.send(sid, "write notes")
    req = await _next_request(rec, 0)
    assert req.tool == "write_file" and "notes.txt" in req.summary + str(req.paths)
    assert req.call_id and req.can_always
    assert not (project / "notes.txt").exists()
    assert kernel.asks.pending_approvals(sid) == [req]
    assert kernel.asks.answer_approval(req.request_id, "once")
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "completed"
    assert (project / "notes.txt").read_text() == "hello"
    assert not kernel.asks.answer_approval(req.request_id, "once")  # answered requests are gone


async def test_deny_with_feedback_tells_the_model(kernel: Kernel, fake: FakeProviderServer,
                                                  rec: Recorder, project: Path) -> None:
    fake.script(write_call("notes.txt", "hello"), Reply(text="ok, I will not"))
    sid = await _ask_session(kernel, project)
    await kernel.turns.send(sid, "write notes")
    req = await _next_request(rec, 0)
    kernel.asks.answer_approval(req.request_id, "deny", "use docs/ instead")
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "completed"
    assert not (project / "notes.txt").exists()
    tool_msg = fake.requests[1].body["messages"][-1]
    assert tool_msg["role"] == "tool" and "use docs/ instead" in tool_msg["content"]


async def test_deny_without_feedback_stops_the_turn(kernel: Kernel, fake: FakeProviderServer,
                                                    rec: Recorder, project: Path) -> None:
    fake.script(write_call("notes.txt", "hello"), Reply(text="never requested"))
    sid = await _ask_session(kernel, project)
    await kernel.turns.send(sid, "write notes")
    req = await _next_request(rec, 0)
    kernel.asks.answer_approval(req.request_id, "deny")
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "stopped"
    assert len(fake.requests) == 1 and not (project / "notes.txt").exists()


async def test_session_grant_covers_same_path_only(kernel: Kernel, fake: FakeProviderServer,
                                                   rec: Recorder, project: Path) -> None:
    fake.script(write_call("a.txt", "1"), write_call("a.txt", "2"), write_call("b.txt", "3"), Reply(text="done"))
    sid = await _ask_session(kernel, project)
    await kernel.turns.send(sid, "go")
    first = await _next_request(rec, 0)
    kernel.asks.answer_approval(first.request_id, "session")
    second = await _next_request(rec, 1)  # a.txt again is allowed silently; b.txt asks
    assert "b.txt" in str(second.paths)
    assert (project / "a.txt").read_text() == "2"
    kernel.asks.answer_approval(second.request_id, "once")
    await wait_turns(rec, sid, 1)
    assert kernel.svc.grants[sid] == {"write:a.txt"}


async def test_always_rule_is_persisted_and_narrow(kernel: Kernel, fake: FakeProviderServer,
                                                   rec: Recorder, project: Path) -> None:
    fake.script(command_call("touch made.txt"), Reply(text="ok"),
                command_call("touch made.txt"), Reply(text="ok again"),
                command_call("touch made.txt > other.txt"), Reply(text="third"))
    sid = await _ask_session(kernel, project)
    await kernel.turns.send(sid, "one")
    req = await _next_request(rec, 0)
    kernel.asks.answer_approval(req.request_id, "always")
    await wait_turns(rec, sid, 1)
    session = await kernel.sessions.get_session(sid)
    assert session.project_id is not None
    assert await kernel.store.project_rules(session.project_id) == {"cmd:touch made.txt"}
    await kernel.turns.send(sid, "two")
    await wait_turns(rec, sid, 2)
    assert len(rec.of(ApprovalRequested)) == 1  # same exact command: no new question
    await kernel.turns.send(sid, "three")
    third = await _next_request(rec, 1)
    assert third.command == "touch made.txt > other.txt"
    kernel.asks.answer_approval(third.request_id, "deny", "no")
    await wait_turns(rec, sid, 3)


async def test_headless_ask_is_denied_with_a_message(kernel: Kernel, fake: FakeProviderServer,
                                                     rec: Recorder, project: Path) -> None:
    fake.script(write_call("x.txt", "x"), Reply(text="could not"))
    s = await kernel.sessions.create_session(workdir=str(project))
    await kernel.turns.send(s.id, "write")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "stopped" or done.status == "completed"
    assert not (project / "x.txt").exists()
    history = await kernel.store.valid_messages(s.id)
    result = history[2].tool_result
    assert result is not None and result.is_error and "no window" in result.content


async def test_mode_change_applies_at_next_tool_call(kernel: Kernel, fake: FakeProviderServer,
                                                     rec: Recorder, project: Path) -> None:
    fake.script(write_call("a.txt", "1"), write_call("b.txt", "2"), Reply(text="done"))
    sid = await _ask_session(kernel, project)
    await kernel.turns.send(sid, "go")
    req = await _next_request(rec, 0)
    await kernel.sessions.update_session(sid, approval_mode=ApprovalMode.AUTO_EDIT)
    kernel.asks.answer_approval(req.request_id, "once")
    await wait_turns(rec, sid, 1)
    assert (project / "b.txt").read_text() == "2"
    assert len(rec.of(ApprovalRequested)) == 1


async def test_read_only_mode_offers_no_write_tools(kernel: Kernel, fake: FakeProviderServer,
                                                    rec: Recorder, project: Path) -> None:
    fake.script(Reply(text="I can only read."))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.READ_ONLY)
    await kernel.turns.send(s.id, "hi")
    await wait_turns(rec, s.id, 1)
    offered = {t["function"]["name"] for t in fake.requests[0].body["tools"]}
    assert "read_file" in offered and "write_file" not in offered and "run_command" not in offered
    assert isinstance(rec.of(TurnFinished)[0], TurnFinished)
