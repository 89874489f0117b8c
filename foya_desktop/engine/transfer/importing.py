"""Reading a JSON export back (``export_json``) as a new session.

Everything is checked before anything is written: the JSON, the format and
version, every field of every message and every embedded attachment (its
sha256 must match its bytes). Bad input raises ``InvalidOperation`` with one
sentence and leaves the database as it was. The new session gets new ids
(session, messages, turns); tool-call ids, speakers, texts and times are kept.
It is top level (never a child), bound to the exported project folder when
that folder exists here, and its roster keeps the VPs this library knows.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.ids import new_id
from foya_desktop.core.messages import ImagePart, Message, Part, TextPart, ToolResultPart
from foya_desktop.core.model import AgentMode, ApprovalMode, Session
from foya_desktop.engine.transfer.export_json import FORMAT, VERSION
from foya_desktop.store.codec import message_from_payload

MESSAGE_KEYS = ("role", "parts", "status")


@dataclass(frozen=True, slots=True)
class ParsedExport:
    """A checked export, ready to write."""

    session: dict[str, Any]
    project_path: str
    messages: list[Message]
    blobs: dict[str, tuple[str, bytes]]
    """Embedded attachments: sha256 → (mime, bytes), verified."""
    referenced: set[str]
    """Attachments named without data (restorable only where the blob exists)."""


def parse_export(text: str) -> ParsedExport:
    """Check the whole document; ``InvalidOperation`` names the first problem."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _bad(f"it is not a Foya session export (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise _bad(f"it is export version {doc.get('version')!r}; this Foya reads version {VERSION}")
    session = _field(doc, "session", dict, "the document")
    _field(session, "title", str, "the session")
    raw_messages = _field(doc, "messages", list, "the document")
    messages = [_message(i, m) for i, m in enumerate(raw_messages, 1)]
    blobs, referenced = _attachments(doc.get("attachments") or {})
    project = doc.get("project")
    path = str(project.get("path") or "") if isinstance(project, dict) else ""
    return ParsedExport(session, path, messages, blobs, referenced)


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise _bad(f"{where} has no {key!r} field")
    if not isinstance(data[key], kind):
        raise _bad(f"{key!r} in {where} is not a {kind.__name__}")
    return data[key]


def _message(index: int, data: object) -> Message:
    if not isinstance(data, dict):
        raise _bad(f"message {index} is not an object")
    missing = [k for k in MESSAGE_KEYS if k not in data]
    if missing:
        raise _bad(f"message {index} has no {', '.join(repr(k) for k in missing)}")
    if data["role"] not in ("user", "assistant", "tool"):
        raise _bad(f"message {index} cannot be read (unknown role {data['role']!r})")
    if not isinstance(data["parts"], list):
        raise _bad(f"message {index} cannot be read ('parts' is not a list)")
    try:
        filled = {"id": "", "speaker": None, "turn_id": "", "created_at": 0, "meta": {}, **data}
        return message_from_payload("", 0, filled)
    except (KeyError, TypeError, ValueError) as exc:
        raise _bad(f"message {index} cannot be read ({exc})") from None


def _attachments(raw: object) -> tuple[dict[str, tuple[str, bytes]], set[str]]:
    if not isinstance(raw, dict):
        raise _bad("'attachments' is not an object")
    blobs: dict[str, tuple[str, bytes]] = {}
    referenced: set[str] = set()
    for sha, entry in raw.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("mime", ""), str):
            raise _bad(f"attachment {sha[:12]} is not an object with a mime type")
        if "data" not in entry:
            referenced.add(sha)
            continue
        try:
            data = base64.b64decode(str(entry["data"]), validate=True)
        except (binascii.Error, ValueError):
            raise _bad(f"attachment {sha[:12]} is not valid base64") from None
        if hashlib.sha256(data).hexdigest() != sha:
            raise _bad(f"attachment {sha[:12]} does not match its sha256 (the file was changed)")
        blobs[sha] = (str(entry.get("mime", "")), data)
    return blobs, referenced


def _bad(why: str) -> InvalidOperation:
    return InvalidOperation(f"Cannot import this file: {why}. Nothing was imported.")


def new_session(parsed: ParsedExport, project_id: str | None, workdir: str, roster: tuple[str, ...],
                default_vp: str) -> Session:
    """The imported session's record (new id, top level, runtime state fresh)."""
    s = parsed.session
    return Session(
        id=new_id("ses"), title=str(s["title"]), project_id=project_id, origin=f"import:{s.get('id', '')}",
        connection=str(s.get("connection", "")), model=str(s.get("model", "")),
        reasoning_effort=str(s.get("reasoning_effort", "")),
        approval_mode=_enum(ApprovalMode, s.get("approval_mode"), ApprovalMode.ASK),
        agent_mode=_enum(AgentMode, s.get("agent_mode"), AgentMode.EXECUTE),
        workdir=workdir, announcement=str(s.get("announcement", "")), roster=roster, default_vp=default_vp,
        pinned=bool(s.get("pinned", False)), created_at=int(s.get("created_at") or 0),
        updated_at=int(s.get("updated_at") or 0))


def _enum(kind: type[ApprovalMode] | type[AgentMode], value: object, default: Any) -> Any:
    try:
        return kind(str(value))
    except ValueError:
        return default


def renumbered(messages: list[Message], session_id: str, available: set[str]) -> list[Message]:
    """The messages with new message and turn ids; images not ``available`` become a note."""
    turns: dict[str, str] = {}
    out: list[Message] = []
    for m in messages:
        turn = turns.setdefault(m.turn_id, new_id("turn")) if m.turn_id else ""
        parts = tuple(_available(p, available) for p in m.parts)
        out.append(replace(m, id=new_id("msg"), session_id=session_id, turn_id=turn, parts=parts, seq=0))
    return out


def _available(part: Part, available: set[str]) -> Part:
    if isinstance(part, ImagePart) and part.artifact not in available:
        return TextPart(f"[image {part.name or part.artifact[:12]} was not included in the export]")
    if isinstance(part, ToolResultPart) and any(i.artifact not in available for i in part.images):
        kept = tuple(i for i in part.images if i.artifact in available)
        note = f"\n[{len(part.images) - len(kept)} image(s) of this result were not included in the export]"
        return replace(part, images=kept, content=part.content + note)
    return part
