"""Shared fixtures: a fake provider server and fast timeouts/retries for each adapter."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from foya_desktop.core.errors import ProviderError
from foya_desktop.core.llm import LlmMessage, LlmRequest, StreamEvent
from foya_desktop.core.messages import TextPart
from foya_desktop.providers.anthropic import AnthropicProvider
from foya_desktop.providers.base import Provider, RetryPolicy, Timeouts
from foya_desktop.providers.budget import DEFAULT_LIMITS, ReplyLimits
from foya_desktop.providers.openai import OpenAIProvider
from tests.fakeprovider import FakeProviderServer

CANARY_KEY = "sk-canary-5f3b9c1e7a2d4b6f8e0a1c3d"
FAST_TIMEOUTS = Timeouts(connect=2.0, first_byte=5.0, idle=5.0, total=20.0)
FAST_RETRY = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05, max_retry_after=2.0)
WIRES = ["openai", "anthropic"]


@dataclass
class RetryLog:
    """Records every on_retry call."""

    calls: list[tuple[int, float, ProviderError]] = field(default_factory=list)

    def __call__(self, attempt: int, delay: float, error: ProviderError) -> None:
        self.calls.append((attempt, delay, error))


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as fake:
        yield fake


@pytest.fixture
def retries() -> RetryLog:
    return RetryLog()


@pytest.fixture(params=WIRES)
def wire(request: pytest.FixtureRequest) -> str:
    return str(request.param)


MakeProvider = Callable[..., Provider]


@pytest.fixture
async def make_provider(wire: str, server: FakeProviderServer,
                        retries: RetryLog) -> AsyncIterator[MakeProvider]:
    """``make_provider(**overrides)``: an adapter for ``wire`` pointed at the fake server."""
    made: list[Provider] = []

    def make(*, base_url: str | None = None, api_key: str | None = CANARY_KEY,
             timeouts: Timeouts = FAST_TIMEOUTS, retry: RetryPolicy = FAST_RETRY,
             limits: ReplyLimits = DEFAULT_LIMITS) -> Provider:
        cls: Any = OpenAIProvider if wire == "openai" else AnthropicProvider
        provider: Provider = cls(base_url or server.base_url, api_key, timeouts, retry, on_retry=retries,
                                 limits=limits)
        made.append(provider)
        return provider

    yield make
    for provider in made:
        await provider.aclose()


def simple_request(text: str = "Hello", **kwargs: Any) -> LlmRequest:
    return LlmRequest(model="fake-model", system="You are terse.",
                      messages=(LlmMessage("user", (TextPart(text),)),), **kwargs)


async def collect(provider: Provider, request: LlmRequest | None = None) -> list[StreamEvent]:
    return [event async for event in provider.stream(request or simple_request())]


async def collect_until_error(provider: Provider,
                              request: LlmRequest | None = None) -> tuple[list[StreamEvent], ProviderError]:
    """The events yielded before the stream raised, and the error (fails if it did not raise)."""
    events: list[StreamEvent] = []
    try:
        async for event in provider.stream(request or simple_request()):
            events.append(event)
    except ProviderError as error:
        return events, error
    raise AssertionError(f"the stream did not fail; events: {events}")
