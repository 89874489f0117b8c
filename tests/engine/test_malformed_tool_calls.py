"""A model's malformed tool calls end no turn: the model is told what failed and tries again.

Real kernel, real SQLite, real HTTP to the fake provider (both wire formats). Each malformed kind —
arguments that are not JSON, an unknown tool, arguments against the tool's schema, a call without
an id, and llama.cpp's in-stream "Failed to parse input" error — is followed by a corrected call
that succeeds; the second request carries what failed; the status counts the failure; a model that
keeps failing ends at its step limit with a sentence saying so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.events import VPStatus
from foya_desktop.core.messages import Message, MessageStatus, ToolState
from foya_desktop.core.model import VP, Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.history import valid_messages
from foya_desktop.store.home import Home
from tests.engine.conftest import FAST_RETRY, FAST_TIMEOUTS
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_turns
from tests.helpers.fake_keyring import MemoryKeyring

README = "Hello from the readme."
GOOD_READ = ToolCallSpec("read_file", {"path": "README.md"}, id="good")


@pytest.fixture(params=["openai", "anthropic"])
async def kernel(request: pytest.FixtureRequest, home: Home, fake: FakeProviderServer) -> AsyncIterator[Kernel]:
    """The conftest's kernel, its one connection speaking the parametrized wire format to the fake."""
    kind = ProviderKind.OPENAI if request.param == "openai" else ProviderKind.ANTHROPIC
    k = build_kernel(home, keystore=KeyStore(MemoryKeyring()), timeouts=FAST_TIMEOUTS, retry=FAST_RETRY)
    await k.connections.add_connection(Connection("fake", kind, fake.base_url, "fake-model"))
    yield k
    await k.close()


def tool_results(body: dict[str, Any]) -> dict[str, str]:
    """The tool results a request carries, by call id (either wire format)."""
    found: dict[str, str] = {}
    for message in body["messages"]:
        if message.get("role") == "tool":
            found[message["tool_call_id"]] = str(message["content"])
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if block.get("type") == "tool_result":
                    inner = block.get("content")
                    text = inner if isinstance(inner, str) else "".join(b.get("text", "") for b in inner or ())
                    found[block["tool_use_id"]] = text
    return found


def call_ids_sent(body: dict[str, Any]) -> list[str]:
    """The ids of the assistant's tool calls in a request, in order (either wire format)."""
    ids: list[str] = []
    for message in body["messages"]:
        ids += [c["id"] for c in message.get("tool_calls") or ()]
        content = message.get("content")
        if isinstance(content, list):
            ids += [b["id"] for b in content if b.get("type") == "tool_use"]
    return ids


def request_text(body: dict[str, Any]) -> str:
    return json.dumps(body["messages"], ensure_ascii=False)


async def run_turn(kernel: Kernel, rec: Recorder, project: Path, *, vp: VP | None = None,
                   text: str = "what does the readme say?") -> tuple[str, Any]:
    roster = {}
    if vp is not None:
        await kernel.vps.add_vp(vp)
        roster = {"roster": [vp.id], "default_vp": vp.id}
    session = await kernel.sessions.create_session(workdir=str(project), **roster)  # type: ignore[arg-type]
    await kernel.turns.send(session.id, text)
    (done,) = await wait_turns(rec, session.id, 1)
    return session.id, done


def last_status(rec: Recorder) -> VPStatus:
    statuses = [e for e in rec.of(VPStatus) if isinstance(e, VPStatus)]
    return statuses[-1]


async def history(kernel: Kernel, session_id: str) -> list[Message]:
    return await kernel.store.read(valid_messages, session_id)


async def assert_told_then_corrected(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                     session_id: str, done: Any, *told: str) -> str:
    """The turn completed; request 2 carried the failed call's result; the corrected call ran."""
    assert done.status == "completed", done.error
    assert len(fake.requests) == 3
    results = tool_results(fake.requests[1].body)
    (failed_text,) = results.values()
    for words in told:
        assert words in failed_text, failed_text
    assert README in tool_results(fake.requests[2].body)["good"]
    messages = await history(kernel, session_id)
    calls = [c for m in messages for c in m.tool_calls]
    assert [c.state for c in calls] == [ToolState.ERROR, ToolState.COMPLETED]
    outcomes = [m.tool_result for m in messages if m.tool_result is not None]
    assert [(r.call_id, r.is_error) for r in outcomes] == [(calls[0].call_id, True), ("good", False)]
    assert messages[-1].text == "The readme says hello."
    status = last_status(rec)
    assert status.state == "done"
    assert (status.tool_failures, status.tool_runs, status.figures.blocked) == (1, 1, 1)
    return failed_text


async def test_arguments_that_are_not_json_are_returned_and_the_corrected_call_runs(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """Before: the whole turn ended ("called the tool … with arguments that are not valid JSON")."""
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", '{"path": "README.md"', id="bad")]),
                Reply(tool_calls=[GOOD_READ]), Reply(text="The readme says hello."))
    session_id, done = await run_turn(kernel, rec, project)
    said = await assert_told_then_corrected(
        kernel, fake, rec, session_id, done, "The arguments of this read_file call are not valid JSON",
        "did not run", "read_file takes: path (string, required)", 'You sent: {"path": "README.md"')
    assert said.splitlines()[0].endswith("so it did not run.")


