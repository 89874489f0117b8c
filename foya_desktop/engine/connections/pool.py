"""Picks the provider and model for a step and keeps HTTP clients warm.

Keys are read from the keyring (or the connection's environment variable)
when a provider is built and are held only inside that provider.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable

from foya_desktop.core.errors import BadInput, InvalidOperation, ProviderError
from foya_desktop.core.events import Notice
from foya_desktop.core.llm import LlmRequest, StreamEvent
from foya_desktop.core.model import MODEL_HINTS, VP, Connection, Session, effective_connection
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.connections.checks import check_base_url
from foya_desktop.engine.connections.window import WindowLearner
from foya_desktop.providers.base import Provider, RetryPolicy, Timeouts
from foya_desktop.providers.budget import ReplyLimits
from foya_desktop.providers.keys import KeyStore, resolve_api_key
from foya_desktop.providers.registry import make_provider
from foya_desktop.store.catalog import get_connection, list_connections
from foya_desktop.store.store import Store

NO_CONNECTION = ("No model connection is set up. Add one with `foya connections add NAME --kind "
                 "openai|anthropic --base-url URL`, or in the window under Connections….")


class _Pooled:
    """A provider plus the streams open on it, so a dropped one closes once they are done."""

    def __init__(self, provider: Provider) -> None:
        self._provider = provider
        self._open = 0
        self._retired = False

    async def stream(self, request: LlmRequest) -> AsyncGenerator[StreamEvent]:
        """The provider's stream, counted while it is open."""
        self._open += 1
        try:
            async with contextlib.aclosing(self._provider.stream(request)) as events:
                async for event in events:
                    yield event
        finally:
            self._open -= 1
            if self._retired and not self._open:
                await self._provider.aclose()

    async def retire(self) -> None:
        """Close the HTTP client now, or when the last open stream ends."""
        self._retired = True
        if not self._open:
            await self._provider.aclose()

    async def aclose(self) -> None:
        """Close the HTTP client now."""
        await self._provider.aclose()


def _check_stored(conn: Connection) -> None:
    """A stored connection whose base URL is unusable (written by an older Foya, or by hand) is
    refused with a sentence before any request: the HTTP stack would fail deep inside a task group
    ("internal error (ExceptionGroup …)" for port 99999) or retry a URL that can never work."""
    try:
        check_base_url(conn.base_url)
    except BadInput as exc:
        raise InvalidOperation(f"The connection {conn.name!r} cannot be used: {exc} Set a working one with "
                               f"`foya connections add {conn.name} --kind {conn.kind.value} --base-url URL`, "
                               "or in the window under Connections….") from None


class ProviderPool:
    """Resolves (session, VP) → (provider, model); one provider per session and connection."""

    def __init__(self, store: Store, bus: EventBus, keystore: KeyStore | None = None,
                 timeouts: Timeouts | None = None, retry: RetryPolicy | None = None) -> None:
        self._store = store
        self._bus = bus
        self.keystore = keystore or KeyStore()
        self.timeouts = timeouts or Timeouts.from_env()
        self.retry = retry or RetryPolicy()
        self.limits = ReplyLimits.from_env()
        """What one reply may accumulate (``providers.budget``)."""
        self._cache: dict[tuple[str, Connection], _Pooled] = {}
        self.key_env_names: set[str] = set()
        """Every connection's key variable (whatever its name): never given to commands."""
        self.key_values: set[str] = set()
        """Keys this process sent: scrubbed from tool output, never given to commands."""
        self.retries: dict[str, int] = {}
        """Retries made per session so far (the debug trace records each step's share)."""
        self.windows = WindowLearner(store, bus, self.api_key_for)
        """The context windows servers state, learned at each connection's first use (``window``)."""

    async def connection_for(self, session: Session) -> Connection:
        """The session's connection, or the first configured one."""
        if session.connection:
            return await self._store.read(get_connection, session.connection)  # gone: NotFound
        conn = effective_connection("", await self._store.read(list_connections))
        if conn is None:
            raise InvalidOperation(NO_CONNECTION)
        return conn

    async def resolve(self, session: Session, vp: VP) -> tuple[Provider, str]:
        """Provider and model name for the next step of ``vp`` in ``session``."""
        conn = await self.connection_for(session)
        _check_stored(conn)
        # "primary"/"fast" are hints, not model names: a connection has one model for now,
        # so both use it unless the session overrides it. Older rows may hold a model name.
        hint = "" if vp.model_hint in MODEL_HINTS else vp.model_hint
        model = session.model or hint or conn.model
        if not model:
            raise InvalidOperation(f"No model is chosen for connection {conn.name!r}. Pick one in "
                                   "the composer or pass --model.")
        connections = await self._store.read(list_connections)
        self.key_env_names |= {c.api_key_env for c in connections if c.api_key_env}
        key = (session.id, conn)
        if key not in self._cache:
            # NOTE: on a worker thread: the keyring can block, and a new HTTP client loads the
            # CA bundle into an SSL context (30–60 ms on the loop, the GUI thread: issue 14).
            api_key, provider = await asyncio.to_thread(self._build, conn, session.id)
            if api_key:
                self.key_values.add(api_key)
            if key in self._cache:  # another step of the session built one meanwhile
                await provider.aclose()
            else:
                self._cache[key] = _Pooled(provider)
        return self._cache[key], model

    def api_key_for(self, conn: Connection) -> str | None:
        """Blocking (the keyring): the key ``conn`` sends, if any."""
        return resolve_api_key(conn, self.keystore)

    def _build(self, conn: Connection, session_id: str) -> tuple[str | None, Provider]:
        api_key = resolve_api_key(conn, self.keystore)
        return api_key, make_provider(conn, api_key, timeouts=self.timeouts, retry=self.retry,
                                      on_retry=self._notice(session_id), limits=self.limits)

    def _notice(self, session_id: str) -> Callable[[int, float, ProviderError], None]:
        def on_retry(attempt: int, delay: float, error: ProviderError) -> None:
            self.retries[session_id] = self.retries.get(session_id, 0) + 1
            self._bus.publish(Notice(session_id, "warning",
                                     f"{error} Retrying in {delay:.0f} s (attempt {attempt + 1}).",
                                     "provider_retry", {"error_code": error.code, "status": error.status,
                                                        "delay": round(delay), "attempt": attempt + 1}))
        return on_retry

    async def forget(self, connection_name: str) -> None:
        """Drop cached providers of a changed or removed connection and close their HTTP clients.

        A request in flight finishes first (settings apply from the next step):
        its client closes when its stream ends.
        """
        for key in [k for k in self._cache if k[1].name == connection_name]:
            await self._cache.pop(key).retire()

    async def forget_session(self, session_id: str) -> None:
        """Close the HTTP clients of a deleted session."""
        for key in [k for k in self._cache if k[0] == session_id]:
            await self._cache.pop(key).aclose()

    async def aclose(self) -> None:
        """Close every HTTP client."""
        for provider in self._cache.values():
            await provider.aclose()
        self._cache.clear()
