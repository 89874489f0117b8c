"""A session as one JSON document: complete enough to restore it (``importing``).

Shape (``version`` 1)::

    {"format": "foya-session", "version": 1, "exported_at": ms, "foya_version": "…",
     "warning": "…", "session": {…settings…}, "project": {"name", "path"} | null,
     "vps": [{…roster VP…}], "messages": [{id, role, speaker, parts, status, turn_id,
     created_at, meta}], "attachments": {sha256: {"mime", "size", "data"?}},
     "debug_traces": [...]}   # only with include_debug

Attachments (images in messages and tool results) are embedded as base64 by
default, or only referenced by their sha256 (``embed=False``): a reference
restores only where the same data folder still holds the blob.
"""

from __future__ import annotations

import base64
from dataclasses import asdict
from typing import Any

from foya_desktop import __version__
from foya_desktop.core.ids import now_ms
from foya_desktop.core.messages import Message, artifacts_of
from foya_desktop.core.model import VP, Project, Session
from foya_desktop.store.codec import message_payload

FORMAT = "foya-session"
VERSION = 1
EXPORT_WARNING = ("This export contains tool output (file contents, command output) and, if included, "
                  "debug data; either may contain secrets such as keys or passwords. Check it before "
                  "you share it.")
SESSION_FIELDS = ("id", "title", "origin", "parent_id", "connection", "model", "reasoning_effort",
                  "approval_mode", "agent_mode", "workdir", "announcement", "roster", "default_vp",
                  "pinned", "created_at", "updated_at", "child_snapshot")


def session_json(session: Session) -> dict[str, Any]:
    """The session's settings (no runtime state: no phase, no queue)."""
    data = asdict(session)
    out = {k: data[k] for k in SESSION_FIELDS}
    out["roster"] = list(session.roster)
    out["approval_mode"], out["agent_mode"] = str(session.approval_mode), str(session.agent_mode)
    return out


def export_document(session: Session, project: Project | None, roster: list[VP], messages: list[Message],
                    blobs: dict[str, tuple[str, bytes | None]], traces: list[dict[str, Any]] | None,
                    *, embed: bool) -> dict[str, Any]:
    """The document; ``blobs`` maps sha256 → (mime, bytes or ``None`` when missing)."""
    attachments: dict[str, Any] = {}
    for sha in sorted(blobs):
        mime, data = blobs[sha]
        entry: dict[str, Any] = {"mime": mime, "size": len(data) if data is not None else None}
        if data is None:
            entry["missing"] = True
        elif embed:
            entry["data"] = base64.b64encode(data).decode("ascii")
        attachments[sha] = entry
    doc: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "exported_at": now_ms(), "foya_version": __version__,
        "warning": EXPORT_WARNING, "session": session_json(session),
        "project": {"name": project.name, "path": project.path} if project else None,
        "vps": [asdict(v) for v in roster],
        "messages": [message_payload(m) for m in messages],
        "attachments": attachments,
    }
    if traces is not None:
        doc["debug_traces"] = traces
    return doc


def attachment_shas(messages: list[Message]) -> set[str]:
    """Every blob the messages reference."""
    found: set[str] = set()
    for m in messages:
        found |= artifacts_of(m)
    return found
