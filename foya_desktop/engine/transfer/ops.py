"""Kernel operations: export a session (Markdown or JSON) and import a JSON export as a new session.

The window (File ▸ Export / Import, the session's context menu) and
``foya sessions export`` / ``import`` both come here.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.events import SessionChanged
from foya_desktop.core.messages import ImagePart, Message, ToolResultPart
from foya_desktop.core.model import OMNI_ID, VP, Project, Session
from foya_desktop.engine.agents.vps import all_vps
from foya_desktop.engine.transfer.export_json import export_document
from foya_desktop.engine.transfer.export_md import export_markdown
from foya_desktop.engine.transfer.importing import new_session, parse_export, renumbered
from foya_desktop.engine.turn.debug_trace import traces
from foya_desktop.store.ops_import import known_artifacts, write_import
from foya_desktop.tools.paths import broad_project_kind

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services

ExportFormat = Literal["md", "json"]


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The new session and what could not be carried over, in sentences."""

    session: Session
    notes: tuple[str, ...]


class Transfer:
    """Session export and import (``kernel.transfer``)."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    async def export_session(self, session_id: str, fmt: ExportFormat, *, embed: bool = True,
                             include_debug: bool = False) -> str:
        """The session's valid history as Markdown or JSON text (see ``EXPORT_WARNING``)."""
        store = self.svc.store
        session = await store.get_session(session_id)
        project = await _project(self, session)
        messages = await store.valid_messages(session_id)
        roster = _people(await all_vps(store), session, messages)
        if fmt == "md":
            return export_markdown(session, project, roster, messages)
        if fmt != "json":
            raise InvalidOperation(f"Unknown export format {fmt!r}; use md or json.")
        blobs = {sha: (mime, await _blob(self, sha)) for sha, mime in _images(messages).items()}
        trace = await store.read(traces, session_id) if include_debug else None
        doc = export_document(session, project, roster, messages, blobs, trace, embed=embed)
        return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"

    async def import_session(self, text: str) -> ImportResult:
        """A new session from a JSON export; bad input changes nothing (``InvalidOperation``)."""
        parsed = await asyncio.to_thread(parse_export, text)
        notes: list[str] = []
        project_id, workdir = None, ""
        folder_exists = await asyncio.to_thread(_is_folder, parsed.project_path)
        broad = folder_exists and await asyncio.to_thread(
            broad_project_kind, Path(parsed.project_path), self.svc.store.home.root) is not None
        if broad:
            notes.append(f"The project folder {parsed.project_path} is too broad to bind without your "
                         "confirmation (the root, your home folder, or around Foya's data folder); the "
                         "session is not bound to a folder (bind it from its settings if you mean it).")
        elif folder_exists:
            project = await self.svc.store.ensure_project(parsed.project_path, Path(parsed.project_path).name)
            project_id, workdir = project.id, project.path
        elif parsed.project_path:
            notes.append(f"The project folder {parsed.project_path} does not exist here; the session is "
                         "not bound to a folder (bind it once from its settings).")
        known = {v.id for v in await all_vps(self.svc.store)}
        wanted = [str(r) for r in parsed.session.get("roster") or []]
        roster = tuple(r for r in wanted if r in known) or (OMNI_ID,)
        if len(roster) < len(wanted):
            missing = ", ".join(r for r in wanted if r not in known)
            notes.append(f"VP(s) {missing} are not in this VP library and were left off the roster.")
        default = str(parsed.session.get("default_vp", ""))
        session = new_session(parsed, project_id, workdir, roster,
                              default if default in roster else roster[0])
        available = set(parsed.blobs) | await self.svc.store.read(known_artifacts, parsed.referenced)
        if parsed.referenced - available:
            notes.append(f"{len(parsed.referenced - available)} attachment(s) were only referenced and are "
                         "not in this data folder; they show as a note.")
        messages = renumbered(parsed.messages, session.id, available)
        created = await self.svc.store.write(write_import, self.svc.store.files, session, messages,
                                             parsed.blobs)
        self.svc.bus.publish(SessionChanged(created.id, created))
        return ImportResult(created, tuple(notes))


def _is_folder(path: str) -> bool:
    return bool(path) and Path(path).is_dir()


async def _project(ops: Transfer, session: Session) -> Project | None:
    if not session.project_id:
        return None
    try:
        return await ops.svc.store.get_project(session.project_id)
    except NotFound:
        return None


def _people(vps: list[VP], session: Session, messages: list[Message]) -> list[VP]:
    """The roster's VPs, then any other VP that speaks in the history."""
    ids = list(dict.fromkeys([*session.roster, *(m.speaker for m in messages if m.speaker)]))
    by_id = {v.id: v for v in vps}
    return [by_id[i] for i in ids if i in by_id]


def _images(messages: list[Message]) -> dict[str, str]:
    found: dict[str, str] = {}
    for m in messages:
        for p in m.parts:
            images = (p,) if isinstance(p, ImagePart) else p.images if isinstance(p, ToolResultPart) else ()
            found.update({i.artifact: i.mime for i in images})
    return found


async def _blob(ops: Transfer, sha: str) -> bytes | None:
    try:
        return await ops.svc.store.read_artifact(sha)
    except (FileNotFoundError, ValueError, NotFound):
        return None
