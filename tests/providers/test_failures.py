"""Status codes, retries, broken and slow streams, against the real fake server."""

from __future__ import annotations

import email.utils
import socket
import time

import pytest

from foya_desktop.core.errors import (
    AuthError,
    BadResponse,
    CannotConnect,
    ContextTooLong,
    IncompleteStream,
    Overloaded,
    ProviderError,
    ProviderTimeout,
    RateLimited,
    StreamErrorEvent,
)
from foya_desktop.core.llm import Finish, TextDelta, ToolCallEnd
from foya_desktop.providers.base import RetryPolicy, Timeouts
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec
from tests.providers.conftest import (
    FAST_RETRY,
    FAST_TIMEOUTS,
    MakeProvider,
    RetryLog,
    collect,
    collect_until_error,
    simple_request,
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ---- retries before the stream starts --------------------------------------

async def test_429_with_retry_after_is_honoured_then_succeeds(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog) -> None:
    server.script(Reply(fault=Fault.status(429, retry_after=0.4)), Reply(text="after the wait"))
    started = time.monotonic()
    events = await collect(make_provider())
    elapsed = time.monotonic() - started
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "after the wait"
    assert len(server.requests) == 2
    [(attempt, delay, error)] = retries.calls
    assert (attempt, delay) == (1, 0.4)
    assert isinstance(error, RateLimited)
    assert error.retry_after == 0.4
    assert elapsed >= 0.4


async def test_retry_after_is_capped_by_the_policy(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog) -> None:
    server.script(Reply(fault=Fault.status(429, retry_after=3600)), Reply(text="ok"))
    policy = RetryPolicy(max_attempts=2, base_delay=0.01, max_retry_after=0.2)
    started = time.monotonic()
    await collect(make_provider(retry=policy))
    assert time.monotonic() - started < 2
    assert [delay for _, delay, _ in retries.calls] == [0.2]


async def test_retry_after_as_http_date(server: FakeProviderServer, make_provider: MakeProvider,
                                        retries: RetryLog) -> None:
    when = email.utils.formatdate(time.time() + 1, usegmt=True)
    server.script(Reply(fault=Fault.status(503, retry_after=when)), Reply(text="ok"))
    await collect(make_provider())
    [(_, delay, error)] = retries.calls
    assert isinstance(error, Overloaded)
    assert 0 <= delay <= 2.0


@pytest.mark.parametrize("code", [500, 502, 503, 529, 408, 409])
async def test_server_errors_are_retried_then_succeed(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog, code: int) -> None:
    server.script(Reply(fault=Fault.status(code)), Reply(text="recovered"))
    events = await collect(make_provider())
    assert events[-1] == Finish("stop")
    assert len(server.requests) == 2
    assert [type(e) for _, _, e in retries.calls] == [Overloaded]
    assert retries.calls[0][1] <= FAST_RETRY.max_delay


async def test_gives_up_after_max_attempts(server: FakeProviderServer, make_provider: MakeProvider,
                                           retries: RetryLog) -> None:
    server.script(*[Reply(fault=Fault.status(529)) for _ in range(5)])
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, Overloaded)
    assert error.status == 529
    assert "overloaded" in str(error)
    assert len(server.requests) == FAST_RETRY.max_attempts
    assert [attempt for attempt, _, _ in retries.calls] == [1, 2]


async def test_backoff_grows_without_retry_after(server: FakeProviderServer, make_provider: MakeProvider,
                                                 retries: RetryLog) -> None:
    server.script(*[Reply(fault=Fault.status(500)) for _ in range(4)])
    policy = RetryPolicy(max_attempts=4, base_delay=0.02, max_delay=0.05)
    await collect_until_error(make_provider(retry=policy))
    delays = [delay for _, delay, _ in retries.calls]
    assert 0.01 <= delays[0] <= 0.02
    assert 0.02 <= delays[1] <= 0.04
    assert 0.025 <= delays[2] <= 0.05  # capped by max_delay


# ---- errors that are not retried ---------------------------------------------

async def test_bad_key_is_an_auth_error_in_plain_words(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog) -> None:
    server.script(Reply(fault=Fault.status(401)))
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, AuthError)
    assert str(error).startswith("The API key was rejected by 127.0.0.1:")
    assert error.status == 401
    assert retries.calls == []
    assert len(server.requests) == 1


