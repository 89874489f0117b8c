"""First run, engine side: connections offered from the environment (by reference, never the key)
and from local servers that answer (real HTTP to the fake provider), a real minimal test request
with the provider's error in plain words, and the provider's model list."""

from __future__ import annotations

import dataclasses
import socket
import sqlite3

import pytest

from foya_desktop.core.errors import AuthError, FoyaError
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.connections.discovery import (
    LocalServer,
    env_offers,
    fetch_models,
    local_offers,
    models_url,
    try_connection,
)
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer, Fault, Reply

SECRET = "sk-test-0123456789abcdef"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_keys_in_the_environment_are_offered_by_reference() -> None:
    env = {"OPENAI_API_KEY": SECRET, "ANTHROPIC_API_KEY": "sk-ant-x", "DEEPSEEK_API_KEY": "  ",
           "OPENROUTER_API_KEY": "or-key", "PATH": "/usr/bin"}
    offers = env_offers(env, taken=["openai"])
    assert [o.label for o in offers] == ["OpenAI (OPENAI_API_KEY)", "Anthropic (ANTHROPIC_API_KEY)",
                                         "OpenRouter (OPENROUTER_API_KEY)"]  # a blank variable is no key
    openai, anthropic, _ = (o.connection for o in offers)
    assert openai.name == "openai-2" and openai.api_key_env == "OPENAI_API_KEY"  # name already taken
    assert anthropic.kind is ProviderKind.ANTHROPIC and anthropic.api_key_env == "ANTHROPIC_API_KEY"
    assert all(SECRET not in repr(o) for o in offers)


async def test_local_servers_that_answer_are_offered_with_their_models(fake: FakeProviderServer) -> None:
    servers = (LocalServer("Ollama", _closed_port(), "ollama"), LocalServer("LM Studio", fake.port, "lmstudio"))
    offers = await local_offers(servers)
    assert [o.label for o in offers] == [f"LM Studio on port {fake.port}"]
    (offer,) = offers
    assert offer.connection == Connection("lmstudio", ProviderKind.OPENAI, f"http://127.0.0.1:{fake.port}/v1",
                                          "fake-model")
    assert offer.models == ("fake-model",) and offer.source == "local"


async def test_the_test_request_is_real_and_minimal(fake: FakeProviderServer) -> None:
    fake.script(Reply(text="p"))
    conn = Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model")
    assert await try_connection(conn, SECRET) == "p"
    (request,) = fake.requests
    assert request.body["max_tokens"] == 1 or request.body.get("max_completion_tokens") == 1
    assert request.headers["authorization"] == f"Bearer {SECRET}"


async def test_a_rejected_key_is_said_in_plain_words(fake: FakeProviderServer) -> None:
    fake.script(Reply(fault=Fault.status(401)))
    conn = Connection("fake", ProviderKind.ANTHROPIC, fake.base_url, "claude-x")
    with pytest.raises(AuthError) as caught:
        await try_connection(conn, SECRET)
    assert "API key was rejected" in str(caught.value) and SECRET not in str(caught.value)
    with pytest.raises(FoyaError, match="Choose a model"):
        await try_connection(dataclasses.replace(conn, model=""), SECRET)


async def test_models_come_from_the_providers_models_endpoint(fake: FakeProviderServer) -> None:
    assert await fetch_models(Connection("o", ProviderKind.OPENAI, fake.base_url), None) == ["fake-model"]
    anthropic = Connection("a", ProviderKind.ANTHROPIC, f"http://127.0.0.1:{fake.port}")
    assert models_url(anthropic) == f"http://127.0.0.1:{fake.port}/v1/models"
    assert await fetch_models(anthropic, "k") == ["fake-model"]
    with pytest.raises(FoyaError, match=r"Cannot reach 127\.0\.0\.1"):
        await fetch_models(Connection("x", ProviderKind.OPENAI, f"http://127.0.0.1:{_closed_port()}/v1"), None)


async def test_an_env_offer_saved_through_the_kernel_stores_only_the_variable_name(
        kernel: Kernel, home: Home, fake: FakeProviderServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", SECRET)
    offers = [o for o in await kernel.connections.offers() if o.source == "env"]
    deepseek = next(o for o in offers if o.connection.api_key_env == "DEEPSEEK_API_KEY")
    local = dataclasses.replace(deepseek.connection, base_url=fake.base_url, model="fake-model")
    await kernel.connections.add_connection(local)
    fake.script(Reply(text="p"))
    assert await kernel.connections.test_connection(local) == "p"
    assert fake.requests[-1].headers["authorization"] == f"Bearer {SECRET}"  # read at request time
    assert await kernel.connections.models(local) == ["fake-model"]
    with sqlite3.connect(home.root / "foya.sqlite3") as db:
        dump = "\n".join(db.iterdump())
    assert "DEEPSEEK_API_KEY" in dump and SECRET not in dump
