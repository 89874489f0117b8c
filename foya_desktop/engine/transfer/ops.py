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
from foya_desktop.core.model import OMNI_ID, VP, AgentMode, Project, Session
from foya_desktop.engine.agents.vps import all_vps
from foya_desktop.engine.transfer.export_json import export_document
from foya_desktop.engine.transfer.export_md import export_markdown
from foya_desktop.engine.transfer.importing import (
    ParsedExport,
    capped,
    new_session,
    parse_export,
    read_export_file,
    renumbered,
)
from foya_desktop.engine.turn.debug_trace import traces
from foya_desktop.store.catalog import get_project, list_connections
from foya_desktop.store.history import valid_messages
from foya_desktop.store.ops_import import known_artifacts, write_import
from foya_desktop.store.sessions import get_session

if TYPE_CHECKING:
    from foya_desktop.engine.projects import Projects
    from foya_desktop.engine.services import Services

ExportFormat = Literal["md", "json"]


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The new session and what could not be carried over, in sentences."""

    session: Session
    notes: tuple[str, ...]
    exported_folder: str = ""
    """The folder the export names ('' when none); the session is bound to it only when the
    person chose it."""


class Transfer:
    """Session export and import (``kernel.transfer``)."""

    def __init__(self, svc: Services, projects: Projects) -> None:
        self.svc = svc
        self._projects = projects

    async def export_session(self, session_id: str, fmt: ExportFormat, *, embed: bool = True,
                             include_debug: bool = False) -> str:
        """The session's valid history as Markdown or JSON text (see ``EXPORT_WARNING``)."""
        store = self.svc.store
        session = await store.read(get_session, session_id)
        project = await _project(self, session)
        messages = await store.read(valid_messages, session_id)
        roster = _people(await all_vps(store), session, messages)
        if fmt == "md":
            return export_markdown(session, project, roster, messages)
        if fmt != "json":
            raise InvalidOperation(f"Unknown export format {fmt!r}; use md or json.")
        blobs = {sha: (mime, await _blob(self, sha)) for sha, mime in _images(messages).items()}
        trace = await store.read(traces, session_id) if include_debug else None
        doc = export_document(session, project, roster, messages, blobs, trace, embed=embed)
        return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"

    async def read_export(self, path: str) -> ParsedExport:
        """Read and check an export file (at most ``MAX_IMPORT_BYTES``, checked before reading);
        nothing is stored. ``BadInput`` says what is wrong with it."""
        return await asyncio.to_thread(read_export_file, Path(path))

    async def check_export(self, text: str) -> ParsedExport:
        """Check an export given as text; nothing is stored."""
        return await asyncio.to_thread(parse_export, text)

    async def exported_folder_here(self, parsed: ParsedExport) -> str | None:
        """The folder the export names, resolved, when it is an absolute path to a folder that exists
        here (the window offers it in the picker, ``--bind-to-exported-folder`` uses it); else ``None``."""
        return await asyncio.to_thread(_folder_here, parsed.exported_folder)

    async def import_session(self, text: str, *, folder: str | None = None,
                             allow_broad: bool = False) -> ImportResult:
        """A new session from a JSON export given as text (see :meth:`import_export`)."""
        return await self.import_export(await self.check_export(text), folder=folder, allow_broad=allow_broad)

    async def import_export(self, parsed: ParsedExport, *, folder: str | None = None,
                            allow_broad: bool = False) -> ImportResult:
        """Store a checked export as a new session; a refusal changes nothing.

        The session is bound only to ``folder``, a folder the person named or confirmed (the
        export's own folder is only ``parsed.exported_folder``, a suggestion); without it, it is
        unbound. A broad folder needs ``allow_broad`` (``engine.broad``). The approval mode is at
        most ``ask`` and nothing else that grants permissions comes from the file (``importing``).
        """
        notes: list[str] = []
        resolved = None
        if folder is not None:
            resolved = str(await asyncio.to_thread(_existing_folder, folder))
            await self._projects.refuse_broad(resolved, allow_broad=allow_broad)
        elif parsed.exported_folder:
            notes.append(f"The export was made in the folder {parsed.exported_folder!r}; the imported "
                         "session is not bound to any folder until you choose one.")
        settings = parsed.settings
        mode = capped(settings.approval_mode)
        if mode != settings.approval_mode:
            notes.append(f"The export's approval mode {settings.approval_mode} was not taken over: an "
                         f"imported session starts in {mode} mode at most (change it in the session's "
                         "settings if you mean to).")
        if settings.agent_mode == AgentMode.AWAITING_CONFIRMATION:
            notes.append("The export was waiting for a plan to be confirmed; the imported session is in plan "
                         "mode (switch it to execute yourself when you mean it).")
        known = {v.id for v in await all_vps(self.svc.store)}
        roster = tuple(dict.fromkeys(r for r in settings.roster if r in known)) or (OMNI_ID,)
        if len(roster) < len(settings.roster):
            missing = ", ".join(repr(r) for r in settings.roster if r not in known)
            notes.append(f"VP(s) {missing} are not in this VP library and were left off the roster.")
        connection = settings.connection
        if connection and connection not in {c.name for c in await self.svc.store.read(list_connections)}:
            notes.append(f"There is no connection named {connection!r} here; the session uses the "
                         "default one.")
            connection = ""
        default = settings.default_vp if settings.default_vp in roster else roster[0]
        session = new_session(parsed, connection, roster, default)
        available = set(parsed.blobs) | await self.svc.store.read(known_artifacts, parsed.referenced)
        if parsed.referenced - available:
            notes.append(f"{len(parsed.referenced - available)} attachment(s) were only referenced and are "
                         "not in this data folder; they show as a note.")
        messages = renumbered(parsed.messages, session.id, available)
        created = await self.svc.store.write(write_import, self.svc.store.files, session, messages,
                                             parsed.blobs, resolved)
        self.svc.bus.publish(SessionChanged(created.id, created))
        return ImportResult(created, tuple(notes), parsed.exported_folder)


def _folder_here(path: str) -> str | None:
    if not path or not Path(path).is_absolute():
        return None
    folder = Path(path)
    return str(folder.resolve()) if folder.is_dir() else None


def _existing_folder(path: str) -> Path:
    """``path`` resolved, or ``InvalidOperation`` (nothing was imported) when it is not a folder."""
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise InvalidOperation(f"The folder {path!r} does not exist here. Nothing was imported.")
    return folder.resolve()


async def _project(ops: Transfer, session: Session) -> Project | None:
    if not session.project_id:
        return None
    try:
        return await ops.svc.store.read(get_project, session.project_id)
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
        return await ops.svc.store.read(ops.svc.store.files.get, sha)
    except (FileNotFoundError, ValueError, NotFound):
        return None
