"""The request machinery both adapters share: send, time out, retry, decode.

Adapters only build a request body and a :class:`StreamDecoder` (a small
synchronous state machine from SSE events to neutral stream events); this
module owns everything that can go wrong on the wire, so the rules are the
same for every vendor:

* timeouts are measured on *events*: ``first_byte`` until the first SSE event,
  ``idle`` between events, ``total`` for the whole call (retries included).
  httpx's own read timeout cannot express these, so they are asyncio
  deadlines around each wait — a byte now and then does not reset them, only
  a complete event does;
* what one reply accumulates is bounded (``ReplyLimits``): each attempt's
  decoder charges a fresh :class:`ReplyBudget`;
* a failure is retried (with backoff, honouring Retry-After) only while
  nothing has been handed to the caller — once an event was yielded the
  caller has acted on it and a retry would duplicate text or tool calls;
* no exception or log line carries the API key or any request header.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import random
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import Any, Protocol

import httpx

from foya_desktop.core.errors import (
    BadResponse,
    CannotConnect,
    IncompleteStream,
    ProviderError,
    ProviderTimeout,
)
from foya_desktop.core.llm import StreamEvent
from foya_desktop.providers.base import RetryCallback, RetryPolicy, Timeouts
from foya_desktop.providers.budget import DEFAULT_LIMITS, ReplyBudget, ReplyLimits
from foya_desktop.providers.http_errors import (
    error_for_status,
    error_in_ok_body,
    parse_retry_after,
    redact,
    stated_window,
    vendor_error,
)
from foya_desktop.providers.sse import SseEvent, aiter_sse

log = logging.getLogger(__name__)

# NOTE: httpx loads httpcore with its first client, and httpcore imports anyio's asyncio backend
# at the first request: 30 ms on the loop, which is the GUI thread in the window, measured as the
# longest freeze of the first message sent after start-up (issue 14). Importing both with this
# module moves them to where providers are built: a worker thread (engine/connections/pool.py,
# registry.warm_up).
for _lazy in ("httpcore", "anyio._backends._asyncio"):
    with contextlib.suppress(ImportError):  # httpcore without anyio uses its own asyncio backend
        importlib.import_module(_lazy)

_ERROR_BODY_LIMIT = 64 * 1024
_CLEANUP_SECONDS = 1.0


class StreamDecoder(Protocol):
    """Vendor-specific translation of one reply's SSE events into stream events."""

    @property
    def done(self) -> bool:
        """True once the terminal event arrived; the transport stops reading then."""
        ...

    def feed(self, event: SseEvent) -> list[StreamEvent]:
        """Translate one SSE event; raise a :class:`ProviderError` for errors in the stream."""
        ...

    def end(self) -> list[StreamEvent]:
        """The byte stream ended: return final events or raise :class:`IncompleteStream`."""
        ...


def host_of(url: str) -> str:
    """``host[:port]`` for messages; never the userinfo part of a URL."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError):
        return "the server"
    if not parsed.host:
        return "the server"
    return f"{parsed.host}:{parsed.port}" if parsed.port else parsed.host


def encode_body(build_body: Callable[[], dict[str, Any]]) -> bytes:
    """The request body as UTF-8 JSON, as httpx's ``json=`` writes it (compact, strict)."""
    body = build_body()
    try:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    except ValueError as error:  # NaN or infinity, e.g. in tool arguments a model wrote
        raise ProviderError(f"The request cannot be sent: it holds a number JSON cannot carry ({error}).") \
            from None


def backoff_delay(policy: RetryPolicy, attempt: int, error: ProviderError) -> float:
    """Seconds to wait after failed ``attempt`` (1-based): the server's Retry-After capped by
    ``max_retry_after``, else exponential backoff with jitter capped by ``max_delay``."""
    if error.retry_after is not None:
        return min(error.retry_after, policy.max_retry_after)
    exponential = min(policy.max_delay, policy.base_delay * 2.0 ** (attempt - 1))
    return exponential * random.uniform(0.5, 1.0)


