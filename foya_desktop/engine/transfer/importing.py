"""Reading a JSON export back (``export_json``) as a new session.

Everything is checked before anything is written: the file's size (before it
is read), the JSON and how deeply it nests, the format and version, the type
of every field of the session, of every message and part, and every embedded
attachment (its sha256 must match its bytes). Bad input raises ``BadInput``
with one sentence (exit code 2 from ``foya``) and leaves the database as it
was. The new session gets new ids (session, messages, turns); tool-call ids,
speakers, texts and times are kept.

What an export never decides (it is a file anyone can write, or a model can be
talked into writing):

* **The folder.** The export names the folder it was made in
  (:attr:`ParsedExport.exported_folder`); the import binds the session only to
  a folder the person names (``Transfer.import_export(folder=…)``), never to
  that one on its own.
* **Permissions.** The approval mode is at most ``ask``
  (:data:`APPROVAL_CAP`); a session waiting for its plan to be confirmed comes
  in as ``plan`` (one click would otherwise carry out a plan the file wrote);
  VP definitions (their tools), child-agent snapshots, always-allow rules and
  MCP trust are not taken from the file — the roster names VPs of this VP
  library, and rules and trust belong to a project of this data folder.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import BadInput, InvalidOperation
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import (
    ImagePart,
    Message,
    MessageStatus,
    Part,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    ToolState,
)
from foya_desktop.core.model import AgentMode, ApprovalMode, Session
from foya_desktop.engine.session.settings import effort
from foya_desktop.engine.transfer.export_json import FORMAT, VERSION

MAX_IMPORT_BYTES = 64 * 1024 * 1024
"""The largest export Foya reads (64 MiB), checked before the file is read. An export with many
embedded images can be larger: export it with ``--reference-attachments`` instead."""
MAX_DEPTH = 64
"""How deeply the JSON may nest (an export itself nests 6 levels; tool arguments add theirs)."""
MAX_VALUES = 4_000_000
"""How many JSON values (keys, numbers, strings, objects, lists) an export may hold. Parsed, each
costs memory far beyond its text (64 MB of ``{},`` is 1.6 GB of dictionaries), so the count is
bounded before parsing; a message holds about 27, a 50,000-message session about 1.4 million.
Measured with ``foya sessions import`` at the limits: 55 MB of 3.9 million short strings peaks at
370 MB RSS, a 60 MB export of one embedded image at 270 MB (a 200 MB file is refused unread)."""
MAX_TIME_MS = 253_402_300_799_999
"""The last millisecond of the year 9999: a time after it is not one Foya wrote."""

APPROVAL_CAP = ApprovalMode.ASK
"""The most permissive approval mode an imported session starts in (the person may change it)."""
_PERMISSIVENESS = (ApprovalMode.READ_ONLY, ApprovalMode.ASK, ApprovalMode.AUTO_EDIT, ApprovalMode.AUTO)

MESSAGE_KEYS = ("role", "parts", "status")
LIST_META = ("targets", "unavailable_attachments")
"""Message metadata Foya reads back as lists of strings (the other keys are read as text or flags)."""
_SHA256 = re.compile(r"[0-9a-f]{64}")
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_LINE_BREAKS = re.compile(r"[\r\n\t\v\f\x85\u2028\u2029]+")


@dataclass(frozen=True, slots=True)
class ExportedSettings:
    """The exported session's settings, checked (what the new session may take from them)."""

    source_id: str
    title: str
    connection: str
    model: str
    reasoning_effort: str
    approval_mode: ApprovalMode
    """As the file says: the import caps it at :data:`APPROVAL_CAP`."""
    agent_mode: AgentMode
    announcement: str
    roster: tuple[str, ...]
    default_vp: str
    pinned: bool
    created_at: int
    updated_at: int


@dataclass(frozen=True, slots=True)
class ParsedExport:
    """A checked export, ready to write (nothing of it is stored yet)."""

    settings: ExportedSettings
    exported_folder: str
    """The folder the export was made in ('' when none): only a suggestion for the person."""
    messages: list[Message]
    blobs: dict[str, tuple[str, bytes]]
    """Embedded attachments: sha256 → (mime, bytes), verified."""
    referenced: set[str]
    """Attachments named without data (restorable only where the blob exists)."""

    @property
    def title(self) -> str:
        """The exported session's title (one line)."""
        return self.settings.title


