"""Which project MCP servers the person trusted, per project (sync; worker threads).

A project's ``.mcp.json`` arrives with the repository, so its servers run only
after the person trusted them for that project. Trust is recorded per server
name with the fingerprint of what it runs and sends, and the spec it was computed
from (so a changed server can be shown as a diff); ``engine.mcp`` compares the
current fingerprint before starting anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from foya_desktop.core.ids import now_ms
from foya_desktop.store.schema import McpTrustRow


@dataclass(frozen=True, slots=True)
class TrustedServer:
    """One recorded trust: the server name, what it ran when trusted, and when."""

    server: str
    fingerprint: str
    target: str
    created_at: int
    spec: str = ""
    """What was trusted (``TrustSpec`` JSON); ``""`` when an older Foya recorded it."""


def trusted_servers(project_id: str) -> dict[str, TrustedServer]:
    """The project's trusted servers by name."""
    rows = McpTrustRow.select().where(McpTrustRow.project == project_id)
    return {r.server: TrustedServer(r.server, r.fingerprint, r.target, r.created_at, r.spec) for r in rows}


def trust_servers(project_id: str, servers: list[tuple[str, str, str, str]]) -> None:
    """Record (name, fingerprint, target, spec) for each server, replacing an older trust of that
    name. ``target`` and ``spec`` hold ``${VAR}`` as written, never a variable's value."""
    for name, fingerprint, target, spec in servers:
        McpTrustRow.insert(project=project_id, server=name, fingerprint=fingerprint, target=target,
                           spec=spec, created_at=now_ms()).on_conflict(
            conflict_target=[McpTrustRow.project, McpTrustRow.server],
            update={McpTrustRow.fingerprint: fingerprint, McpTrustRow.target: target,
                    McpTrustRow.spec: spec, McpTrustRow.created_at: now_ms()}).execute()


def revoke_servers(project_id: str, names: list[str] | None = None) -> int:
    """Forget the trust of ``names`` (all of the project's when ``None``); how many were removed."""
    query = McpTrustRow.delete().where(McpTrustRow.project == project_id)
    if names is not None:
        query = McpTrustRow.delete().where((McpTrustRow.project == project_id)
                                           & (McpTrustRow.server.in_(names)))
    return int(query.execute())