class HttpStreamer:
    """An httpx client plus the timeout and retry rules; one per provider instance."""

    def __init__(self, *, timeouts: Timeouts, retry: RetryPolicy, on_retry: RetryCallback | None,
                 client: httpx.AsyncClient | None, secret: str | None,
                 limits: ReplyLimits = DEFAULT_LIMITS) -> None:
        self._timeouts = timeouts
        self._limits = limits
        self._retry = retry
        self._on_retry = on_retry
        self._secret = secret
        self._owns_client = client is None
        self._client = client or httpx.AsyncClient(timeout=httpx.Timeout(
            connect=timeouts.connect, read=None, write=timeouts.connect, pool=timeouts.connect))

    async def aclose(self) -> None:
        """Close the client if this streamer created it."""
        if self._owns_client:
            await self._client.aclose()

    async def stream(self, url: str, headers: Mapping[str, str], build_body: Callable[[], dict[str, Any]],
                     new_decoder: Callable[[ReplyBudget], StreamDecoder]) -> AsyncGenerator[StreamEvent]:
        """POST the body ``build_body`` returns to ``url`` and yield decoded events, retrying
        only before the first. ``new_decoder`` makes each attempt's decoder, charging the budget.

        NOTE: the body is built and encoded on a worker thread. It carries the whole compiled
        history: hundreds of KB whose conversion and JSON encoding took 5–15 ms of the loop (the
        GUI thread in the window) at every model step of a long session (issue 14).
        """
        content = await asyncio.to_thread(encode_body, build_body)
        loop = asyncio.get_running_loop()
        total_deadline = loop.time() + self._timeouts.total
        host = host_of(url)
        attempt = 0
        while True:
            attempt += 1
            started = False
            decoder = new_decoder(ReplyBudget(host, self._limits))
            attempt_events = self._attempt(url, headers, content, decoder, total_deadline)
            try:
                # aclosing: if our caller stops early, the response is released now, not at GC.
                async with contextlib.aclosing(attempt_events):
                    async for event in attempt_events:
                        started = True
                        yield event
                return
            except ProviderError as error:
                if started or not self._may_retry(attempt, error):
                    raise
                delay = backoff_delay(self._retry, attempt, error)
                if loop.time() + delay >= total_deadline:
                    raise
                log.warning("Request to %s failed (attempt %d of %d: %s); retrying in %.1f s",
                            host, attempt, self._retry.max_attempts, error, delay)
                if self._on_retry is not None:
                    self._on_retry(attempt, delay, error)
                await asyncio.sleep(delay)

    def _may_retry(self, attempt: int, error: ProviderError) -> bool:
        return error.retryable and attempt < self._retry.max_attempts

    async def _attempt(self, url: str, headers: Mapping[str, str], content: bytes,
                       decoder: StreamDecoder, total_deadline: float) -> AsyncGenerator[StreamEvent]:
        clock = _Deadlines(self._timeouts, total_deadline, host_of(url))
        try:
            request = self._client.build_request(
                "POST", url, headers={**headers, "content-type": "application/json"}, content=content)
        except (httpx.InvalidURL, ValueError):
            raise ProviderError("The base URL of this connection is not a valid address.") from None
        response = await self._send(request, clock)
        body_chunks = response.aiter_bytes()
        try:
            await self._check_response(response, body_chunks, clock)
            async with contextlib.aclosing(aiter_sse(body_chunks)) as events:
                while not decoder.done:
                    event = await self._next_event(events, clock)
                    if event is None:
                        for item in decoder.end():
                            yield item
                        return
                    clock.got_event()
                    for item in decoder.feed(event):
                        yield item
                await _drain(events)
        finally:
            await response.aclose()
            await _exhaust(body_chunks)

    async def _send(self, request: httpx.Request, clock: _Deadlines) -> httpx.Response:
        host = clock.host
        try:
            async with clock.waiting():
                return await self._client.send(request, stream=True)
        except httpx.ConnectTimeout:
            raise ProviderTimeout(f"Cannot connect to {host}: no answer within "
                                  f"{self._timeouts.connect:g} s.") from None
        except (httpx.ConnectError, httpx.UnsupportedProtocol) as error:
            reason = redact(str(error), self._secret) or type(error).__name__
            raise CannotConnect(f"Cannot connect to {host} ({reason}). Check the base URL and that "
                                "the server is running.") from None
        except httpx.HTTPError as error:
            if isinstance(error, httpx.TimeoutException):
                raise _broken(host, error) from None
            # e.g. a pooled keep-alive connection the server had just closed: safe to retry
            raise CannotConnect(f"The connection to {host} closed before a reply arrived "
                                f"({type(error).__name__}).") from None

    async def _check_response(self, response: httpx.Response, body_chunks: AsyncIterator[bytes],
                              clock: _Deadlines) -> None:
        status = response.status_code
        content_type = response.headers.get("content-type", "")
        if 200 <= status < 300 and "html" in content_type.lower():
            raise BadResponse(f"{clock.host} answered with a web page (HTML) instead of an event stream. "
                              "That is usually a captive portal (a Wi-Fi login page), a proxy, or a base "
                              "URL that points at a website; open the address in a browser or check the "
                              "base URL.", status=status)
        if 200 <= status < 300 and "json" not in content_type:
            return  # an event stream (some local servers label it loosely)
        if 300 <= status < 400:
            location = response.headers.get("location", "elsewhere")
            raise ProviderError(f"{clock.host} redirected the request (HTTP {status}) to {location}; "
                                "use that address as the base URL.", status=status)
        raw = await self._read_limited(body_chunks, clock)
        kind, message = vendor_error(raw)
        if status >= 400:
            raise error_for_status(status, clock.host, vendor_type=kind, vendor_message=message,
                                   secret=self._secret, retry_after=parse_retry_after(response.headers),
                                   window=stated_window(raw))
        if message:  # some servers report errors with 200 and a JSON body
            raise error_in_ok_body(status, clock.host, vendor_type=kind, vendor_message=message,
                                   secret=self._secret, window=stated_window(raw))
        raise BadResponse(f"{clock.host} answered with a single JSON document instead of an event "
                          "stream; it may not support streaming.")

    async def _read_limited(self, body_chunks: AsyncIterator[bytes], clock: _Deadlines) -> bytes:
        chunks: list[bytes] = []
        size = 0
        try:
            async with clock.waiting():
                async for chunk in body_chunks:
                    chunks.append(chunk)
                    size += len(chunk)
                    if size >= _ERROR_BODY_LIMIT:
                        break
        except httpx.HTTPError:
            pass  # the status code alone still says what went wrong
        return b"".join(chunks)

    async def _next_event(self, events: AsyncGenerator[SseEvent], clock: _Deadlines) -> SseEvent | None:
        try:
            async with clock.waiting():
                return await anext(events)
        except StopAsyncIteration:
            return None
        except httpx.HTTPError as error:
            raise _broken(clock.host, error) from None