# ---- reading and parsing ------------------------------------------------------------------------

def read_export_file(path: Path) -> ParsedExport:
    """Read and check an export file (blocking I/O: run it off the event loop).

    The size is checked on the open file before anything is read, and the read
    itself is bounded, so a large, growing or endless file costs no memory.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise BadInput(f"Cannot import {path}: there is no such file. Nothing was imported.") from None
    except OSError as exc:
        raise BadInput(f"Cannot import {path}: {exc.strerror or exc}. Nothing was imported.") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise BadInput(f"Cannot import {path}: it is a folder, not an export file. Nothing was imported.")
        if not stat.S_ISREG(info.st_mode):
            raise BadInput(f"Cannot import {path}: it is not a regular file. Nothing was imported.")
        if info.st_size > MAX_IMPORT_BYTES:
            raise _too_large(str(path), info.st_size)
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        raise BadInput(f"Cannot import {path}: {exc.strerror or exc}. Nothing was imported.") from None
    finally:
        os.close(fd)
    if len(data) > MAX_IMPORT_BYTES:  # it grew after the check, or its size said 0 (/proc)
        raise _too_large(str(path), None)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"Cannot import {path}: it is not UTF-8 text (a JSON export is). "
                       "Nothing was imported.") from None
    del data
    return _parse(text)


def parse_export(text: str) -> ParsedExport:
    """Check the whole document; ``BadInput`` names the first problem."""
    if len(text) > MAX_IMPORT_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_IMPORT_BYTES:
        raise _too_large("this file", len(text.encode("utf-8", "surrogatepass")))
    return _parse(text)


def _too_large(what: str, size: int | None) -> BadInput:
    """``size``: the file's size, ``None`` when only more than the limit was read."""
    limit = f"{MAX_IMPORT_BYTES // 2**20} MB"
    how_big = (f"it is {size / 2**20:.1f} MB and an export may be at most {limit}" if size is not None
               else f"it holds more than the {limit} an export may have")
    return BadInput(f"Cannot import {what}: {how_big} (export the session with --reference-attachments to "
                    "leave its images out). Nothing was imported.")


def _parse(text: str) -> ParsedExport:
    _check_value_count(text)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise _bad(f"its JSON is nested more than {MAX_DEPTH} levels deep") from None
    _check_depth(doc)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _bad(f"it is not a Foya session export (no \"format\": \"{FORMAT}\")")
    if doc.get("version") != VERSION:
        raise _bad(f"it is export version {_shown(doc.get('version'))}; this Foya reads version {VERSION}")
    settings = _settings(_field(doc, "session", dict, "the document"))
    raw_messages = _field(doc, "messages", list, "the document")
    messages = [_message(i, m) for i, m in enumerate(raw_messages, 1)]
    attachments = doc.get("attachments")
    blobs, referenced = _attachments({} if attachments is None else attachments)
    return ParsedExport(settings, _exported_folder(doc.get("project")), messages, blobs, referenced)


def _check_value_count(text: str) -> None:
    """Refuse a document with more than :data:`MAX_VALUES` values before it is parsed.

    Every value but the first of an object or list follows a comma, every key a
    colon, so the separators and brackets bound the count; only when that bound
    is too high are the strings' contents left out and the count taken again.
    """
    def bound(t: str) -> int:
        return t.count(",") + t.count(":") + t.count("[") + t.count("{") + 1
    if bound(text) <= MAX_VALUES:
        return
    if bound(_STRINGS.sub('""', text)) > MAX_VALUES:
        raise _bad(f"it holds more than {MAX_VALUES:,} JSON values")


