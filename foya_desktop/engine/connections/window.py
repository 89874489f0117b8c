"""What a model server says about itself: its real context window, and whether it passes tools on.

A local server's window is set when it starts (llama.cpp ``-c 4096``, Ollama ``num_ctx``), often far
below the 128,000 tokens a connection assumes by default; a request that does not fit fails with
HTTP 400 on every turn. So Foya asks the server, where each family
publishes it (docs/getting-started.md "Add a model connection", *Local model servers*):

* llama.cpp's ``llama-server`` (``tools/server``): ``GET /props`` →
  ``default_generation_settings.n_ctx`` (the window of one slot, what a request must fit in) and
  ``chat_template_caps.supports_tools`` (``false`` when the model's chat template cannot render
  tools: the server still answers 200 and the model never sees them);
  ``GET /v1/models`` → ``data[].meta.n_ctx_train`` (the model's trained window: an upper bound,
  used only when ``/props`` did not answer).
* Ollama: ``POST /api/show {"model": …}`` → ``model_info["<architecture>.context_length"]``.
* Any server: the context-length error body (llama.cpp's ``exceed_context_size_error`` with
  ``n_ctx``, ``providers.http_errors.stated_window``) corrects what was learned.

Asked at *Test connection* and at the first request of each connection in a process
(:class:`WindowLearner`); what a server says is stored as the connection's ``context_window``, so
compaction (``request.build``) and the reply's ``max_tokens`` follow it. A server that says nothing
keeps the connection's setting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import Notice
from foya_desktop.core.model import Connection
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.connections.discovery import auth_headers
from foya_desktop.store.catalog import get_connection, save_connection
from foya_desktop.store.store import Store

PROBE_SECONDS = 5.0
"""How long each self-description may take (a local server answers in milliseconds)."""
TOOLS_OFF = ("{host}'s chat template does not pass tools to the model; tools are off for "
             "{connection} (start the server with a template that supports tools, e.g. llama.cpp's --jinja).")


@dataclass(frozen=True, slots=True)
class ServerFacts:
    """What a server said about itself; ``None``/``False`` for what it did not say."""

    window: int | None = None
    """Tokens a request (prompt and reply) must fit in."""
    source: str = ""
    """Where ``window`` was read: ``/props``, ``/v1/models`` or ``/api/show``."""
    tools_dropped: bool = False
    """The server said its chat template cannot render tools (llama.cpp ``/props``)."""


def server_root(conn: Connection) -> str:
    """The server's address without the API version (``http://127.0.0.1:8080/v1`` → ``…:8080``)."""
    base = conn.base_url.rstrip("/")
    return base[:-3] if base.endswith("/v1") else base


async def server_facts(conn: Connection, api_key: str | None, model: str = "") -> ServerFacts:
    """Ask the server behind ``conn`` (see the module docstring); never raises for a server that
    does not answer or answers something else."""
    import httpx

    headers = auth_headers(conn, api_key)
    async with httpx.AsyncClient(timeout=httpx.Timeout(PROBE_SECONDS), trust_env=False) as client:
        props = await _json(client.get(server_root(conn) + "/props", headers=headers))
        window, tools_dropped = _props(props)
        if window:
            return ServerFacts(window, "/props", tools_dropped)
        listed = _listed_window(await _json(client.get(conn.base_url.rstrip("/") + "/models",
                                                       headers=headers)), model or conn.model)
        if listed:
            return ServerFacts(listed, "/v1/models", tools_dropped)
        if model or conn.model:
            shown = await _json(client.post(server_root(conn) + "/api/show", headers=headers,
                                            json={"model": model or conn.model}))
            if (length := _ollama_window(shown)) is not None:
                return ServerFacts(length, "/api/show", tools_dropped)
    return ServerFacts(tools_dropped=tools_dropped)


async def _json(request: Any) -> Any:
    import httpx

    try:
        response = await request
    except (httpx.HTTPError, OSError):
        return None
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except ValueError:
        return None


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _props(data: Any) -> tuple[int | None, bool]:
    if not isinstance(data, dict):
        return None, False
    settings = data.get("default_generation_settings")
    window = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
    caps = data.get("chat_template_caps")
    return window, isinstance(caps, dict) and caps.get("supports_tools") is False


def _listed_window(data: Any, model: str) -> int | None:
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    for item in items:
        if isinstance(item, dict) and (not model or item.get("id") == model or len(items) == 1):
            meta = item.get("meta")
            if isinstance(meta, dict) and (window := _positive(meta.get("n_ctx_train"))):
                return window
    return None


def _ollama_window(data: Any) -> int | None:
    info = data.get("model_info") if isinstance(data, dict) else None
    if not isinstance(info, dict):
        return None
    for key, value in info.items():
        if isinstance(key, str) and key.endswith(".context_length") and (window := _positive(value)):
            return window
    return None


class WindowLearner:
    """Learns each connection's window once per process (and again when the server says otherwise).

    ``asked`` holds the connections asked already (name, base URL, model), so a server that says
    nothing is not asked before every request; ``tools_off`` the connections whose server said its
    chat template drops tools: their requests carry none (they would only fill the window), and
    the person was told once.
    """

    def __init__(self, store: Store, bus: EventBus, api_key_for: Callable[[Connection], str | None]) -> None:
        self.asked: set[tuple[str, str, str]] = set()
        self.tools_off: set[str] = set()
        self._store, self._bus, self._api_key_for = store, bus, api_key_for
        self._lock = asyncio.Lock()

    async def learn(self, session_id: str, conn: Connection, model: str) -> Connection:
        """``conn`` with the window its server states, stored; unchanged when it says nothing."""
        key = (conn.name, conn.base_url, model)
        if key in self.asked:
            return conn
        async with self._lock:
            if key in self.asked:
                return await self._store.read(get_connection, conn.name)
            api_key = await asyncio.to_thread(self._api_key_for, conn)  # the keyring may block
            facts = await server_facts(conn, api_key, model)
            self.asked.add(key)
        if facts.tools_dropped and conn.name not in self.tools_off:
            self.tools_off.add(conn.name)
            from foya_desktop.providers.http import host_of

            host = host_of(conn.base_url)
            self._bus.publish(Notice(session_id, "warning", TOOLS_OFF.format(host=host, connection=conn.name),
                                   "tools_not_passed", {"host": host, "connection": conn.name}))
        return await self.store(conn, facts.window)

    async def store(self, conn: Connection, window: int | None) -> Connection:
        """Store ``window`` as ``conn``'s context window when the server stated one that differs."""
        if not window or window == conn.context_window:
            return conn
        try:
            stored = await self._store.read(get_connection, conn.name)
        except FoyaError:
            return conn
        updated = replace(stored, context_window=window)
        await self._store.write(save_connection, updated)
        return updated
