"""Streaming replies from the fake server through both adapters."""

from __future__ import annotations

import json

import pytest

from foya_desktop.core.llm import (
    Finish,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    UsageReport,
)
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.providers.conftest import MakeProvider, collect


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def reasoning_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, ReasoningDelta))


async def test_text_reply_streams_in_pieces_and_finishes(
        server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(text="The quick brown fox jumps over the lazy dog.", chunk_size=5))
    events = await collect(make_provider())
    assert text_of(events) == "The quick brown fox jumps over the lazy dog."
    assert len([e for e in events if isinstance(e, TextDelta)]) == 9
    assert events[-1] == Finish("stop")
    assert sum(isinstance(e, Finish) for e in events) == 1


async def test_usage_is_reported_before_finish(server: FakeProviderServer, make_provider: MakeProvider,
                                               wire: str) -> None:
    server.script(Reply(text="ok", usage=(1200, 34), cached_tokens=1000))
    events = await collect(make_provider())
    usage = [e.usage for e in events if isinstance(e, UsageReport)]
    assert usage[-1].input_tokens == 1200  # all prompt tokens, cached ones included
    assert usage[-1].output_tokens == 34
    assert usage[-1].cache_read_tokens == 1000
    expected_write = 0 if wire == "anthropic" else None  # OpenAI does not report cache writes
    assert usage[-1].cache_write_tokens == expected_write
    assert events.index(next(e for e in events if isinstance(e, UsageReport))) < len(events) - 1


async def test_reasoning_then_text(server: FakeProviderServer, make_provider: MakeProvider,
                                   wire: str) -> None:
    server.script(Reply(reasoning="Let me think about it.", text="Answer: 42", signature="sig-123"))
    events = await collect(make_provider())
    assert reasoning_of(events) == "Let me think about it."
    assert text_of(events) == "Answer: 42"
    first_text = next(i for i, e in enumerate(events) if isinstance(e, TextDelta))
    assert all(not isinstance(e, ReasoningDelta) for e in events[first_text:])
    signatures = [e for e in events if isinstance(e, ReasoningSignature)]
    assert signatures == ([ReasoningSignature("sig-123")] if wire == "anthropic" else [])


@pytest.mark.parametrize("wire", ["openai"])
@pytest.mark.parametrize("key", ["reasoning_content", "reasoning"])
async def test_openai_reads_both_reasoning_field_names(server: FakeProviderServer,
                                                       make_provider: MakeProvider, key: str) -> None:
    server.script(Reply(reasoning="hmm", text="ok", reasoning_key=key))
    assert reasoning_of(await collect(make_provider())) == "hmm"


async def test_tool_call_is_assembled_from_fragments(server: FakeProviderServer,
                                                     make_provider: MakeProvider) -> None:
    arguments = {"path": "src/main.py", "lines": [1, 20], "note": "ünïcödé"}
    server.script(Reply(text="Reading.", tool_calls=[ToolCallSpec("read_file", arguments, id="c1")],
                        chunk_size=4))
    events = await collect(make_provider())
    start = next(e for e in events if isinstance(e, ToolCallStart))
    assert (start.call_id, start.name) == ("c1", "read_file")
    deltas = [e for e in events if isinstance(e, ToolCallDelta)]
    assert len(deltas) > 3
    assert all(d.index == start.index for d in deltas)
    end = next(e for e in events if isinstance(e, ToolCallEnd))
    assert end == ToolCallEnd(start.index, "c1", "read_file", arguments)
    assert events.index(start) < events.index(deltas[0]) < events.index(end)
    assert events[-1] == Finish("tool_calls")


async def test_parallel_tool_calls_interleaved_by_index(server: FakeProviderServer,
                                                        make_provider: MakeProvider) -> None:
    calls = [ToolCallSpec("read_file", {"path": "a.txt"}, id="ca"),
             ToolCallSpec("list_dir", {"path": "."}, id="cb"),
             ToolCallSpec("grep", {"pattern": "TODO", "glob": "*.py"}, id="cc")]
    server.script(Reply(tool_calls=calls, chunk_size=3, interleave_tool_calls=True))
    events = await collect(make_provider())
    starts = [e for e in events if isinstance(e, ToolCallStart)]
    ends = [e for e in events if isinstance(e, ToolCallEnd)]
    assert [(s.call_id, s.name) for s in starts] == [("ca", "read_file"), ("cb", "list_dir"),
                                                     ("cc", "grep")]
    assert [(e.call_id, e.name, e.arguments) for e in ends] == [(c.id, c.name, c.arguments) for c in calls]
    for start, end in zip(starts, ends, strict=True):
        fragments = "".join(e.fragment for e in events
                            if isinstance(e, ToolCallDelta) and e.index == start.index)
        assert end.index == start.index
        assert json.loads(fragments) == end.arguments


async def test_tool_call_with_no_arguments_gets_an_empty_dict(server: FakeProviderServer,
                                                              make_provider: MakeProvider) -> None:
    server.script(Reply(tool_calls=[ToolCallSpec("get_time", "")]))
    events = await collect(make_provider())
    assert [e.arguments for e in events if isinstance(e, ToolCallEnd)] == [{}]


async def test_invalid_tool_arguments_end_the_call_with_the_reason(server: FakeProviderServer,
                                                                   make_provider: MakeProvider) -> None:
    """Not a failed step: the call ends with why its arguments cannot be used (the engine tells the model)."""
    raw = '{"path": "a.txt", "content": '
    server.script(Reply(tool_calls=[ToolCallSpec("write_file", raw)]))
    events = await collect(make_provider())
    (end,) = [e for e in events if isinstance(e, ToolCallEnd)]
    assert (end.name, end.arguments, end.raw) == ("write_file", {}, raw)
    assert end.unreadable.startswith("not valid JSON")
    assert events[-1] == Finish("tool_calls")


async def test_length_finish_reason_is_normalised(server: FakeProviderServer, make_provider: MakeProvider,
                                                  wire: str) -> None:
    server.script(Reply(text="cut sho", finish_reason="length" if wire == "openai" else "max_tokens"))
    events = await collect(make_provider())
    assert events[-1] == Finish("length")


async def test_unknown_finish_reason_is_other(server: FakeProviderServer, make_provider: MakeProvider,
                                              wire: str) -> None:
    server.script(Reply(text="no", finish_reason="content_filter" if wire == "openai" else "refusal"))
    assert (await collect(make_provider()))[-1] == Finish("other")


async def test_one_provider_serves_many_requests(server: FakeProviderServer,
                                                 make_provider: MakeProvider) -> None:
    server.script(Reply(text="one"), Reply(text="two"), Reply(text="three"))
    provider = make_provider()
    texts = [text_of(await collect(provider)) for _ in range(3)]
    assert texts == ["one", "two", "three"]
    assert server.pending == 0


async def test_usage_without_any_text(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(usage=(7, 0)))
    events = await collect(make_provider())
    assert [e for e in events if isinstance(e, UsageReport)][-1].usage.input_tokens == 7
    assert events[-1] == Finish("stop")
