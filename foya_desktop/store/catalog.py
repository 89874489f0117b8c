"""Projects, VPs and connections (sync; worker threads)."""

from __future__ import annotations

import json

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.model import VP, Connection, Project
from foya_desktop.store.codec import connection_from_row, project_from_row, vp_from_row
from foya_desktop.store.schema import ConnectionRow, ProjectRow, ProjectRuleRow, SessionRow, VPRow


def project_at(path: str) -> Project | None:
    """The project registered for ``path`` (an absolute, resolved folder), if there is one."""
    row = ProjectRow.get_or_none(ProjectRow.path == path)
    return project_from_row(row) if row is not None else None


def ensure_project(path: str, name: str) -> Project:
    """The project registered for ``path`` (an absolute, resolved folder), created if new."""
    found = project_at(path)
    if found is not None:
        return found
    pid = new_id("prj")
    ProjectRow.insert(id=pid, name=name, path=path, created_at=now_ms()).execute()
    return project_from_row(ProjectRow.get_by_id(pid))


def get_project(project_id: str) -> Project:
    """One project."""
    row = ProjectRow.get_or_none(ProjectRow.id == project_id)
    if row is None:
        raise NotFound(f"No project {project_id}.")
    return project_from_row(row)


def list_projects() -> list[Project]:
    """All projects in display order."""
    return [project_from_row(r) for r in ProjectRow.select().order_by(ProjectRow.sort_order,
                                                                        ProjectRow.name)]


def update_project(project_id: str, *, name: str | None = None, instruction: str | None = None,
                   scoped_recall: bool | None = None) -> Project:
    """Rename a project, set its instruction or switch scoped recall."""
    cols: dict[str, object] = {k: v for k, v in (("name", name), ("instruction", instruction),
                                                 ("scoped_recall", scoped_recall)) if v is not None}
    if cols:
        ProjectRow.update(**cols).where(ProjectRow.id == project_id).execute()
    return get_project(project_id)


def project_session_ids(project_id: str) -> list[str]:
    """Top-level sessions bound to a project."""
    return [r.id for r in SessionRow.select(SessionRow.id).where(SessionRow.project == project_id)]


def delete_project_row(project_id: str) -> None:
    """Remove the project record (its sessions must be gone already)."""
    if SessionRow.select().where(SessionRow.project == project_id).exists():
        raise InvalidOperation("The project still has sessions.")
    ProjectRow.delete().where(ProjectRow.id == project_id).execute()


def list_vps() -> list[VP]:
    """User-defined VPs."""
    return [vp_from_row(r) for r in VPRow.select().order_by(VPRow.name)]


def save_vp(vp: VP) -> VP:
    """Insert or replace a VP definition."""
    VPRow.insert(id=vp.id, name=vp.name, display_name=vp.display_name, soul=vp.soul,
                  model_hint=vp.model_hint, tools=json.dumps(list(vp.tools)),
                  max_steps=vp.max_steps, builtin=vp.builtin,
                  color=vp.color).on_conflict_replace().execute()
    return vp_from_row(VPRow.get_by_id(vp.id))


def list_connections() -> list[Connection]:
    """Configured model services."""
    return [connection_from_row(r) for r in ConnectionRow.select().order_by(ConnectionRow.name)]


def get_connection(name: str) -> Connection:
    """One connection by name."""
    row = ConnectionRow.get_or_none(ConnectionRow.name == name)
    if row is None:
        raise NotFound(f"No connection named {name!r}. Add one with: foya connections add {name} ...")
    return connection_from_row(row)


def save_connection(conn: Connection) -> Connection:
    """Insert or replace a connection (never a key)."""
    ConnectionRow.insert(name=conn.name, kind=str(conn.kind), base_url=conn.base_url,
                          model=conn.model, api_key_env=conn.api_key_env,
                          context_window=conn.context_window).on_conflict_replace().execute()
    return get_connection(conn.name)


def delete_connection(name: str) -> None:
    """Remove a connection record."""
    if ConnectionRow.delete().where(ConnectionRow.name == name).execute() == 0:
        raise NotFound(f"No connection named {name!r}.")


def add_project_rule(project_id: str, key: str) -> None:
    """Persist an "always allow" rule for a project (idempotent)."""
    ProjectRuleRow.insert(project=project_id, key=key, created_at=now_ms()).on_conflict_ignore().execute()


def project_rules(project_id: str) -> set[str]:
    """All rule keys of a project."""
    query = ProjectRuleRow.select(ProjectRuleRow.key).where(ProjectRuleRow.project == project_id)
    return {r.key for r in query}
