"""The provider protocol, timeouts and retry policy shared by every adapter."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass
from typing import Protocol

from foya_desktop.core.errors import ProviderError
from foya_desktop.core.llm import LlmRequest, StreamEvent


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds. ``first_byte`` is until the first stream event, ``idle`` between events."""

    connect: float = 10.0
    first_byte: float = 120.0
    idle: float = 90.0
    total: float = 900.0


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
