"""What a request costs the loop, which is the GUI thread in the window (issue 14).

The first message sent after start-up froze the window 30–60 ms: httpcore imported anyio's
asyncio backend at the first request, on the loop. And every model step built and encoded its
request body there: the whole compiled history, hundreds of KB in a long session. Providers are
built on a worker thread (``engine/connections/pool.py``), so the backend now loads with them;
the body is built and encoded on a worker thread at each request.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from foya_desktop.core.errors import ProviderError
from foya_desktop.core.llm import LlmMessage, LlmRequest
from foya_desktop.core.messages import TextPart, ToolCallPart, ToolState
from foya_desktop.providers import anthropic
from foya_desktop.providers.http import encode_body
from foya_desktop.providers.openai import OpenAIProvider
from tests.fakeprovider import FakeProviderServer, Reply
from tests.providers.conftest import (
    CANARY_KEY,
    FAST_RETRY,
    FAST_TIMEOUTS,
    collect,
    collect_until_error,
    simple_request,
)

ROOT = Path(__file__).resolve().parents[2]

FIRST_REQUEST = r"""
import asyncio, json, sys
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.providers.registry import make_provider
from tests.fakeprovider import FakeProviderServer, Reply
from tests.providers.conftest import FAST_RETRY, FAST_TIMEOUTS, collect

async def main() -> None:
    with FakeProviderServer() as server:
        new = {}
        for kind in (ProviderKind.OPENAI, ProviderKind.ANTHROPIC):
            server.script(Reply(text="hi"))
            connection = Connection("c", kind, server.base_url)
            # as the pool builds providers: on a worker thread
            provider = await asyncio.to_thread(make_provider, connection, "sk-x",
                                               timeouts=FAST_TIMEOUTS, retry=FAST_RETRY)
            before = set(sys.modules)
            await collect(provider)  # on the loop, as every request
            new[kind.value] = sorted(set(sys.modules) - before)
            await provider.aclose()
    print(json.dumps(new))

asyncio.run(main())
"""


def test_the_first_request_of_a_process_imports_nothing_on_the_loop() -> None:
    """In a fresh interpreter (this one has long loaded everything): the modules loaded while
    the first request of each wire streams, after its provider was built on a worker thread."""
    done = subprocess.run([sys.executable, "-c", FIRST_REQUEST], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {"openai": [], "anthropic": []}


async def test_the_body_is_built_and_encoded_off_the_loop(
        server: FakeProviderServer, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []

    class Recording(OpenAIProvider):
        def build_body(self, request: LlmRequest) -> dict[str, Any]:
            threads.append(threading.current_thread().name)
            return super().build_body(request)

    original = anthropic.build_body

    def recording(request: LlmRequest) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return original(request)

    monkeypatch.setattr(anthropic, "build_body", recording)
    long_text = "Frage über Schritt 5 … ← " * 20_000  # a long history, not ASCII
    for provider in (Recording(server.base_url, CANARY_KEY, FAST_TIMEOUTS, FAST_RETRY),
                     anthropic.AnthropicProvider(server.base_url, CANARY_KEY, FAST_TIMEOUTS, FAST_RETRY)):
        server.script(Reply(text="ok"))
        try:
            await collect(provider, simple_request(long_text))
        finally:
            await provider.aclose()
    assert len(threads) == 2
    assert threading.main_thread().name not in threads
    for recorded in server.requests:
        assert recorded.headers["content-type"] == "application/json"
        assert long_text in json.dumps(recorded.body, ensure_ascii=False)


def test_the_encoding_is_the_one_httpx_writes_for_json() -> None:
    """``content=`` now, where ``json=`` was: the bytes on the wire must not change."""
    body = {"model": "m", "messages": [{"role": "user", "content": "Grüße … ← \u2028 \"q\" \\ \n"}],
            "max_tokens": 10, "stream": True, "n": 1.5, "none": None}
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions", json=body)
    assert encode_body(lambda: body) == request.content


async def test_a_number_json_cannot_carry_is_a_sentence_and_nothing_is_sent(
        server: FakeProviderServer) -> None:
    """A model may write ``NaN`` in tool arguments (Python's JSON reader accepts it); strict JSON
    cannot carry it back where arguments go as an object (Anthropic; OpenAI sends them as a
    string). Before, this said the base URL was not a valid address."""
    call = ToolCallPart("call_1", "read_file", {"offset": math.nan}, ToolState.COMPLETED)
    request = LlmRequest(model="fake-model", system="s", messages=(
        LlmMessage("user", (TextPart("read it"),)), LlmMessage("assistant", (call,))))
    server.script(Reply(text="never"))
    provider = anthropic.AnthropicProvider(server.base_url, CANARY_KEY, FAST_TIMEOUTS, FAST_RETRY)
    try:
        _, error = await collect_until_error(provider, request)
    finally:
        await provider.aclose()
    assert "holds a number JSON cannot carry" in str(error)
    assert "base URL" not in str(error)
    assert isinstance(error, ProviderError)
    assert server.requests == []
