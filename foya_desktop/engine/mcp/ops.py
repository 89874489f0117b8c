"""The kernel's MCP doors (``kernel.mcp``, an area façade): overview, trust, revoke, restart, secrets.

The window's servers panel and ``foya projects trust`` call these; the rules live in
``engine.mcp.trust`` and ``engine.mcp.servers``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING

from foya_desktop.core.errors import BadInput, InvalidOperation
from foya_desktop.engine.mcp import trust as trust_rules
from foya_desktop.engine.mcp.servers import McpServers, ServerStatus
from foya_desktop.engine.mcp.trust import ServerTrust
from foya_desktop.engine.projects import existing_folder
from foya_desktop.store.catalog import get_project, project_at
from foya_desktop.tools.mcp.config import McpListing, Scope

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services


class Mcp:
    """MCP servers of a project, for the window and the command line."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def _servers(self) -> McpServers:
        if self.svc.mcp is None:
            raise InvalidOperation("MCP servers are not available in this kernel.")
        return self.svc.mcp

    async def listing(self, project_id: str | None) -> McpListing:
        """The configured servers (user level, and the project's ``.mcp.json``) with load problems."""
        path = (await self.svc.store.read(get_project, project_id)).path if project_id else None
        return await trust_rules.listing_for(self.svc.store, path)

    async def overview(self, project_id: str | None) -> list[ServerStatus]:
        """Every configured server with trust, state and error (user level first)."""
        path = (await self.svc.store.read(get_project, project_id)).path if project_id else None
        return await self._servers().overview(project_id, path)

    async def overview_of_folder(self, folder: str) -> list[ServerStatus]:
        """:meth:`overview` for a folder, which need not be a project yet: one that is not is read
        as a project with nothing trusted, and is not registered. A listing is a read, so ``foya
        mcp list DIR`` works on the read-only store (beside a writer, on a read-only data folder);
        registering a new folder there failed with "Foya cannot write to the database"."""
        resolved = str(await asyncio.to_thread(existing_folder, folder))
        known = await self.svc.store.read(project_at, resolved)
        return await self._servers().overview(known.id if known else None, resolved)

    async def trust_report(self, project_id: str) -> list[ServerTrust]:
        """The project's configured servers and whether each may start."""
        return await trust_rules.trust_report(self.svc.store, project_id, await self.listing(project_id))

    async def trust(self, project_id: str, names: list[str] | None = None,
                    seen: Mapping[str, str] | None = None) -> list[ServerTrust]:
        """Trust the project's servers (``names``, or all usable ones) as configured now; returns
        what was trusted (each with everything trust covers). ``seen`` (name → fingerprint) is what
        a prompt showed: a server that changed since is refused, never trusted unseen."""
        report = await self.trust_report(project_id)
        chosen = [t for t in report if t.server.scope == "project" and t.state != "unusable"
                  and (names is None or t.server.name in names)]
        unknown = sorted(set(names or ()) - {t.server.name for t in report if t.server.scope == "project"})
        if unknown:
            raise BadInput(f"This project's .mcp.json has no server named {', '.join(unknown)}.")
        await trust_rules.trust(self.svc.store, project_id, chosen, seen)
        return chosen

    async def revoke(self, project_id: str, names: list[str] | None = None) -> int:
        """Take trust back and stop those servers now; how many trusts were removed."""
        removed = await trust_rules.revoke(self.svc.store, project_id, names)
        await self._servers().stop_project(project_id)
        return removed

    async def restart(self, project_id: str, scope: Scope, name: str) -> ServerStatus | None:
        """Stop and start one server now (the panel's *Restart*)."""
        project = await self.svc.store.read(get_project, project_id)
        return await self._servers().restart(project.id, project.path, scope, name)

    async def set_secret(self, name: str, value: str | None) -> None:
        """Keep (or with ``None`` delete) the secret that ``${keyring:NAME}`` headers use."""
        keystore = self.svc.providers.keystore
        if value is None:
            await asyncio.to_thread(keystore.delete_key, f"mcp:{name}")
        else:
            await asyncio.to_thread(keystore.set_key, f"mcp:{name}", value)

    def version(self) -> int:
        """Changes whenever a server's state changes (the panel refreshes on a change)."""
        return self.svc.mcp.version if self.svc.mcp is not None else 0
