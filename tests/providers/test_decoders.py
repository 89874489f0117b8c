"""Decoder edge cases that real servers produce but the fake does not script."""

from __future__ import annotations

import json
from typing import Any

import pytest

from foya_desktop.core.errors import (
    BadResponse,
    ContextTooLong,
    IncompleteStream,
    StreamErrorEvent,
    UnreadableReply,
)
from foya_desktop.core.figures import Usage
from foya_desktop.core.llm import (
    Finish,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallStart,
    UsageReport,
)
from foya_desktop.providers.anthropic_decoder import MessagesDecoder
from foya_desktop.providers.openai_decoder import ChatCompletionsDecoder
from foya_desktop.providers.sse import SseEvent


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> SseEvent:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return SseEvent("message", json.dumps({"choices": choices, **extra}))


def feed_all(decoder: ChatCompletionsDecoder | MessagesDecoder, events: list[SseEvent]) -> list[StreamEvent]:
    out: list[StreamEvent] = []
    for event in events:
        out.extend(decoder.feed(event))
    return out + decoder.end()


# ---- Chat Completions -----------------------------------------------------------

def test_finish_without_done_is_accepted_at_end_of_stream() -> None:
    events = feed_all(ChatCompletionsDecoder("h"), [chunk({"content": "hi"}), chunk({}, "stop")])
    assert events == [TextDelta("hi"), Finish("stop")]


def test_done_without_finish_reason_finishes_as_other() -> None:
    decoder = ChatCompletionsDecoder("h")
    events = feed_all(decoder, [chunk({"content": "hi"}), SseEvent("message", "[DONE]")])
    assert events[-1] == Finish("other")
    assert decoder.done


def test_end_without_finish_or_done_is_incomplete() -> None:
    decoder = ChatCompletionsDecoder("h")
    decoder.feed(chunk({"content": "hi"}))
    with pytest.raises(IncompleteStream, match="ended before it was complete"):
        decoder.end()


def test_tool_call_name_arriving_after_arguments() -> None:
    events = feed_all(ChatCompletionsDecoder("h"), [
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"a"'}}]}),
        chunk({"tool_calls": [{"index": 0, "id": "x", "function": {"name": "f", "arguments": ": 1}"}}]}),
        chunk({}, "stop"),  # some local servers say "stop" after tool calls
        SseEvent("message", "[DONE]"),
    ])
    assert events == [ToolCallStart(0, "x", "f"), ToolCallDelta(0, '{"a"'), ToolCallDelta(0, ": 1}"),
                      ToolCallEnd(0, "x", "f", {"a": 1}), Finish("tool_calls")]


def test_whole_tool_calls_without_index_in_separate_chunks() -> None:
    events = feed_all(ChatCompletionsDecoder("h"), [
        chunk({"tool_calls": [{"id": "a", "function": {"name": "f", "arguments": {"n": 1}}}]}),
        chunk({"tool_calls": [{"id": "b", "function": {"name": "g", "arguments": '{"n": 2}'}}]}),
        chunk({}, "tool_calls"),
    ])
    assert [e for e in events if isinstance(e, ToolCallEnd)] == [
        ToolCallEnd(0, "a", "f", {"n": 1}), ToolCallEnd(1, "b", "g", {"n": 2})]


def test_repeated_ids_and_names_are_not_concatenated() -> None:
    events = feed_all(ChatCompletionsDecoder("h"), [
        chunk({"tool_calls": [{"index": 1, "id": "c", "function": {"name": "ls", "arguments": "{"}}]}),
        chunk({"tool_calls": [{"index": 1, "id": "c", "function": {"name": "ls", "arguments": "}"}}]}),
        chunk({}, "tool_calls"),
    ])
    assert [e for e in events if isinstance(e, ToolCallEnd)] == [ToolCallEnd(1, "c", "ls", {})]


def test_tool_call_that_never_gets_a_name_ends_without_one() -> None:
    """The engine tells the model (an unknown tool); the step is not lost to a bad response."""
    decoder = ChatCompletionsDecoder("h")
    decoder.feed(chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}))
    assert decoder.feed(chunk({}, "tool_calls")) == [ToolCallEnd(0, "", "", {})]


@pytest.mark.parametrize(("raw", "why"), [("[1]", "a JSON array, not a JSON object"),
                                          ('{"a": ', "not valid JSON (Expecting value: line 1 column 7")])
def test_arguments_that_are_not_an_object_end_the_call_with_the_reason(raw: str, why: str) -> None:
    decoder = ChatCompletionsDecoder("h")
    decoder.feed(chunk({"tool_calls": [{"index": 0, "id": "c", "function": {"name": "f", "arguments": raw}}]}))
    (end,) = decoder.feed(chunk({}, "tool_calls"))
    assert isinstance(end, ToolCallEnd)
    assert (end.call_id, end.name, end.arguments, end.raw) == ("c", "f", {}, raw)
    assert end.unreadable.startswith(why)


