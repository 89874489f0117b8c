"""Trust of project MCP servers: what is configured, what the person trusted, what changed.

User-level servers (the data folder's ``mcp.json``) are the person's own and need
no trust. A project's ``.mcp.json`` comes with the repository: each of its
servers starts only when the person trusted that server for that project, and
only while its command or URL is still the one they saw (the fingerprint).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.store.ops_mcp_trust import revoke_servers, trust_servers, trusted_servers
from foya_desktop.store.store import Store
from foya_desktop.tools.mcp.config import McpListing, ServerConfig, configured_servers

TrustState = Literal["user", "trusted", "untrusted", "changed", "unusable"]


@dataclass(frozen=True, slots=True)
class ServerTrust:
    """One configured server and whether it may start."""

    server: ServerConfig
    state: TrustState
    """``user``: user-level, needs no trust; ``changed``: trusted once, but its command or URL
    has changed since; ``unusable``: its entry has a problem."""
    target: str
    """The exact command line or URL (what the trust prompt lists)."""
    trusted_target: str = ""
    """What was trusted before, when ``changed``."""

    @property
    def may_start(self) -> bool:
        return self.state in ("user", "trusted")


async def listing_for(store: Store, project_dir: str | None) -> McpListing:
    """The configured servers of the user level and of ``project_dir`` (read off the loop)."""
    folder = Path(project_dir) if project_dir else None
    return await asyncio.to_thread(configured_servers, store.home.root, folder)


async def trust_report(store: Store, project_id: str | None, listing: McpListing) -> list[ServerTrust]:
    """Every configured server with its trust state (user level first)."""
    trusted = await store.read(trusted_servers, project_id) if project_id else {}
    out: list[ServerTrust] = []
    for server in listing.servers:
        target = server.target()
        if server.problem is not None:
            out.append(ServerTrust(server, "unusable", target))
        elif server.scope == "user":
            out.append(ServerTrust(server, "user", target))
        elif server.name not in trusted:
            out.append(ServerTrust(server, "untrusted", target))
        elif trusted[server.name].fingerprint != server.fingerprint():
            out.append(ServerTrust(server, "changed", target, trusted[server.name].target))
        else:
            out.append(ServerTrust(server, "trusted", target))
    return out


async def trust(store: Store, project_id: str, servers: list[ServerConfig]) -> None:
    """Record trust of ``servers`` (project level) as they are configured now."""
    await store.write(trust_servers, project_id,
                      [(s.name, s.fingerprint(), s.target()) for s in servers if s.scope == "project"])


async def revoke(store: Store, project_id: str, names: list[str] | None = None) -> int:
    """Take back trust (of ``names``, or of every server of the project); how many were removed."""
    return await store.write(revoke_servers, project_id, names)


def how_to_trust(project_dir: str) -> str:
    """The sentence that tells a person how to trust a project's servers."""
    return (f"Trust them in the window (File → MCP servers…) or with "
            f"`foya projects trust {project_dir}`.")
