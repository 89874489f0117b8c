"""The SSE parser: framing rules, fed in arbitrarily small pieces."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from foya_desktop.providers.sse import SseEvent, SseParser, aiter_sse

STREAM = (
    b": keep-alive comment\r\n"
    b"event: message_start\r\n"
    b"data: {\"a\": 1}\r\n"
    b"\r\n"
    b"data: line one\n"
    b"data: line two\n"
    b"id: 7\n"
    b"\n"
    b"data:no-space\r"
    b"\r"
    b"event: ping\n"
    b"data: \xe2\x9c\x93\n"
    b"\n"
)
EXPECTED = [
    SseEvent("message_start", '{"a": 1}'),
    SseEvent("message", "line one\nline two", id="7"),
    SseEvent("message", "no-space", id="7"),
    SseEvent("ping", "\u2713", id="7"),
]


def parse_in_pieces(data: bytes, size: int) -> list[SseEvent]:
    parser = SseParser()
    events: list[SseEvent] = []
    for start in range(0, len(data), size):
        events.extend(parser.feed(data[start:start + size]))
    return events + parser.close()


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_events_are_the_same_however_the_bytes_are_split(size: int) -> None:
    assert parse_in_pieces(STREAM, size) == EXPECTED


def test_crlf_split_between_chunks_is_one_line_ending() -> None:
    parser = SseParser()
    assert parser.feed(b"data: x\r") == []
    assert parser.feed(b"\n\r") == [SseEvent("message", "x")]
    assert parser.feed(b"\ndata: y\r\n\r\n") == [SseEvent("message", "y")]


def test_blank_lines_without_data_dispatch_nothing_and_reset_the_event_name() -> None:
    assert parse_in_pieces(b"event: lonely\n\n\ndata: z\n\n", 4) == [SseEvent("message", "z")]


def test_empty_data_line_is_an_event_with_empty_data() -> None:
    assert parse_in_pieces(b"data:\n\n", 1) == [SseEvent("message", "")]


def test_byte_order_mark_at_the_start_is_ignored() -> None:
    assert parse_in_pieces(b"\xef\xbb\xbfdata: a\n\n", 1) == [SseEvent("message", "a")]


def test_complete_lines_without_final_blank_line_are_kept_at_eof() -> None:
    assert parse_in_pieces(b"data: [DONE]\n", 3) == [SseEvent("message", "[DONE]")]


def test_a_line_cut_off_at_eof_is_dropped() -> None:
    assert parse_in_pieces(b"data: a\n\ndata: {\"trunc", 5) == [SseEvent("message", "a")]


async def test_aiter_sse_over_an_async_byte_stream() -> None:
    async def source() -> AsyncIterator[bytes]:
        for piece in (b"event: a\nda", b"ta: 1\n", b"\nevent: b\ndata: 2\n\n"):
            yield piece

    events = [event async for event in aiter_sse(source())]
    assert events == [SseEvent("a", "1"), SseEvent("b", "2")]
