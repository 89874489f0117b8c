"""Project management beyond registration: relink to a moved folder, forget (sync; worker threads).

A project row holds only a folder reference (F10), so relinking changes that
reference and the working directory of every session bound to it, in one
transaction — the sessions stay in their project (F09). Forgetting removes
the row and its rules; the folder on disk is never touched (F11).
"""

from __future__ import annotations

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import Project
from foya_desktop.store.catalog import get_project
from foya_desktop.store.events_log import append_event
from foya_desktop.store.schema import ProjectRow, ProjectRuleRow, SessionRow


def relink_project(project_id: str, path: str) -> tuple[Project, list[str]]:
    """Point a project at ``path`` (absolute, resolved); returns it and the sessions that follow."""
    project = get_project(project_id)
    other = ProjectRow.get_or_none((ProjectRow.path == path) & (ProjectRow.id != project_id))
    if other is not None:
        raise InvalidOperation(f"{path} is already the folder of the project “{other.name}”.")
    ProjectRow.update(path=path).where(ProjectRow.id == project.id).execute()
    ids = [r.id for r in SessionRow.select(SessionRow.id).where(SessionRow.project == project.id)]
    for session_id in ids:
        append_event(session_id, "project_relinked", {"project_id": project.id, "workdir": path})
    SessionRow.update(workdir=path).where(SessionRow.project == project.id).execute()
    return get_project(project.id), ids


def forget_project(project_id: str) -> None:
    """Remove the project row and its rules (its sessions must be deleted first)."""
    if SessionRow.select().where(SessionRow.project == project_id).exists():
        raise InvalidOperation("The project still has sessions; delete them first.")
    ProjectRuleRow.delete().where(ProjectRuleRow.project == project_id).execute()
    ProjectRow.delete().where(ProjectRow.id == project_id).execute()


def set_project_order(project_ids: list[str]) -> None:
    """The person's order of projects in the sidebar."""
    for order, project_id in enumerate(project_ids):
        ProjectRow.update(sort_order=order).where(ProjectRow.id == project_id).execute()
