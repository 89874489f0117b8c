"""Connections (keys in the OS keyring only), first-run offers, and the usage ledger's figures."""

from __future__ import annotations

import asyncio
import contextlib
import os
from typing import TYPE_CHECKING

from foya_desktop.core.errors import KeyringUnavailable
from foya_desktop.core.events import CatalogChanged
from foya_desktop.core.model import Connection
from foya_desktop.engine.connections.checks import check_connection
from foya_desktop.engine.connections.discovery import (
    Offer,
    env_offers,
    fetch_models,
    local_offers,
    try_connection,
)
from foya_desktop.engine.connections.usage import UsageReport, checked_price, save_price, usage_report
from foya_desktop.engine.connections.window import ServerFacts, server_facts
from foya_desktop.providers.keys import resolve_api_key
from foya_desktop.store.catalog import delete_connection, get_connection, list_connections, save_connection

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services


class Connections:
    """Configured model services: save, test, list their models, forget."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    async def list_connections(self) -> list[Connection]:
        """Configured connections (no keys)."""
        return await self._svc.store.read(list_connections)

    async def get_connection(self, name: str) -> Connection:
        """One connection by name (``NotFound`` names it)."""
        return await self._svc.store.read(get_connection, name)

    async def add_connection(self, conn: Connection, api_key: str | None = None) -> None:
        """Save a connection; its key goes to the OS keyring only."""
        check_connection(conn)
        providers = self._svc.providers
        if api_key:
            await asyncio.to_thread(providers.keystore.set_key, conn.name, api_key)
        await self._svc.store.write(save_connection, conn)
        await providers.forget(conn.name)
        self._svc.bus.publish(CatalogChanged("", "connections"))

    async def remove_connection(self, name: str) -> None:
        """Delete a connection and its keyring entry."""
        providers = self._svc.providers
        await self._svc.store.write(delete_connection, name)
        await providers.forget(name)
        self._svc.bus.publish(CatalogChanged("", "connections"))
        with contextlib.suppress(KeyringUnavailable):
            await asyncio.to_thread(providers.keystore.delete_key, name)

    def keyring_problem(self) -> str | None:
        """A plain sentence when no secure keyring exists, else ``None``."""
        return self._svc.providers.keystore.problem()

    async def offers(self) -> list[Offer]:
        """First run: services whose key is in the environment and local servers that answer."""
        taken = [c.name for c in await self._svc.store.read(list_connections)]
        return env_offers(os.environ, taken) + await local_offers(taken=taken)

    async def test_connection(self, conn: Connection, api_key: str | None = None) -> str:
        """One real minimal request with ``conn`` (the typed key, else its stored key); the reply."""
        check_connection(conn)
        return await try_connection(conn, await self._key_for(conn, api_key))

    async def server_facts(self, conn: Connection, api_key: str | None = None) -> ServerFacts:
        """What the server behind ``conn`` says about itself: its context window, whether its chat
        template passes tools (``connections.window``). A stored connection of that name and address
        keeps the window learned."""
        facts = await server_facts(conn, await self._key_for(conn, api_key))
        stored = {c.name: c for c in await self._svc.store.read(list_connections)}.get(conn.name)
        if stored is not None and stored.base_url == conn.base_url:
            await self._svc.providers.windows.store(stored, facts.window)
        return facts

    async def models(self, conn: Connection, api_key: str | None = None) -> list[str]:
        """The model ids the provider lists for ``conn``."""
        return await fetch_models(conn, await self._key_for(conn, api_key))

    async def _key_for(self, conn: Connection, api_key: str | None) -> str | None:
        if api_key:
            return api_key
        return await asyncio.to_thread(resolve_api_key, conn, self._svc.providers.keystore)


class Usage:
    """Tokens and cost from the usage ledger (kept after a session is deleted)."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    async def report(self, session_id: str | None = None) -> UsageReport:
        """Tokens (and cost where priced) by connection/model and day; all time without an id."""
        return await usage_report(self._svc.store, session_id)

    async def set_price(self, connection: str, model: str, input_per_mtok: float | None,
                        output_per_mtok: float | None, cache_read_per_mtok: float | None = None,
                        cache_write_per_mtok: float | None = None) -> None:
        """USD per million tokens for one connection and model (refused in words when invalid)."""
        await save_price(self._svc.store, checked_price(connection, model, input_per_mtok, output_per_mtok,
                                                        cache_read_per_mtok, cache_write_per_mtok))
