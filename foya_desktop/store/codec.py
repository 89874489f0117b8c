"""Row ↔ domain conversions. JSON columns hold tuples and parts."""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any, cast

from foya_desktop.core.messages import Message, MessageStatus, Role, part_from_json, part_to_json
from foya_desktop.core.model import (
    VP,
    AgentMode,
    ApprovalMode,
    Connection,
    Phase,
    Project,
    ProviderKind,
    Session,
)
from foya_desktop.store.schema import ConnectionRow, MessageRow, ProjectRow, SessionRow, VPRow


def _json_text_function() -> Callable[[Any], str]:
    """``json.dumps(value)`` with its default arguments, built once.

    Why: ``json.dumps`` builds a new C encoder on every call, which costs ten times the encoding of
    a small message's parts — a real share of a single-message append (issue 14: append vs raw
    ``sqlite3``). The one encoder made here gives the same text (``tests/store/test_append_sql.py``);
    it skips only the circular-reference check, and stored values are JSON data, never circular.
    Where the C accelerator is missing, this is ``json.dumps`` itself.
    """
    make = getattr(json.encoder, "c_make_encoder", None)  # the C accelerator (private, not in typeshed)
    if make is None:  # pragma: no cover - CPython always has it
        return json.dumps

    def refuse(value: object) -> object:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    encode = make(None, refuse, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True)

    def json_text(value: Any) -> str:
        if isinstance(value, str):
            return json.encoder.encode_basestring_ascii(value)
        return "".join(encode(value, 0))
    return json_text


json_text: Callable[[Any], str] = _json_text_function()
"""``json.dumps(value)``'s exact text, faster (see ``_json_text_function``)."""

SESSION_FIELDS = (
    "title", "connection", "model", "reasoning_effort", "approval_mode", "agent_mode", "workdir",
    "announcement", "roster", "default_vp", "pinned", "sort_order", "parent_id", "origin",
)


def session_from_row(row: SessionRow) -> Session:
    """Build the domain record from a row."""
    return Session(
        id=row.id, title=row.title, project_id=row.project_id, parent_id=row.parent_id,
        origin=row.origin, connection=row.connection, model=row.model,
        reasoning_effort=row.reasoning_effort, approval_mode=ApprovalMode(row.approval_mode),
        agent_mode=AgentMode(row.agent_mode), workdir=row.workdir, announcement=row.announcement,
        roster=tuple(json.loads(row.roster)), default_vp=row.default_vp, pinned=bool(row.pinned),
        sort_order=row.sort_order, phase=Phase(row.phase), created_at=row.created_at,
        updated_at=row.updated_at, child_snapshot=json.loads(row.child_snapshot),
    )


def session_columns(session: Session) -> dict[str, Any]:
    """Column values for inserting a session row."""
    return {
        "id": session.id, "title": session.title, "project": session.project_id,
        "parent_id": session.parent_id, "origin": session.origin,
        "connection": session.connection, "model": session.model,
        "reasoning_effort": session.reasoning_effort,
        "approval_mode": str(session.approval_mode), "agent_mode": str(session.agent_mode),
        "workdir": session.workdir, "announcement": session.announcement,
        "roster": json.dumps(list(session.roster)), "default_vp": session.default_vp,
        "pinned": session.pinned, "sort_order": session.sort_order, "phase": str(session.phase),
        "child_snapshot": json.dumps(session.child_snapshot),
        "created_at": session.created_at, "updated_at": session.updated_at,
    }


def change_columns(changes: dict[str, Any]) -> dict[str, Any]:
    """Column values for a metadata update (tuples → JSON, enums → text)."""
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in SESSION_FIELDS:
            raise ValueError(f"not an updatable session field: {key}")
        out[key] = json.dumps(list(value)) if key == "roster" else (
            str(value) if key in ("approval_mode", "agent_mode") else value)
    return out


def message_payload(message: Message) -> dict[str, Any]:
    """The JSON form stored in events and projection rows."""
    return {
        "id": message.id, "role": message.role, "speaker": message.speaker,
        "parts": [part_to_json(p) for p in message.parts], "status": str(message.status),
        "turn_id": message.turn_id, "created_at": message.created_at, "meta": message.meta,
    }


def message_from_payload(session_id: str, seq: int, data: dict[str, Any]) -> Message:
    """Inverse of :func:`message_payload`."""
    return Message(
        id=data["id"], session_id=session_id, role=data["role"], speaker=data["speaker"],
        parts=tuple(part_from_json(p) for p in data["parts"]),
        status=MessageStatus(data["status"]), turn_id=data["turn_id"],
        created_at=data["created_at"], seq=seq, meta=dict(data.get("meta") or {}),
    )


def message_from_row(row: MessageRow) -> Message:
    """Build a message from its projection row."""
    return Message(
        id=row.id, session_id=row.session_id, role=_role(row.role), speaker=row.speaker,
        parts=tuple(part_from_json(p) for p in json.loads(row.parts)),
        status=MessageStatus(row.status), turn_id=row.turn_id, created_at=row.created_at,
        seq=row.seq, meta=json.loads(row.meta),
    )


def _role(value: str) -> Role:
    if value not in ("user", "assistant", "tool"):
        raise ValueError(f"unknown message role {value!r}")
    return cast(Role, value)


def project_from_row(row: ProjectRow) -> Project:
    """Build a project record."""
    return Project(id=row.id, name=row.name, path=row.path, instruction=row.instruction,
                   sort_order=row.sort_order, created_at=row.created_at,
                   scoped_recall=bool(row.scoped_recall))


def vp_from_row(row: VPRow) -> VP:
    """Build a VP record."""
    return VP(id=row.id, name=row.name, display_name=row.display_name, soul=row.soul,
              model_hint=row.model_hint, tools=tuple(json.loads(row.tools)),
              max_steps=row.max_steps, builtin=bool(row.builtin), color=row.color)


def connection_from_row(row: ConnectionRow) -> Connection:
    """Build a connection record (no key: keys live in the keyring)."""
    return Connection(name=row.name, kind=ProviderKind(row.kind), base_url=row.base_url,
                      model=row.model, api_key_env=row.api_key_env,
                      context_window=row.context_window)
