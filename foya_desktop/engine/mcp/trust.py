"""Trust of project MCP servers: what is configured, what the person trusted, what changed.

User-level servers (the data folder's ``mcp.json``) are the person's own and need
no trust. A project's ``.mcp.json`` comes with the repository: each of its
servers starts only when the person trusted that server for that project, and
only while everything that decides what it runs and sends is still what they saw:
the entry as written (command, arguments, env names and values, URL, headers,
``${VAR}`` unexpanded) and the project files its command runs, by hash
(``tools.mcp.trust_spec``). A difference is ``changed``: the prompts show what
changed (a diff for a file) and the server waits for trust again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.store.ops_mcp_trust import revoke_servers, trust_servers, trusted_servers
from foya_desktop.store.store import Store
from foya_desktop.tools.mcp.config import McpListing, ServerConfig, configured_servers
from foya_desktop.tools.mcp.trust_spec import Change, TrustSpec, changes, spec_of

TrustState = Literal["user", "trusted", "untrusted", "changed", "unusable"]


@dataclass(frozen=True, slots=True)
class ServerTrust:
    """One configured server and whether it may start."""

    server: ServerConfig
    state: TrustState
    """``user``: user-level, needs no trust; ``changed``: trusted once, but something it runs or
    sends has changed since; ``unusable``: its entry has a problem."""
    target: str
    """The command line or URL as written (``${VAR}`` unexpanded)."""
    trusted_target: str = ""
    """What was trusted before, when ``changed``."""
    spec: TrustSpec | None = None
    """Everything trust covers, as it is now (``None`` for an unusable entry)."""
    changes: tuple[Change, ...] = ()
    """What differs from the trusted spec, when ``changed``."""

    @property
    def may_start(self) -> bool:
        return self.state in ("user", "trusted")

    @property
    def fingerprint(self) -> str:
        """The fingerprint trust is recorded for (``""`` for an unusable entry)."""
        return self.spec.fingerprint if self.spec is not None else ""


async def listing_for(store: Store, project_dir: str | None) -> McpListing:
    """The configured servers of the user level and of ``project_dir`` (read off the loop)."""
    folder = Path(project_dir) if project_dir else None
    return await asyncio.to_thread(configured_servers, store.home.root, folder)


def _specs(listing: McpListing) -> list[TrustSpec | None]:
    """Each server's spec; a project server's run files are found from its ``.mcp.json``'s folder
    (where it starts). User-level ones need no trust: their entry alone tells runs apart."""
    return [None if s.problem is not None
            else spec_of(s, s.source.parent if s.scope == "project" else None) for s in listing.servers]


async def trust_report(store: Store, project_id: str | None, listing: McpListing) -> list[ServerTrust]:
    """Every configured server with its trust state (user level first); hashes the files project
    servers run (off the loop)."""
    trusted = await store.read(trusted_servers, project_id) if project_id else {}
    specs = await asyncio.to_thread(_specs, listing)
    out: list[ServerTrust] = []
    for server, spec in zip(listing.servers, specs, strict=True):
        target = server.target()
        if spec is None:
            out.append(ServerTrust(server, "unusable", target))
        elif server.scope == "user":
            out.append(ServerTrust(server, "user", target, spec=spec))
        elif server.name not in trusted:
            out.append(ServerTrust(server, "untrusted", target, spec=spec))
        elif trusted[server.name].fingerprint != spec.fingerprint:
            record = trusted[server.name]
            out.append(ServerTrust(server, "changed", target, record.target, spec,
                                   changes(TrustSpec.from_json(record.spec), spec)))
        else:
            out.append(ServerTrust(server, "trusted", target, spec=spec))
    return out


async def trust(store: Store, project_id: str, servers: list[ServerTrust],
                seen: Mapping[str, str] | None = None) -> None:
    """Record trust of ``servers`` (project level) as reported; with ``seen`` (name → the
    fingerprint the person was shown), a server that changed since is refused."""
    stale = [t.server.name for t in servers if seen is not None and seen.get(t.server.name) != t.fingerprint]
    if stale:
        raise InvalidOperation(f"{', '.join(stale)} changed while you were reviewing it; nothing was "
                               "trusted. Look at what it runs now and trust it again.")
    await store.write(trust_servers, project_id,
                      [(t.server.name, t.fingerprint, t.target, t.spec.to_json()) for t in servers
                       if t.server.scope == "project" and t.spec is not None])


async def revoke(store: Store, project_id: str, names: list[str] | None = None) -> int:
    """Take back trust (of ``names``, or of every server of the project); how many were removed."""
    return await store.write(revoke_servers, project_id, names)


def how_to_trust(project_dir: str) -> str:
    """The sentence that tells a person how to trust a project's servers."""
    return (f"Trust them in the window (File → MCP servers…) or with "
            f"`foya projects trust {project_dir}`.")
