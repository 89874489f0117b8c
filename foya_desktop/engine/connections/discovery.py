"""First run: connections Foya can offer without the person typing anything, and checking one.

* Keys in the environment (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, …) are
  offered **by reference**: the connection records the variable's name
  (``Connection.api_key_env``) and the key is read at request time — it is
  never copied into the database, the keyring or a log.
* Local servers are probed on their usual 127.0.0.1 ports (Ollama, LM Studio,
  llama.cpp, vLLM) with a short timeout, all at once; one that lists its
  models at ``/v1/models`` is offered with its first model.
* :func:`try_connection` sends one real minimal request (a one-token reply)
  through the same provider adapter turns use, so its error is the same
  plain sentence a turn would show; :func:`fetch_models` reads the provider's
  models endpoint (OpenAI and Anthropic both have ``GET /v1/models``).

No Qt here: the window's first-run offers and the connection dialog call these
through the kernel.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.llm import LlmMessage, LlmRequest, TextDelta
from foya_desktop.core.messages import TextPart
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.providers.base import RetryPolicy, Timeouts
from foya_desktop.providers.http_errors import error_for_status, vendor_error
from foya_desktop.providers.registry import make_provider

if TYPE_CHECKING:
    import httpx  # imported where a probe runs: httpx stays off the window's start-up (issue 14)

ANTHROPIC_VERSION = "2023-06-01"
PROBE_TIMEOUT = 0.6
"""Seconds a local port may take to answer: a server on this machine answers in milliseconds."""
CHECK_TIMEOUTS = Timeouts(connect=5, first_byte=30, idle=30, total=45)
CHECK_RETRY = RetryPolicy(max_attempts=1)


@dataclass(frozen=True, slots=True)
class KnownService:
    """A hosted service recognisable by its API key variable."""

    env: str
    label: str
    kind: ProviderKind
    base_url: str
    model: str


KNOWN_SERVICES: tuple[KnownService, ...] = (
    KnownService("OPENAI_API_KEY", "OpenAI", ProviderKind.OPENAI, "https://api.openai.com/v1", "gpt-4.1"),
    KnownService("ANTHROPIC_API_KEY", "Anthropic", ProviderKind.ANTHROPIC, "https://api.anthropic.com/v1",
                 "claude-sonnet-4-5"),
    KnownService("OPENROUTER_API_KEY", "OpenRouter", ProviderKind.OPENAI, "https://openrouter.ai/api/v1",
                 "openai/gpt-4.1"),
    KnownService("DEEPSEEK_API_KEY", "DeepSeek", ProviderKind.OPENAI, "https://api.deepseek.com/v1",
                 "deepseek-chat"),
    KnownService("GEMINI_API_KEY", "Google Gemini", ProviderKind.OPENAI,
                 "https://generativelanguage.googleapis.com/v1beta/openai", "gemini-2.5-flash"),
    KnownService("GROQ_API_KEY", "Groq", ProviderKind.OPENAI, "https://api.groq.com/openai/v1",
                 "llama-3.3-70b-versatile"),
    KnownService("MISTRAL_API_KEY", "Mistral", ProviderKind.OPENAI, "https://api.mistral.ai/v1",
                 "mistral-large-latest"),
    KnownService("DASHSCOPE_API_KEY", "Qwen (DashScope)", ProviderKind.OPENAI,
                 "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus"),
    KnownService("MOONSHOT_API_KEY", "Moonshot (Kimi)", ProviderKind.OPENAI, "https://api.moonshot.cn/v1",
                 "kimi-k2-0711-preview"),
    KnownService("XAI_API_KEY", "xAI", ProviderKind.OPENAI, "https://api.x.ai/v1", "grok-4"),
)


@dataclass(frozen=True, slots=True)
class LocalServer:
    """A local model server and the port it listens on by default."""

    label: str
    port: int
    name: str


LOCAL_SERVERS: tuple[LocalServer, ...] = (
    LocalServer("Ollama", 11434, "ollama"),
    LocalServer("LM Studio", 1234, "lmstudio"),
    LocalServer("llama.cpp", 8080, "llamacpp"),
    LocalServer("vLLM", 8000, "vllm"),
)


@dataclass(frozen=True, slots=True)
class Offer:
    """A connection Foya found and can create in one click."""

    label: str
    """What it is, in words: "OpenAI (OPENAI_API_KEY)", "Ollama on port 11434"."""
    connection: Connection
    source: str
    """``env`` or ``local``."""
    models: tuple[str, ...] = ()


def env_offers(env: Mapping[str, str], taken: Sequence[str] = ()) -> list[Offer]:
    """Hosted services whose key variable is set (non-empty), by reference to the variable."""
    offers = []
    for service in KNOWN_SERVICES:
        if env.get(service.env, "").strip():
            name = _free_name(service.label.split()[0].lower(), taken)
            conn = Connection(name, service.kind, service.base_url, service.model, api_key_env=service.env)
            offers.append(Offer(f"{service.label} ({service.env})", conn, "env"))
    return offers


async def local_offers(servers: Sequence[LocalServer] | None = None, *, host: str = "127.0.0.1",
                       wait: float = PROBE_TIMEOUT, taken: Sequence[str] = ()) -> list[Offer]:
    """Local servers answering ``GET /v1/models`` on their usual ports, probed concurrently."""
    import httpx

    servers = LOCAL_SERVERS if servers is None else servers
    async with httpx.AsyncClient(timeout=httpx.Timeout(wait), trust_env=False) as client:
        found = await asyncio.gather(*(_probe(client, host, server) for server in servers))
    offers = []
    for server, models in zip(servers, found, strict=True):
        if models is None:
            continue
        base_url = f"http://{host}:{server.port}/v1"
        conn = Connection(_free_name(server.name, taken), ProviderKind.OPENAI, base_url,
                          models[0] if models else "")
        offers.append(Offer(f"{server.label} on port {server.port}", conn, "local", tuple(models)))
    return offers


async def _probe(client: httpx.AsyncClient, host: str, server: LocalServer) -> list[str] | None:
    import httpx

    try:
        response = await client.get(f"http://{host}:{server.port}/v1/models")
    except (httpx.HTTPError, OSError):
        return None
    if response.status_code != 200:
        return None
    try:
        return _model_ids(response.json())
    except ValueError:
        return None


def _model_ids(data: object) -> list[str]:
    items = data.get("data", data.get("models")) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    ids = [str(item.get("id") or item.get("name") or "") for item in items if isinstance(item, dict)]
    return [i for i in ids if i]


def _free_name(base: str, taken: Sequence[str]) -> str:
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    return name


def auth_headers(connection: Connection, api_key: str | None) -> dict[str, str]:
    """The headers that carry the key for this kind of connection (read requests: models, props)."""
    if ProviderKind(connection.kind) is ProviderKind.ANTHROPIC:
        headers = {"anthropic-version": ANTHROPIC_VERSION}
        if api_key:
            headers["x-api-key"] = api_key
        return headers
    return {"authorization": f"Bearer {api_key}"} if api_key else {}


def models_url(connection: Connection) -> str:
    """``…/v1/models``; an Anthropic base URL may be given with or without ``/v1`` (as for messages)."""
    base = connection.base_url.rstrip("/")
    if ProviderKind(connection.kind) is ProviderKind.ANTHROPIC and not base.endswith("/v1"):
        base += "/v1"
    return base + "/models"


async def fetch_models(connection: Connection, api_key: str | None, *, wait: float = 15.0) -> list[str]:
    """Model ids from the provider's models endpoint; raises a ProviderError in plain words."""
    import httpx

    from foya_desktop.providers.http import host_of

    url = models_url(connection)
    host = host_of(connection.base_url)
    async with httpx.AsyncClient(timeout=httpx.Timeout(wait), trust_env=False) as client:
        try:
            response = await client.get(url, headers=auth_headers(connection, api_key))
        except (httpx.HTTPError, OSError) as error:
            raise FoyaError(f"Cannot reach {host} ({type(error).__name__}): check the base URL and that "
                            "the service is running.") from error
    if response.status_code != 200:
        vendor_type, vendor_message = vendor_error(response.content)
        raise error_for_status(response.status_code, host, vendor_type=vendor_type,
                               vendor_message=vendor_message, secret=api_key)
    try:
        ids = _model_ids(response.json())
    except ValueError as error:
        raise FoyaError(f"{host} did not answer with a list of models.") from error
    return sorted(set(ids))


async def try_connection(connection: Connection, api_key: str | None, model: str = "") -> str:
    """Send one minimal real request ("ping", one token); returns what the model said.

    Raises the provider's error (a ``FoyaError`` whose text is a plain sentence).
    """
    chosen = model or connection.model
    if not chosen:
        raise FoyaError("Choose a model first: the test sends one tiny request to it.")
    provider = make_provider(connection, api_key, timeouts=CHECK_TIMEOUTS, retry=CHECK_RETRY)
    ping = LlmMessage("user", (TextPart("ping"),))
    request = LlmRequest(model=chosen, system="", messages=(ping,), max_tokens=1)
    text: list[str] = []
    try:
        async for event in provider.stream(request):
            if isinstance(event, TextDelta):
                text.append(event.text)
    finally:
        await provider.aclose()
    return "".join(text)