class _Deadlines:
    """Which deadline applies to the next wait, and the plain-words error when it passes.

    Until the first event, one fixed deadline (request start + ``first_byte``)
    covers connecting, the response headers and the first event together;
    after that each wait gets ``idle`` seconds; ``total`` caps everything.
    """

    def __init__(self, timeouts: Timeouts, total_deadline: float, host: str) -> None:
        self._timeouts = timeouts
        self._total_deadline = total_deadline
        self._first_byte_deadline = asyncio.get_running_loop().time() + timeouts.first_byte
        self._seen_event = False
        self.host = host

    def got_event(self) -> None:
        self._seen_event = True

    @contextlib.asynccontextmanager
    async def waiting(self) -> AsyncIterator[None]:
        """Run one wait under the tighter of the gap deadline and the total deadline."""
        if self._seen_event:
            gap_deadline = asyncio.get_running_loop().time() + self._timeouts.idle
        else:
            gap_deadline = self._first_byte_deadline
        deadline = min(gap_deadline, self._total_deadline)
        try:
            async with asyncio.timeout_at(deadline):
                yield
        except TimeoutError:
            raise self._timeout_error(total=deadline == self._total_deadline) from None

    def _timeout_error(self, *, total: bool) -> ProviderTimeout:
        if total:
            return ProviderTimeout(f"The reply from {self.host} took longer than the "
                                   f"{self._timeouts.total:g} s limit.")
        if self._seen_event:
            return ProviderTimeout(f"The reply from {self.host} stalled: no complete stream event "
                                   f"arrived for {self._timeouts.idle:g} s.")
        return ProviderTimeout(f"{self.host} did not start replying within "
                               f"{self._timeouts.first_byte:g} s.")


async def _drain(events: AsyncIterator[SseEvent]) -> None:
    """Read what follows the terminal event (normally just the end of the body), briefly.

    Ending the body cleanly keeps the connection reusable and lets httpx's
    generators finish instead of being left to the garbage collector.
    """
    with contextlib.suppress(Exception):
        async with asyncio.timeout(_CLEANUP_SECONDS):
            async for _ in events:
                pass


async def _exhaust(body_chunks: AsyncIterator[bytes]) -> None:
    """Run httpx's byte iterator to its end after the response was closed.

    NOTE: qasync's loop installs no async-generator hooks, so an httpx/httpcore
    generator abandoned mid-body is finalised by the GC outside the loop and
    fails ("async generator ignored GeneratorExit"). Once the response is
    closed, the next read ends or raises at once and every generator in the
    chain finishes normally.
    """
    with contextlib.suppress(Exception):
        async with asyncio.timeout(_CLEANUP_SECONDS):
            async for _ in body_chunks:
                pass


def _broken(host: str, error: httpx.HTTPError) -> ProviderError:
    """A transport failure after the connection was made."""
    if isinstance(error, httpx.TimeoutException):
        return ProviderTimeout(f"The connection to {host} timed out ({type(error).__name__}).")
    return IncompleteStream(f"The connection to {host} broke before the reply finished "
                            f"({type(error).__name__}).")