def _check_depth(doc: object) -> None:
    stack: list[tuple[object, int]] = [(doc, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _bad(f"its JSON is nested more than {MAX_DEPTH} levels deep")
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


def _bad(why: str) -> BadInput:
    return BadInput(f"Cannot import this file: {why}. Nothing was imported.")


def _shown(value: object) -> str:
    """A value from the file inside a sentence: quoted, escaped, and short."""
    scalar = isinstance(value, (str, int, float, bool)) or value is None
    text = repr(value) if scalar else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "…"


_TYPE_NAMES: dict[type, str] = {str: "a string", bool: "true or false", int: "a whole number",
                                float: "a number", list: "a list", dict: "an object", type(None): "null"}


def _kind(value: object) -> str:
    """What a JSON value is, in words."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


# ---- the session's settings ---------------------------------------------------------------------

def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise _bad(f"{where} has no {key!r} field")
    if not isinstance(data[key], kind) or (kind is int and isinstance(data[key], bool)):
        raise _bad(f"{key!r} in {where} is {_kind(data[key])}, not {_TYPE_NAMES[kind]}")
    return data[key]


def _optional(data: dict[str, Any], key: str, kind: type, default: Any, where: str) -> Any:
    if data.get(key) is None:
        return default
    return _field(data, key, kind, where)


def _time(data: dict[str, Any], key: str, where: str, default: int) -> int:
    value = data.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TIME_MS:
        raise _bad(f"{key!r} in {where} is not a time ({_shown(value)}; Foya writes milliseconds "
                   "since 1970 as a whole number)")
    return value


def _settings(s: dict[str, Any]) -> ExportedSettings:
    where = "the session"
    title = _LINE_BREAKS.sub(" ", _field(s, "title", str, where)).strip() or "Imported session"
    roster = _optional(s, "roster", list, [], where)
    if not all(isinstance(r, str) for r in roster):
        raise _bad("'roster' in the session is not a list of VP ids")
    raw_effort = _optional(s, "reasoning_effort", str, "", where)
    try:
        reasoning = effort(raw_effort)
    except InvalidOperation:
        reasoning = ""
    now = now_ms()
    created = _time(s, "created_at", where, now)
    return ExportedSettings(
        source_id=_optional(s, "id", str, "", where), title=title,
        connection=_optional(s, "connection", str, "", where).strip(),
        model=_optional(s, "model", str, "", where), reasoning_effort=reasoning,
        approval_mode=_enum(ApprovalMode, _optional(s, "approval_mode", str, "", where), ApprovalMode.ASK),
        agent_mode=_enum(AgentMode, _optional(s, "agent_mode", str, "", where), AgentMode.EXECUTE),
        announcement=_optional(s, "announcement", str, "", where), roster=tuple(roster),
        default_vp=_optional(s, "default_vp", str, "", where),
        pinned=_optional(s, "pinned", bool, False, where),
        created_at=created, updated_at=_time(s, "updated_at", where, created))


def _enum(kind: type[ApprovalMode] | type[AgentMode], value: str, default: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        return default


def _exported_folder(project: object) -> str:
    if project is None:
        return ""
    if not isinstance(project, dict):
        raise _bad(f"'project' in the document is {_kind(project)}, not an object")
    path: str = _optional(project, "path", str, "", "the project")
    if "\x00" in path:
        raise _bad("the project's 'path' is not a folder path")
    return path


# ---- messages and attachments -------------------------------------------------------------------

def _message(index: int, data: object) -> Message:
    where = f"message {index}"
    if not isinstance(data, dict):
        raise _bad(f"{where} is {_kind(data)}, not an object")
    missing = [k for k in MESSAGE_KEYS if k not in data]
    if missing:
        raise _bad(f"{where} has no {', '.join(repr(k) for k in missing)}")
    role = data["role"]
    if role not in ("user", "assistant", "tool"):
        raise _bad(f"{where} cannot be read (unknown role {_shown(role)})")
    parts = _field(data, "parts", list, where)
    status = _field(data, "status", str, where)
    if status not in {m.value for m in MessageStatus}:
        raise _bad(f"{where} cannot be read (unknown status {_shown(status)})")
    speaker = data.get("speaker")
    if speaker is not None and not isinstance(speaker, str):
        raise _bad(f"'speaker' in {where} is {_kind(speaker)}, not a string")
    return Message(
        id="", session_id="", role=role, parts=tuple(_part(f"part {n} of {where}", p)
                                                     for n, p in enumerate(parts, 1)),
        speaker=speaker, status=MessageStatus(status), turn_id=_optional(data, "turn_id", str, "", where),
        created_at=_time(data, "created_at", where, 0), meta=_meta(data, where))


def _meta(data: dict[str, Any], where: str) -> dict[str, Any]:
    """A message's free-form extras; the lists Foya reads back must be lists of strings."""
    meta: dict[str, Any] = _optional(data, "meta", dict, {}, where)
    for key in LIST_META:
        value = meta.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise _bad(f"{key!r} in the meta of {where} is not a list of strings")
    return dict(meta)


def _part(where: str, data: object) -> Part:
    if not isinstance(data, dict):
        raise _bad(f"{where} is {_kind(data)}, not an object")
    kind = data.get("kind")
    if kind == "text":
        return TextPart(_field(data, "text", str, where))
    if kind == "reasoning":
        return ReasoningPart(_field(data, "text", str, where), _optional(data, "signature", str, "", where))
    if kind == "image":
        return _image(where, data)
    if kind == "tool_call":
        state = _field(data, "state", str, where)
        if state not in {s.value for s in ToolState}:
            raise _bad(f"{where} cannot be read (unknown tool call state {_shown(state)})")
        return ToolCallPart(_field(data, "call_id", str, where), _field(data, "name", str, where),
                            dict(_field(data, "arguments", dict, where)), ToolState(state))
    if kind == "tool_result":
        images = _optional(data, "images", list, [], where)
        return ToolResultPart(_field(data, "call_id", str, where), _field(data, "name", str, where),
                              _field(data, "content", str, where),
                              _optional(data, "is_error", bool, False, where),
                              tuple(_image(f"image {n} of {where}", i) for n, i in enumerate(images, 1)))
    raise _bad(f"{where} cannot be read (unknown kind {_shown(kind)})")


def _image(where: str, data: object) -> ImagePart:
    if not isinstance(data, dict):
        raise _bad(f"{where} is {_kind(data)}, not an object")
    artifact = _field(data, "artifact", str, where)
    if not _SHA256.fullmatch(artifact):
        raise _bad(f"{where} names its image by {_shown(artifact)}, not by a sha256")
    return ImagePart(artifact, _field(data, "mime", str, where), _optional(data, "name", str, "", where))


def _attachments(raw: object) -> tuple[dict[str, tuple[str, bytes]], set[str]]:
    if not isinstance(raw, dict):
        raise _bad(f"'attachments' is {_kind(raw)}, not an object")
    blobs: dict[str, tuple[str, bytes]] = {}
    referenced: set[str] = set()
    for sha, entry in raw.items():
        if not _SHA256.fullmatch(sha):
            raise _bad(f"the attachment {_shown(sha)} is not named by a sha256")
        if not isinstance(entry, dict) or not isinstance(entry.get("mime", ""), str):
            raise _bad(f"attachment {sha[:12]} is not an object with a mime type")
        if entry.get("data") is None:
            referenced.add(sha)
            continue
        if not isinstance(entry["data"], str):
            raise _bad(f"attachment {sha[:12]} is not valid base64")
        try:
            data = base64.b64decode(entry["data"], validate=True)
        except (binascii.Error, ValueError):
            raise _bad(f"attachment {sha[:12]} is not valid base64") from None
        if hashlib.sha256(data).hexdigest() != sha:
            raise _bad(f"attachment {sha[:12]} does not match its sha256 (the file was changed)")
        blobs[sha] = (str(entry.get("mime", "")), data)
    return blobs, referenced


# ---- the new session ----------------------------------------------------------------------------

def capped(mode: ApprovalMode) -> ApprovalMode:
    """``mode``, or :data:`APPROVAL_CAP` when ``mode`` lets tools do more without asking."""
    return mode if _PERMISSIVENESS.index(mode) <= _PERMISSIVENESS.index(APPROVAL_CAP) else APPROVAL_CAP


def imported_agent_mode(mode: AgentMode) -> AgentMode:
    """A plan waiting for confirmation comes in as ``plan``: confirming is the person's, about a plan
    their own model proposed, not one the file carries."""
    return AgentMode.PLAN if mode == AgentMode.AWAITING_CONFIRMATION else mode


def new_session(parsed: ParsedExport, connection: str, roster: tuple[str, ...], default_vp: str) -> Session:
    """The imported session's record: new id, top level, unbound (``write_import`` binds it to the
    folder the person chose, if any), permissions capped, runtime state fresh."""
    s = parsed.settings
    return Session(
        id=new_id("ses"), title=s.title, project_id=None, origin=f"import:{s.source_id}",
        connection=connection, model=s.model, reasoning_effort=s.reasoning_effort,
        approval_mode=capped(s.approval_mode), agent_mode=imported_agent_mode(s.agent_mode),
        workdir="", announcement=s.announcement, roster=roster, default_vp=default_vp,
        pinned=s.pinned, created_at=s.created_at, updated_at=s.updated_at)


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
