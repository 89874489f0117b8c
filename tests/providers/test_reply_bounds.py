"""What one reply may accumulate, and how long a reply may go without a complete event, against the
real fake server streaming without end or trickling bytes (a broken or hostile server).

``test_stream_bounds.py`` bounds one line and one event; these bound their sum over a reply (text,
reasoning, tool-call arguments, and the decoder's own bookkeeping) and the time between events.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from foya_desktop.core.errors import ProviderTimeout, ReplyTooLarge
from foya_desktop.core.llm import ReasoningDelta, StreamEvent, TextDelta, ToolCallDelta
from foya_desktop.providers.anthropic_decoder import MessagesDecoder
from foya_desktop.providers.base import IDLE_ENV, Timeouts
from foya_desktop.providers.budget import MIB, PART_CHARS, REPLY_LIMIT_ENV, ReplyBudget, ReplyLimits
from foya_desktop.providers.openai_decoder import ChatCompletionsDecoder
from foya_desktop.providers.sse import SseEvent
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.providers.conftest import FAST_TIMEOUTS, MakeProvider, collect_until_error, simple_request

LIMIT = 256 * 1024
ENDLESS = 64 * MIB
"""What the fake sends at most: far past the limit, so only a bound ends the stream early."""


def _chars(events: list[StreamEvent]) -> int:
    return sum(len(e.text) if isinstance(e, TextDelta | ReasoningDelta) else
               len(e.fragment) if isinstance(e, ToolCallDelta) else 0 for e in events)


@pytest.mark.parametrize("what", ["text", "reasoning", "arguments"])
async def test_an_endless_reply_of_small_events_ends_at_the_limit(
        server: FakeProviderServer, make_provider: MakeProvider, what: str) -> None:
    piece = "abcdefgh" * 64
    reply = {"text": Reply(text=piece), "reasoning": Reply(reasoning=piece),
             "arguments": Reply(tool_calls=[ToolCallSpec("write_file", '{"content": "' + piece)])}[what]
    server.script(dataclasses.replace(reply, fault=Fault.endless_reply(ENDLESS)))
    events, error = await collect_until_error(make_provider(limits=ReplyLimits(max_chars=LIMIT)))
    assert isinstance(error, ReplyTooLarge)
    assert "exceeded 0.25 MB (text, reasoning and tool-call arguments together)" in str(error)
    assert "127.0.0.1" in str(error)
    assert LIMIT - 2 * len(piece) - PART_CHARS < _chars(events) <= LIMIT


async def test_the_limit_counts_the_whole_reply(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    """Text and reasoning under the limit each, over it together."""
    half = "r" * (LIMIT // 2)
    server.script(Reply(reasoning=half, text=half + "t" * 4096, chunk_size=4096))
    events, error = await collect_until_error(make_provider(limits=ReplyLimits(max_chars=LIMIT)))
    assert isinstance(error, ReplyTooLarge)
    assert any(isinstance(e, TextDelta) for e in events)


async def test_a_reply_within_the_limit_is_whole(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(reasoning="r" * (LIMIT // 4), text="t" * (LIMIT // 2), chunk_size=4096))
    provider = make_provider(limits=ReplyLimits(max_chars=LIMIT))
    events = [e async for e in provider.stream(simple_request())]
    assert _chars(events) == 3 * LIMIT // 4


async def test_bytes_trickling_without_completing_an_event_end_the_reply(
        server: FakeProviderServer, make_provider: MakeProvider) -> None:
    """The idle timeout is between *events*: a byte every 0.2 s does not keep the reply alive."""
    server.script(Reply(text="first part, then a trickle", chunk_size=6, fault=Fault.trickle(0.2)))
    timeouts = Timeouts(connect=2, first_byte=5, idle=1, total=FAST_TIMEOUTS.total)
    events, error = await collect_until_error(make_provider(timeouts=timeouts))
    assert isinstance(error, ProviderTimeout)
    assert "stalled: no complete stream event arrived for 1 s" in str(error)
    assert events == [TextDelta("first ")]


# ---- the decoders' own bookkeeping --------------------------------------------------------------

def _openai(data: dict[str, Any]) -> SseEvent:
    return SseEvent("message", json.dumps(data))


def _fed_until_too_large(decoder: ChatCompletionsDecoder | MessagesDecoder, events: list[SseEvent]) -> int:
    """How many of ``events`` the decoder took before the reply was too large (fails if never)."""
    for count, event in enumerate(events):
        try:
            decoder.feed(event)
        except ReplyTooLarge:
            return count
    raise AssertionError("the decoder took every event")


def test_nameless_tool_call_fragments_are_charged_before_anything_is_handed_on() -> None:
    """Chat Completions keeps a call's fragments until its name comes: that waiting is bounded too."""
    decoder = ChatCompletionsDecoder("h", None, ReplyBudget("h", ReplyLimits(max_chars=10_000)))
    fragment = _openai({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "function": {"arguments": "x" * 1000}}]}}]})
    assert _fed_until_too_large(decoder, [fragment] * 100) == 8  # 1 kB for the call, 1 kB per fragment


def test_endless_new_tool_calls_or_blocks_are_charged() -> None:
    """Each new call index or content block is bookkeeping of its own, even when empty."""
    limits = ReplyLimits(max_chars=100 * PART_CHARS)
    calls = [_openai({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i}]}}]}) for i in range(200)]
    assert _fed_until_too_large(ChatCompletionsDecoder("h", None, ReplyBudget("h", limits)), calls) == 100
    blocks = [SseEvent("content_block_delta", json.dumps(
        {"type": "content_block_delta", "index": i, "delta": {"type": "other"}})) for i in range(200)]
    assert _fed_until_too_large(MessagesDecoder("h", None, ReplyBudget("h", limits)), blocks) == 100


def test_signatures_are_charged() -> None:
    decoder = MessagesDecoder("h", None, ReplyBudget("h", ReplyLimits(max_chars=10_000)))
    delta = SseEvent("content_block_delta", json.dumps(
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "s" * 1000}}))
    assert _fed_until_too_large(decoder, [delta] * 20) == 8


# ---- the settings -------------------------------------------------------------------------------

def test_the_environment_sets_the_idle_timeout_and_the_reply_limit() -> None:
    assert Timeouts.from_env({IDLE_ENV: "2.5"}).idle == 2.5
    assert Timeouts.from_env({}) == Timeouts()
    assert ReplyLimits.from_env({REPLY_LIMIT_ENV: "0.5"}).max_chars == MIB // 2
    assert ReplyLimits.from_env({}).max_chars == 16 * MIB


@pytest.mark.parametrize("value", ["", "abc", "0", "-3", "inf", "nan"])
def test_a_bad_setting_keeps_the_default(value: str, caplog: pytest.LogCaptureFixture) -> None:
    assert Timeouts.from_env({IDLE_ENV: value}) == Timeouts()
    assert ReplyLimits.from_env({REPLY_LIMIT_ENV: value}) == ReplyLimits()
    assert bool(caplog.records) == bool(value)