async def test_forbidden_is_an_auth_error(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(fault=Fault.status(403)))
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, AuthError)
    assert "The API key was rejected" in str(error)


async def test_context_too_long(server: FakeProviderServer, make_provider: MakeProvider,
                                retries: RetryLog) -> None:
    server.script(Reply(fault=Fault.status(400)))  # the fake's default 400 body is the vendor's wording
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, ContextTooLong)
    assert str(error).startswith("The conversation is too long for the model's context window")
    assert retries.calls == []


async def test_other_400_is_a_plain_provider_error(server: FakeProviderServer,
                                                   make_provider: MakeProvider) -> None:
    server.script(Reply(fault=Fault.status(400, body={"error": {"type": "invalid_request_error",
                                                                 "message": "tools[0].name is invalid"}})))
    _, error = await collect_until_error(make_provider())
    assert type(error) is ProviderError
    assert "rejected the request (HTTP 400): tools[0].name is invalid" in str(error)


async def test_404_points_at_base_url_and_model(server: FakeProviderServer,
                                                make_provider: MakeProvider) -> None:
    _, error = await collect_until_error(make_provider(base_url=server.base_url + "/nope/v1"))
    assert type(error) is ProviderError
    assert "check the base URL and the model name" in str(error)


async def test_plain_text_error_body(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(fault=Fault.status(502, body="<html>Bad Gateway</html>")),
                  Reply(fault=Fault.status(502, body="<html>Bad Gateway</html>")),
                  Reply(fault=Fault.status(502, body="<html>Bad Gateway</html>")))
    _, error = await collect_until_error(make_provider())
    assert isinstance(error, Overloaded)
    assert "HTTP 502" in str(error)


async def test_cannot_connect_wording(make_provider: MakeProvider, retries: RetryLog) -> None:
    port = free_port()
    _, error = await collect_until_error(make_provider(base_url=f"http://127.0.0.1:{port}/v1"))
    assert isinstance(error, CannotConnect)
    assert str(error).startswith(f"Cannot connect to 127.0.0.1:{port}")
    assert len(retries.calls) == FAST_RETRY.max_attempts - 1


# ---- once streaming began, nothing is retried ------------------------------

async def test_midstream_error_is_raised_not_retried(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog, wire: str) -> None:
    server.script(Reply(text="partial answer here", chunk_size=4,
                        fault=Fault.midstream_error("overloaded_error", "Overloaded", after_chunks=2)),
                  Reply(text="must not be used"))
    events, error = await collect_until_error(make_provider())
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "partial "
    assert not any(isinstance(e, Finish) for e in events)
    assert isinstance(error, StreamErrorEvent if wire == "openai" else Overloaded)
    assert "during the reply" in str(error)
    assert "Overloaded" in str(error)
    assert retries.calls == []
    assert len(server.requests) == 1


@pytest.mark.parametrize("wire", ["anthropic"])
async def test_anthropic_error_before_any_content_is_retried(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog) -> None:
    server.script(Reply(text="x", fault=Fault.midstream_error("overloaded_error", after_chunks=0)),
                  Reply(text="second try"))
    events = await collect(make_provider())
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "second try"
    assert [type(e) for _, _, e in retries.calls] == [Overloaded]


@pytest.mark.parametrize("wire", ["anthropic"])
@pytest.mark.parametrize(("error_type", "expected"), [
    ("rate_limit_error", RateLimited), ("api_error", Overloaded), ("authentication_error", AuthError),
    ("invalid_request_error", ProviderError), ("something_new", StreamErrorEvent)])
async def test_anthropic_error_types_map_to_the_tree(
        server: FakeProviderServer, make_provider: MakeProvider, error_type: str,
        expected: type[ProviderError]) -> None:
    server.script(Reply(text="abcdefgh", fault=Fault.midstream_error(error_type, "boom", after_chunks=1)))
    _, error = await collect_until_error(make_provider())
    assert type(error) is expected
    assert error_type in str(error)


async def test_cut_stream_is_incomplete_and_never_finishes(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog) -> None:
    server.script(Reply(text="this will be cut off", chunk_size=4, fault=Fault.cut(after_chunks=2)))
    events, error = await collect_until_error(make_provider())
    assert isinstance(error, IncompleteStream)
    assert "before the reply finished" in str(error) or "before it was complete" in str(error)
    assert not any(isinstance(e, Finish) for e in events)
    assert retries.calls == []


