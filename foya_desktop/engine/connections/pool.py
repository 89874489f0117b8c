"""Picks the provider and model for a step and keeps HTTP clients warm.

Keys are read from the keyring (or the connection's environment variable)
when a provider is built and are held only inside that provider.
"""

from __future__ import annotations

from collections.abc import Callable

from foya_desktop.core.errors import InvalidOperation, ProviderError
from foya_desktop.core.events import Notice
from foya_desktop.core.model import MODEL_HINTS, VP, Connection, Session
from foya_desktop.engine.bus import EventBus
from foya_desktop.providers.base import Provider, RetryPolicy, Timeouts
from foya_desktop.providers.keys import KeyStore, resolve_api_key
from foya_desktop.providers.registry import make_provider
from foya_desktop.store.store import Store

NO_CONNECTION = ("No model connection is set up. Add one with `foya connections add NAME --kind "
                 "openai|anthropic --base-url URL`, or in the window under Connections….")


class ProviderPool:
    """Resolves (session, VP) → (provider, model); one provider per session and connection."""

    def __init__(self, store: Store, bus: EventBus, keystore: KeyStore | None = None,
                 timeouts: Timeouts | None = None, retry: RetryPolicy | None = None) -> None:
        self._store = store
        self._bus = bus
        self.keystore = keystore or KeyStore()
        self.timeouts = timeouts or Timeouts()
        self.retry = retry or RetryPolicy()
        self._cache: dict[tuple[str, Connection], Provider] = {}

    async def connection_for(self, session: Session) -> Connection:
        """The session's connection, or the first configured one."""
        if session.connection:
            return await self._store.get_connection(session.connection)
        connections = await self._store.list_connections()
        if not connections:
            raise InvalidOperation(NO_CONNECTION)
        return connections[0]

    async def resolve(self, session: Session, vp: VP) -> tuple[Provider, str]:
        """Provider and model name for the next step of ``vp`` in ``session``."""
        conn = await self.connection_for(session)
        # "primary"/"fast" are hints, not model names: a connection has one model for now,
        # so both use it unless the session overrides it. Older rows may hold a model name.
        hint = "" if vp.model_hint in MODEL_HINTS else vp.model_hint
        model = session.model or hint or conn.model
        if not model:
            raise InvalidOperation(f"No model is chosen for connection {conn.name!r}. Pick one in "
                                   "the composer or pass --model.")
        key = (session.id, conn)
        if key not in self._cache:
            self._cache[key] = make_provider(conn, resolve_api_key(conn, self.keystore),
                                             timeouts=self.timeouts, retry=self.retry,
                                             on_retry=self._notice(session.id))
        return self._cache[key], model

    def _notice(self, session_id: str) -> Callable[[int, float, ProviderError], None]:
        def on_retry(attempt: int, delay: float, error: ProviderError) -> None:
            self._bus.publish(Notice(session_id, "warning",
                                     f"{error} Retrying in {delay:.0f} s (attempt {attempt + 1})."))
        return on_retry

    def forget(self, connection_name: str) -> None:
        """Drop cached providers of a changed or removed connection (closed lazily)."""
        for key in [k for k in self._cache if k[1].name == connection_name]:
            self._cache.pop(key)

    async def forget_session(self, session_id: str) -> None:
        """Close the HTTP clients of a deleted session."""
        for key in [k for k in self._cache if k[0] == session_id]:
            await self._cache.pop(key).aclose()

    async def aclose(self) -> None:
        """Close every HTTP client."""
        for provider in self._cache.values():
            await provider.aclose()
        self._cache.clear()
