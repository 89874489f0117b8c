"""Bounded memory against broken or hostile servers, against the real fake server (issue 14):
one SSE line and one event have a size limit with a clear error, parsing a huge line is
linear, and HTTP 200 with a web page is reported as a web page."""

from __future__ import annotations

from typing import SupportsIndex

import pytest

from foya_desktop.core.errors import BadResponse
from foya_desktop.providers.sse import MAX_EVENT_CHARS, MAX_LINE_CHARS, SseParser
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.providers.conftest import MakeProvider, collect_until_error


async def test_a_line_that_never_ends_is_stopped(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(fault=Fault.endless_line(MAX_LINE_CHARS + 2 * 65536)))
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, BadResponse)
    assert "stream line longer than 16 MB" in str(error)


async def test_an_event_that_never_ends_is_stopped(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(fault=Fault.endless_event(MAX_EVENT_CHARS + 2 * 65536)))
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, BadResponse)
    assert "stream event longer than 32 MB" in str(error)


async def test_a_web_page_with_status_200_is_named(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(fault=Fault.html_page()))
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, BadResponse)
    assert "web page (HTML)" in str(error) and "captive portal" in str(error)


def test_a_huge_line_in_small_chunks_is_kept_in_pieces() -> None:
    """Linear work: a partial line is kept as the pieces that arrived, joined once when it ends
    (the old parser re-scanned and re-copied the whole buffer per chunk: quadratic)."""
    parser = SseParser()
    for _ in range(2000):
        assert parser.feed(b"data: " if _ == 0 else b"z" * 4096) == []
    assert len(parser._partial) == 2000
    (event,) = parser.feed(b"\n\n")
    assert len(event.data) == 1999 * 4096 and parser._partial == []


class _CountingText(str):
    """A decoded chunk that counts the characters its ``find`` calls look at."""

    looked_at = 0

    def find(self, sub: str, start: SupportsIndex | None = 0, end: SupportsIndex | None = None) -> int:
        begin = 0 if start is None else int(start)
        found = super().find(sub, begin)
        _CountingText.looked_at += (found if found >= 0 else len(self)) - begin + 1
        return found


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_many_short_lines_in_one_big_chunk_are_scanned_once(ending: str) -> None:
    """Issue 14 (no quadratic parsing from a hostile server): a chunk of n short lines costs O(n),
    whatever the line endings. httpx hands a decoded read over whole, so 16 kB of gzip can be one
    8 MB chunk; looking for the next CR from every LF-only line to the chunk's end took 7 s for
    2 MB. Counted, not timed: the characters the line search looks at stay within twice the chunk."""
    lines = 20_000
    text = _CountingText(f"data: x{ending}{ending}" * lines)
    _CountingText.looked_at = 0
    events = SseParser()._feed_text(text)
    assert len(events) == lines and {e.data for e in events} == {"x"}
    assert _CountingText.looked_at <= 2 * len(text) + 4 * lines, (_CountingText.looked_at, len(text))


def test_limits_apply_per_line_and_event() -> None:
    parser = SseParser(max_line=10, max_event=25)
    assert parser.feed(b"data: 1234\n\n")[0].data == "1234"
    with pytest.raises(BadResponse, match="line"):
        parser.feed(b"data: 12345678901\n")
    parser = SseParser(max_line=10, max_event=25)
    with pytest.raises(BadResponse, match="event"):
        parser.feed(b"data: 1234\n" * 6)
