"""Choosing the adapter for a connection: the one place that knows every wire format."""

from __future__ import annotations

from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.providers.base import (
    DEFAULT_RETRY,
    DEFAULT_TIMEOUTS,
    Provider,
    RetryCallback,
    RetryPolicy,
    Timeouts,
)
from foya_desktop.providers.budget import DEFAULT_LIMITS, ReplyLimits


def warm_up() -> None:
    """Import the adapters, httpx and its async backend now: called on a worker thread once the
    window is up, so the first message sent does not import them (0.25 s of CPU, part of it on
    the GUI thread; issue 14)."""
    from foya_desktop.providers import anthropic, openai  # noqa: F401


def make_provider(connection: Connection, api_key: str | None, *,
                  timeouts: Timeouts = DEFAULT_TIMEOUTS, retry: RetryPolicy = DEFAULT_RETRY,
                  on_retry: RetryCallback | None = None, limits: ReplyLimits = DEFAULT_LIMITS) -> Provider:
    """A provider for ``connection``; the caller owns it and must ``await provider.aclose()``."""
    # The adapters (and httpx under them) load with the first request, not at start-up (issue 14).
    from foya_desktop.providers.anthropic import AnthropicProvider
    from foya_desktop.providers.openai import OpenAIProvider

    kind = ProviderKind(connection.kind)
    adapter = AnthropicProvider if kind is ProviderKind.ANTHROPIC else OpenAIProvider
    return adapter(connection.base_url, api_key, timeouts, retry, on_retry=on_retry, limits=limits)
