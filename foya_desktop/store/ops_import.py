"""Writing an imported session in one transaction (sync; the writer thread).

The attachments' blobs, the project of the folder the person chose (if any),
the session and all its messages commit together, or nothing does: an import
that fails half-way leaves no partial session and no new project.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Session
from foya_desktop.store import history, sessions
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.catalog import ensure_project
from foya_desktop.store.schema import ArtifactRow, SessionRow


def write_import(files: ArtifactFiles, session: Session, messages: list[Message],
                 blobs: dict[str, tuple[str, bytes]], folder: str | None = None) -> Session:
    """Store the blobs, create the session and append its messages; returns the session.

    ``folder`` (absolute and resolved, already checked by the engine: it exists and the person
    named it) binds the session to that folder's project, registered here if it is new; without
    it the session is unbound, whatever ``session`` says.
    """
    if folder:
        project = ensure_project(folder, Path(folder).name or folder)
        session = replace(session, project_id=project.id, workdir=project.path)
    else:
        session = replace(session, project_id=None, workdir="")
    for mime, data in blobs.values():
        sha = files.put(data)
        (ArtifactRow.insert(sha=sha, mime=mime, size=len(data), created_at=now_ms())
         .on_conflict_ignore().execute())
    created = sessions.create_session(session)
    history.append_messages(session.id, messages)
    if session.updated_at:  # appending touched it; the export's time is the truth
        SessionRow.update(updated_at=session.updated_at).where(SessionRow.id == created.id).execute()
    return sessions.get_session(created.id)


def known_artifacts(shas: set[str]) -> set[str]:
    """Which of ``shas`` this data folder has a record of."""
    if not shas:
        return set()
    return {r.sha for r in ArtifactRow.select(ArtifactRow.sha).where(ArtifactRow.sha.in_(list(shas)))}
