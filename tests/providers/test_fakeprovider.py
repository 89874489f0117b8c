"""The fake server itself: routing, scripting, parallel clients and the command line."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from foya_desktop.core.errors import ProviderError, RateLimited
from foya_desktop.core.llm import Finish, LlmMessage, LlmRequest, TextDelta, ToolCallEnd
from foya_desktop.core.messages import TextPart
from foya_desktop.providers.openai import OpenAIProvider
from tests.fakeprovider import (
    FakeProviderServer,
    Fault,
    Reply,
    ToolCallSpec,
    reply_from_json,
    system_prompt,
)
from tests.providers.conftest import FAST_RETRY, FAST_TIMEOUTS, MakeProvider, collect, collect_until_error

REPO = Path(__file__).resolve().parents[2]


def text_of(events: Sequence[object]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


async def test_responder_routes_parallel_personas_deterministically(
        server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.responder = lambda body: Reply(text=f"I am {system_prompt(body).split()[-1]}",
                                          delay_per_chunk=0.01, chunk_size=2)
    provider = make_provider()

    async def ask(persona: str) -> str:
        request = LlmRequest(model="m", system=f"You are {persona}",
                             messages=(LlmMessage("user", (TextPart("who?"),)),))
        return text_of(await collect(provider, request))

    names = [f"vp{i}" for i in range(8)]
    answers = await asyncio.gather(*(ask(name) for name in names))
    assert answers == [f"I am {name}" for name in names]
    assert len(server.requests) == 8


async def test_queued_replies_come_before_the_responder(server: FakeProviderServer,
                                                        make_provider: MakeProvider) -> None:
    server.responder = lambda body: Reply(text="routed")
    server.script(Reply(text="queued"))
    provider = make_provider()
    assert [text_of(await collect(provider)) for _ in range(2)] == ["queued", "routed"]


async def test_cycle_repeats_the_script(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(text="a"), Reply(text="b"), cycle=True)
    provider = make_provider()
    assert [text_of(await collect(provider)) for _ in range(5)] == ["a", "b", "a", "b", "a"]


async def test_running_out_of_script_is_a_clear_error(server: FakeProviderServer,
                                                      make_provider: MakeProvider) -> None:
    _, error = await collect_until_error(make_provider())
    assert type(error) is ProviderError
    assert "no scripted reply left" in str(error)


async def test_default_reply() -> None:
    with FakeProviderServer(default=Reply(text="default")) as server:
        provider = OpenAIProvider(server.base_url, None, FAST_TIMEOUTS, FAST_RETRY)
        try:
            assert text_of(await collect(provider)) == "default"
        finally:
            await provider.aclose()


def test_reply_from_json() -> None:
    reply = reply_from_json({"text": "t", "tool_calls": [{"name": "ls", "arguments": {"p": "."}, "id": "x"}],
                             "usage": [3, 4], "fault": {"kind": "status", "code": 429, "retry_after": 2}})
    assert reply == Reply(text="t", tool_calls=(ToolCallSpec("ls", {"p": "."}, "x"),), usage=(3, 4),
                          fault=Fault.status(429, retry_after=2))
    assert reply_from_json("plain") == Reply(text="plain")
    assert reply_from_json({"fault": {"kind": "cut", "after_chunks": 3}}).fault == Fault.cut(3)
    with pytest.raises(ValueError, match="unknown fault kind"):
        reply_from_json({"fault": {"kind": "meteor"}})


async def test_command_line_server(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([
        {"fault": {"kind": "status", "code": 429, "retry_after": 0}},
        {"text": "from the subprocess"},
        {"tool_calls": [{"name": "read_file", "arguments": {"path": "a.txt"}}]},
    ]))
    process = subprocess.Popen([sys.executable, "-m", "tests.fakeprovider", "--port", "0",
                                "--script", str(script)],
                               cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        base_url = process.stdout.readline().strip()
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/v1")
        provider = OpenAIProvider(base_url, "k", FAST_TIMEOUTS, FAST_RETRY)
        try:
            first = await collect(provider)
            second = await collect(provider)
            _, error = await collect_until_error(provider)
        finally:
            await provider.aclose()
        assert text_of(first) == "from the subprocess"
        assert [e.arguments for e in second if isinstance(e, ToolCallEnd)] == [{"path": "a.txt"}]
        assert second[-1] == Finish("tool_calls")
        assert "no scripted reply left" in str(error)
        assert not isinstance(error, RateLimited)
    finally:
        process.terminate()
        assert process.wait(timeout=10) == 0
        if process.stdout is not None:
            process.stdout.close()  # else a ResourceWarning a few tests later, when it is collected
