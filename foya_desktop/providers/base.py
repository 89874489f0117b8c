"""The provider protocol, timeouts and retry policy shared by every adapter."""

from __future__ import annotations

import os
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from foya_desktop.core.errors import ProviderError
from foya_desktop.core.llm import LlmRequest, StreamEvent
from foya_desktop.providers.budget import positive_number

IDLE_ENV = "FOYA_STREAM_IDLE_SECONDS"
"""Environment variable that sets :attr:`Timeouts.idle` (a slow local server may need more; tests
need less)."""


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds. ``first_byte`` is until the first stream event, ``idle`` between events.

    Both count whole SSE *events*, not bytes: a server that trickles a byte now and then, or
    sends only keep-alive comments, never completes an event and is stopped after ``idle``.
    """

    connect: float = 10.0
    first_byte: float = 120.0
    idle: float = 90.0
    total: float = 900.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Timeouts:
        """The defaults, with :data:`IDLE_ENV` applied when it holds a positive number."""
        idle = positive_number(os.environ if environ is None else environ, IDLE_ENV)
        return cls() if idle is None else cls(idle=idle)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Retries on 408/409/429/5xx/529 and connection failures, never once streaming began."""

    max_attempts: int = 4
    base_delay: float = 1.0
    max_delay: float = 30.0
    max_retry_after: float = 60.0
    """A server's Retry-After above this is capped to it."""


RetryCallback = Callable[[int, float, ProviderError], None]
"""Called before sleeping for a retry: (attempt number, delay seconds, error).

The attempt number is the 1-based number of the attempt that just failed.
"""

DEFAULT_TIMEOUTS = Timeouts()
"""Shared default instance (the dataclass is frozen), usable as a parameter default."""

DEFAULT_RETRY = RetryPolicy()
"""Shared default instance (the dataclass is frozen), usable as a parameter default."""


class Provider(Protocol):
    """A model service. ``stream`` yields events and ends with :class:`Finish`,
    or raises a :class:`ProviderError` (``IncompleteStream`` when the terminal
    event never came)."""

    def stream(self, request: LlmRequest) -> AsyncGenerator[StreamEvent]:
        """Send one request and stream the reply."""
        ...

    async def aclose(self) -> None:
        """Release the HTTP client."""
        ...
