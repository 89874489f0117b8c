"""Settings take effect at the next model request or tool call (Foya seed F22-F24).

Real kernel, real SQLite, real HTTP to the fake provider; the change from
another process is a real ``foya sessions set`` subprocess on the same
database.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import PartDelta, StreamEnded
from foya_desktop.core.messages import Message, ToolResultPart
from foya_desktop.core.model import AgentMode, ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns

LONG = "x" * 400
"""Long enough that the tool call's arguments stream in many slow chunks."""


def slow_write(path: str) -> Reply:
    """A ``write_file`` call whose arguments take a while to stream."""
    return Reply(tool_calls=[ToolCallSpec("write_file", {"path": path, "content": LONG})],
                 chunk_size=8, delay_per_chunk=0.05)


async def _streaming_args(rec: Recorder) -> None:
    """Wait until the model is visibly streaming a tool call's arguments."""
    await wait_for(lambda: any(isinstance(e, PartDelta) and e.kind == "tool_args" for e in rec.events))


def _still_streaming(rec: Recorder) -> bool:
    return not rec.of(StreamEnded)


def _tool_results(history: list[Message]) -> list[ToolResultPart]:
    return [m.tool_result for m in history if m.tool_result is not None]


async def test_read_only_while_a_write_streams_refuses_the_write(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """F23: the approval mode is read again before the tool call, not taken from before the step."""
    fake.script(slow_write("notes.txt"), Reply(text="understood"))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(s.id, "write the notes")
    await _streaming_args(rec)
    await kernel.sessions.update_session(s.id, approval_mode="read_only")
    assert _still_streaming(rec), "the switch must land while the call is still streaming"
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    assert not (project / "notes.txt").exists()
    (result,) = _tool_results(await kernel.history.history_page(s.id))
    assert result.is_error and "read-only" in result.content
    assert "write_file" not in {t["function"]["name"] for t in fake.requests[1].body.get("tools", [])}


async def test_auto_while_a_write_streams_lets_the_write_run(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """F23, the other direction: read_only → auto while the call streams lets that very call run."""
    fake.script(slow_write("notes.txt"), Reply(text="written"))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.READ_ONLY)
    await kernel.turns.send(s.id, "write the notes")
    await _streaming_args(rec)
    await kernel.sessions.update_session(s.id, approval_mode="auto")
    assert _still_streaming(rec)
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    (result,) = _tool_results(await kernel.history.history_page(s.id))
    assert not result.is_error
    assert (project / "notes.txt").read_text() == LONG
    assert "write_file" in {t["function"]["name"] for t in fake.requests[1].body["tools"]}


async def test_model_and_effort_switch_apply_at_the_next_request_never_in_flight(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """F22/F24: the request in flight keeps its model; the next request uses the new one."""
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})],
                      chunk_size=4, delay_per_chunk=0.05), Reply(text="done"))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(s.id, "read")
    await _streaming_args(rec)
    await kernel.sessions.update_session(s.id, model="other-model", reasoning_effort="high")
    assert _still_streaming(rec)
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    first, second = fake.requests
    assert first.body["model"] == "fake-model" and "reasoning_effort" not in first.body
    assert second.body["model"] == "other-model" and second.body["reasoning_effort"] == "high"
    replies = [m for m in await kernel.history.history_page(s.id) if m.role == "assistant"]
    assert [m.meta.get("model") for m in replies] == ["fake-model", "other-model"]


def _foya(home: Home, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FOYA_HOME": str(home.root),
           "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "foya_desktop", *args], capture_output=True, text=True,
                          env=env, timeout=60, check=False)


async def test_read_only_from_another_process_refuses_the_streaming_write(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, home: Home) -> None:
    """F23 across processes: `foya sessions set ID --approval read_only` while this process runs the turn."""
    fake.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "notes.txt", "content": LONG * 4})],
                      chunk_size=8, delay_per_chunk=0.05), Reply(text="ok"))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(s.id, "write the notes")
    await _streaming_args(rec)
    proc = await asyncio.to_thread(_foya, home, "sessions", "set", s.id, "--approval", "read_only")
    assert proc.returncode == 0, proc.stderr
    assert "approval_mode='read_only'" in proc.stdout
    assert _still_streaming(rec), "the other process must change the mode while the call streams"
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    assert not (project / "notes.txt").exists()
    (result,) = _tool_results(await kernel.history.history_page(s.id))
    assert result.is_error and "read-only" in result.content


@pytest.mark.parametrize(("changes", "words"), [
    ({"approval_mode": "yolo"}, "Unknown approval mode 'yolo': use one of read_only, ask"),
    ({"agent_mode": "dream"}, "Unknown agent mode 'dream'"),
    ({"reasoning_effort": "max"}, "Unknown reasoning effort 'max'"),
    ({"connection": "nope"}, "No connection named 'nope' (configured: fake)"),
    ({"title": "   "}, "A session title cannot be empty."),
    ({"announcement": "a" * 5000}, "at most 4000"),
    ({"phase": "turn"}, "Cannot change phase"),
    ({"project_id": "prj_x"}, "Cannot change project_id"),
])
async def test_invalid_changes_are_refused_in_words(kernel: Kernel, changes: dict[str, str],
                                                    words: str) -> None:
    s = await kernel.sessions.create_session(title="t")
    with pytest.raises(InvalidOperation, match=None) as err:
        await kernel.sessions.update_session(s.id, **changes)
    assert words in str(err.value)
    assert (await kernel.sessions.get_session(s.id)).title == "t"


async def test_valid_changes_are_normalised(kernel: Kernel) -> None:
    s = await kernel.sessions.create_session(title="t")
    s = await kernel.sessions.update_session(s.id, reasoning_effort="HIGH", agent_mode="plan", pinned=1,
                                    title="  New name ")
    assert (s.reasoning_effort, s.agent_mode, s.pinned, s.title) == ("high", AgentMode.PLAN, True, "New name")
    assert (await kernel.sessions.update_session(s.id, reasoning_effort="default")).reasoning_effort == ""