def test_a_call_without_an_id_ends_with_an_empty_id() -> None:
    """No made-up ``call_<index>`` (it repeats in every step): the engine gives the call an id."""
    events = feed_all(ChatCompletionsDecoder("h"), [
        chunk({"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "{}"}}]}), chunk({}, "tool_calls")])
    assert [e for e in events if isinstance(e, ToolCallEnd)] == [ToolCallEnd(0, "", "f", {})]


def test_llama_cpp_parse_failure_in_stream_is_an_unreadable_reply() -> None:
    """llama.cpp's tools/server sends its chat parser's failure inside the stream in this shape."""
    event = SseEvent("message", json.dumps({"error": {
        "code": 500, "message": "Failed to parse input at pos 12: <tool_call>{bad", "type": "server_error"}}))
    with pytest.raises(UnreadableReply, match="Failed to parse input at pos 12"):
        ChatCompletionsDecoder("h").feed(event)
    anthropic_shape = SseEvent("error", json.dumps({
        "code": 500, "message": "Failed to parse input at pos 3", "type": "server_error"}))
    with pytest.raises(UnreadableReply, match="server_error"):
        MessagesDecoder("h").feed(anthropic_shape)
    other = SseEvent("message", '{"error": {"code": 500, "message": "out of memory", "type": "server_error"}}')
    with pytest.raises(StreamErrorEvent) as caught:
        ChatCompletionsDecoder("h").feed(other)
    assert not isinstance(caught.value, UnreadableReply)


def test_error_object_in_stream() -> None:
    with pytest.raises(StreamErrorEvent, match="reported an error during the reply: model crashed"):
        ChatCompletionsDecoder("h").feed(SseEvent("message", '{"error": {"message": "model crashed"}}'))


def test_usage_on_a_content_chunk_and_deepseek_cache_field() -> None:
    events = ChatCompletionsDecoder("h").feed(chunk({"content": "x"}, usage={
        "prompt_tokens": 9, "completion_tokens": 2, "prompt_cache_hit_tokens": 4}))
    assert events == [TextDelta("x"), UsageReport(Usage(9, 2, 4, None))]


def test_null_usage_and_other_choices_are_ignored() -> None:
    event = SseEvent("message", json.dumps({"choices": [
        {"index": 1, "delta": {"content": "other choice"}}, {"index": 0, "delta": {"content": "mine"}}],
        "usage": None}))
    assert ChatCompletionsDecoder("h").feed(event) == [TextDelta("mine")]


def test_json_that_is_not_an_object_is_a_bad_response() -> None:
    with pytest.raises(BadResponse, match="not a JSON object"):
        ChatCompletionsDecoder("h").feed(SseEvent("message", "[1, 2]"))


# ---- Anthropic Messages --------------------------------------------------------

def anthropic(kind: str, **data: Any) -> SseEvent:
    return SseEvent(kind, json.dumps({"type": kind, **data}))


def test_anthropic_prefilled_input_ping_unknown_events_and_usage() -> None:
    events = feed_all(MessagesDecoder("h"), [
        anthropic("message_start", message={"usage": {"input_tokens": 5, "cache_read_input_tokens": 100,
                                                      "cache_creation_input_tokens": 20}}),
        anthropic("ping"),
        anthropic("brand_new_event", whatever=1),
        anthropic("content_block_start", index=0,
                  content_block={"type": "tool_use", "id": "t", "name": "f", "input": {"a": 1}}),
        anthropic("content_block_stop", index=0),
        anthropic("content_block_start", index=1,
                  content_block={"type": "tool_use", "id": "u", "name": "g", "input": {}}),
        anthropic("content_block_stop", index=1),
        anthropic("message_delta", delta={"stop_reason": "tool_use"}, usage={"output_tokens": 7}),
        anthropic("message_stop"),
    ])
    assert events == [
        ToolCallStart(0, "t", "f"), ToolCallEnd(0, "t", "f", {"a": 1}),
        ToolCallStart(1, "u", "g"), ToolCallEnd(1, "u", "g", {}),
        UsageReport(Usage(input_tokens=125, output_tokens=7, cache_read_tokens=100, cache_write_tokens=20)),
        Finish("tool_calls"),
    ]


def test_anthropic_end_without_message_stop_is_incomplete() -> None:
    decoder = MessagesDecoder("h")
    decoder.feed(anthropic("message_delta", delta={"stop_reason": "end_turn"}, usage={"output_tokens": 1}))
    with pytest.raises(IncompleteStream):
        decoder.end()


def test_anthropic_context_error_in_stream() -> None:
    with pytest.raises(ContextTooLong):
        MessagesDecoder("h").feed(anthropic("error", error={
            "type": "invalid_request_error",
            "message": "prompt is too long: 300000 tokens > 200000 maximum"}))
