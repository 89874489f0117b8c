"""``make_provider`` picks the adapter by connection kind, and both reach the fake server."""

from __future__ import annotations

import pytest

from foya_desktop.core.llm import Finish
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.providers.anthropic import AnthropicProvider
from foya_desktop.providers.openai import OpenAIProvider
from foya_desktop.providers.registry import make_provider
from tests.fakeprovider import FakeProviderServer, Reply
from tests.providers.conftest import FAST_RETRY, FAST_TIMEOUTS, collect


@pytest.mark.parametrize(("kind", "cls", "path"), [
    (ProviderKind.OPENAI, OpenAIProvider, "/v1/chat/completions"),
    (ProviderKind.ANTHROPIC, AnthropicProvider, "/v1/messages"),
])
async def test_make_provider(server: FakeProviderServer, kind: ProviderKind, cls: type, path: str) -> None:
    server.script(Reply(text="hi"))
    provider = make_provider(Connection("c", kind, server.base_url), None,
                             timeouts=FAST_TIMEOUTS, retry=FAST_RETRY)
    try:
        assert isinstance(provider, cls)
        assert (await collect(provider))[-1] == Finish("stop")
    finally:
        await provider.aclose()
    assert server.requests[0].path == path