async def test_an_unknown_tool_is_told_the_tools_there_are(kernel: Kernel, fake: FakeProviderServer,
                                                           rec: Recorder, project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("read_fil", {"path": "README.md"}, id="bad")]),
                Reply(tool_calls=[GOOD_READ]), Reply(text="The readme says hello."))
    session_id, done = await run_turn(kernel, rec, project)
    said = await assert_told_then_corrected(kernel, fake, rec, session_id, done,
                                            "There is no tool named 'read_fil', so it did not run.")
    offered = [t.get("name") or t["function"]["name"] for t in fake.requests[0].body["tools"]]
    listed = said.split("The tools you can call here are: ", 1)[1].split(". ", 1)[0].split(", ")
    assert set(offered) <= set(listed) and "read_file" in listed  # and tools listed by name only (MCP)


async def test_arguments_against_the_schema_are_told_the_validation_error(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": 7}, id="bad")]),
                Reply(tool_calls=[GOOD_READ]), Reply(text="The readme says hello."))
    session_id, done = await run_turn(kernel, rec, project)
    await assert_told_then_corrected(
        kernel, fake, rec, session_id, done,
        "The arguments of this read_file call do not match its parameters: 7 is not of type 'string' "
        "(at path). It did not run.", "read_file takes: path (string, required)")


async def test_calls_without_ids_get_stable_ids_of_their_own(kernel: Kernel, fake: FakeProviderServer,
                                                             rec: Recorder, project: Path) -> None:
    """Before: every id-less call was ``call_0`` (OpenAI wire) or ``""`` (Anthropic wire), so the second
    step's call shared its id with the first (results, recovery and the timeline match by id)."""
    no_id = ToolCallSpec("read_file", {"path": "README.md"}, id="")
    fake.script(Reply(tool_calls=[no_id, no_id]), Reply(tool_calls=[no_id]), Reply(text="The readme says hello."))
    session_id, done = await run_turn(kernel, rec, project)
    assert done.status == "completed", done.error
    messages = await history(kernel, session_id)
    ids = [c.call_id for m in messages for c in m.tool_calls]
    assert len(ids) == 3 and all(ids) and len(set(ids)) == 3
    results = [m.tool_result for m in messages if m.tool_result is not None]
    assert [r.call_id for r in results] == ids and not any(r.is_error for r in results)
    # the same ids in every later request, each with its own result
    assert call_ids_sent(fake.requests[1].body) == ids[:2]
    assert call_ids_sent(fake.requests[2].body) == ids
    assert all(README in text for text in tool_results(fake.requests[2].body).values())
    assert (last_status(rec).tool_runs, last_status(rec).tool_failures) == (3, 0)


async def test_llama_cpp_parse_error_in_the_stream_is_told_and_retried(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """Before: llama.cpp's in-stream error ended the turn; the model never learnt what failed."""
    fake.script(Reply(text="Let me read it.", fault=Fault.llama_cpp_error(
                    "Failed to parse input at pos 15: <tool_call>read_file README.md</tool_call>", after_chunks=2)),
                Reply(tool_calls=[GOOD_READ]), Reply(text="The readme says hello."))
    session_id, done = await run_turn(kernel, rec, project)
    assert done.status == "completed", done.error
    assert len(fake.requests) == 3
    sent = request_text(fake.requests[1].body)
    assert "the server could not read your previous reply as a tool call" in sent
    assert "Failed to parse input at pos 15" in sent and "<tool_call>read_file README.md" in sent
    messages = await history(kernel, session_id)
    failed = messages[1]
    assert failed.role == "assistant" and failed.status == MessageStatus.ERROR
    assert failed.text == "Let me read it." and "was told and may try again" in failed.meta["error"]
    assert messages[-1].text == "The readme says hello."
    assert last_status(rec).requests == 3


async def test_other_errors_in_the_stream_still_end_the_turn(kernel: Kernel, fake: FakeProviderServer,
                                                             rec: Recorder, project: Path) -> None:
    fake.script(Reply(text="Let me", fault=Fault.llama_cpp_error("CUDA error: out of memory")))
    _, done = await run_turn(kernel, rec, project)
    assert done.status == "error" and "out of memory" in done.error
    assert len(fake.requests) == 1


@pytest.mark.parametrize("failing", [
    Reply(tool_calls=[ToolCallSpec("read_file", "{path: README.md}")]),
    Reply(tool_calls=[ToolCallSpec("cat", {"path": "README.md"})]),
    Reply(text="I", fault=Fault.llama_cpp_error()),
], ids=["not json", "unknown tool", "unreadable reply"])
async def test_a_model_that_keeps_failing_ends_at_the_step_limit_saying_so(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, failing: Reply) -> None:
    fake.default = failing
    tiny = VP("tiny", "Tiny", "Tiny", "You are small.", max_steps=3)
    _, done = await run_turn(kernel, rec, project, vp=tiny)
    assert done.status == "error"
    assert done.error == ("Tiny: Tiny reached its limit of 3 steps because its tool calls kept failing: in "
                          "the last 3 steps it sent none that could run (each failure was returned to it).")
    assert len(fake.requests) == 3
    status = last_status(rec)
    assert status.error_code == "step_limit_failing_calls"
    assert dict(status.error_params) == {"vp": "Tiny", "max_steps": 3, "failing": 3}
    assert status.tool_failures == (0 if failing.fault else 3)


async def test_a_model_that_recovers_then_runs_out_of_steps_gets_the_plain_sentence(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", "{oops")]), Reply(tool_calls=[GOOD_READ]))
    _, done = await run_turn(kernel, rec, project, vp=VP("tiny", "Tiny", "Tiny", "You are small.", max_steps=2))
    assert done.error == "Tiny: Tiny reached its limit of 2 steps."
    assert last_status(rec).error_code == "step_limit_reached"