async def test_cut_during_tool_call_never_ends_the_call(server: FakeProviderServer,
                                                        make_provider: MakeProvider) -> None:
    server.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "x", "content": "y" * 40})],
                        chunk_size=4, fault=Fault.cut(after_chunks=3)))
    events, error = await collect_until_error(make_provider())
    assert isinstance(error, IncompleteStream)
    assert not any(isinstance(e, ToolCallEnd | Finish) for e in events)


async def test_bad_json_in_stream(server: FakeProviderServer, make_provider: MakeProvider,
                                  retries: RetryLog) -> None:
    server.script(Reply(text="hello world", fault=Fault.bad_json(after_chunks=1)))
    events, error = await collect_until_error(make_provider())
    assert isinstance(error, BadResponse)
    assert "invalid JSON" in str(error)
    assert not any(isinstance(e, Finish) for e in events)
    assert retries.calls == []


# ---- timeouts ----------------------------------------------------------------

async def test_idle_gap_timeout(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(text="slow " * 10, chunk_size=5, delay_per_chunk=1.0))
    timeouts = Timeouts(connect=2, first_byte=5, idle=0.3, total=20)
    started = time.monotonic()
    _, error = await collect_until_error(make_provider(timeouts=timeouts))
    assert isinstance(error, ProviderTimeout)
    assert "stalled: no complete stream event arrived for 0.3 s" in str(error)
    assert time.monotonic() - started < 2


async def test_slow_stream_within_idle_timeout_completes(server: FakeProviderServer,
                                                         make_provider: MakeProvider) -> None:
    server.script(Reply(text="a" * 30, chunk_size=5, delay_per_chunk=0.05))
    timeouts = Timeouts(connect=2, first_byte=5, idle=1.0, total=20)
    events = await collect(make_provider(timeouts=timeouts))
    assert events[-1] == Finish("stop")


async def test_first_byte_timeout(server: FakeProviderServer, make_provider: MakeProvider,
                                  retries: RetryLog) -> None:
    server.script(Reply(text="late", fault=Fault.hang_before_first_byte(10)))
    timeouts = Timeouts(connect=2, first_byte=0.3, idle=5, total=20)
    started = time.monotonic()
    _, error = await collect_until_error(make_provider(timeouts=timeouts))
    assert isinstance(error, ProviderTimeout)
    assert "did not start replying within 0.3 s" in str(error)
    assert time.monotonic() - started < 2
    assert retries.calls == []


async def test_short_hang_within_first_byte_timeout_is_fine(server: FakeProviderServer,
                                                            make_provider: MakeProvider) -> None:
    server.script(Reply(text="late but fine", fault=Fault.hang_before_first_byte(0.2)))
    events = await collect(make_provider(timeouts=FAST_TIMEOUTS))
    assert events[-1] == Finish("stop")


async def test_total_timeout(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(text="x" * 100, chunk_size=1, delay_per_chunk=0.05))
    timeouts = Timeouts(connect=2, first_byte=5, idle=5, total=0.5)
    started = time.monotonic()
    events, error = await collect_until_error(make_provider(timeouts=timeouts))
    assert isinstance(error, ProviderTimeout)
    assert "took longer than the 0.5 s limit" in str(error)
    assert events  # it was streaming
    assert time.monotonic() - started < 2


async def test_retry_never_sleeps_past_the_total_deadline(
        server: FakeProviderServer, make_provider: MakeProvider, retries: RetryLog) -> None:
    server.script(Reply(fault=Fault.status(429, retry_after=5)), Reply(text="too late"))
    timeouts = Timeouts(connect=2, first_byte=5, idle=5, total=1.0)
    policy = RetryPolicy(max_attempts=3, max_retry_after=10)
    started = time.monotonic()
    _, error = await collect_until_error(make_provider(timeouts=timeouts, retry=policy))
    assert isinstance(error, RateLimited)
    assert time.monotonic() - started < 1
    assert retries.calls == []


async def test_consumer_can_stop_early(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(text="a long reply " * 20, chunk_size=3, delay_per_chunk=0.01), Reply(text="next"))
    provider = make_provider()
    stream = provider.stream(simple_request())
    async for _event in stream:
        break
    await stream.aclose()
    events = await collect(provider)
    assert "".join(e.text for e in events if isinstance(e, TextDelta)) == "next"
