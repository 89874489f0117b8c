"""Validating a change of session settings before it is stored.

One place for the rules, so the window, the settings dialog and
``foya sessions set`` refuse in the same words. Nothing here is cached: the
runner reads the stored settings again before every model request and every
tool call, which is what makes a change apply at the very next call (Foya
seed F22-F23), also when it comes from another process.
"""

from __future__ import annotations

from typing import Any

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.model import AgentMode, ApprovalMode, Session
from foya_desktop.engine.agents.vps import check_roster
from foya_desktop.store.catalog import get_connection, list_connections
from foya_desktop.store.store import Store

UPDATABLE = {"title", "connection", "model", "reasoning_effort", "approval_mode", "agent_mode",
             "announcement", "pinned", "sort_order", "roster", "default_vp"}
"""Fields a client may change; phase, project binding and ids are the kernel's."""

EFFORTS = ("minimal", "low", "medium", "high")
"""Reasoning efforts Foya passes on (``""`` means the model's default)."""

_CLEAR = {"", "default", "none"}
TITLE_LIMIT = 200
ANNOUNCEMENT_LIMIT = 4000


async def validated(store: Store, session: Session, changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` normalised, or ``InvalidOperation`` with a sentence saying what is wrong."""
    bad = set(changes) - UPDATABLE
    if bad:
        raise InvalidOperation(f"Cannot change {', '.join(sorted(bad))} of a session.")
    out = dict(changes)
    if "title" in out:
        out["title"] = _title(str(out["title"]))
    if "announcement" in out:
        out["announcement"] = _bounded("announcement", str(out["announcement"]), ANNOUNCEMENT_LIMIT)
    if "connection" in out:
        out["connection"] = await _connection(store, str(out["connection"]))
    if "model" in out:
        out["model"] = _bounded("model name", str(out["model"]).strip(), 200)
    if "reasoning_effort" in out:
        out["reasoning_effort"] = effort(str(out["reasoning_effort"]))
    if "approval_mode" in out:
        out["approval_mode"] = _choice(ApprovalMode, out["approval_mode"], "approval mode")
    if "agent_mode" in out:
        out["agent_mode"] = _choice(AgentMode, out["agent_mode"], "agent mode")
    if "pinned" in out:
        out["pinned"] = bool(out["pinned"])
    if "roster" in out or "default_vp" in out:
        roster = tuple(out.get("roster", session.roster))
        keep = session.default_vp if session.default_vp in roster else None
        out["roster"], out["default_vp"] = await check_roster(store, roster, out.get("default_vp", keep))
    return out


def effort(value: str) -> str:
    """A reasoning effort: one of :data:`EFFORTS`, or ``""`` for the model's default."""
    text = value.strip().lower()
    if text in _CLEAR:
        return ""
    if text not in EFFORTS:
        raise InvalidOperation(f"Unknown reasoning effort {value!r}: use {', '.join(EFFORTS)} "
                               "or 'default'.")
    return text


def _title(value: str) -> str:
    text = value.strip()
    if not text:
        raise InvalidOperation("A session title cannot be empty.")
    return _bounded("title", text, TITLE_LIMIT)


def _bounded(what: str, value: str, limit: int) -> str:
    if len(value) > limit:
        raise InvalidOperation(f"The {what} is {len(value)} characters long; at most {limit} are allowed.")
    return value


async def _connection(store: Store, name: str) -> str:
    name = name.strip()
    if not name:
        return ""
    try:
        await store.read(get_connection, name)
    except NotFound:
        known = ", ".join(c.name for c in await store.read(list_connections)) or "none yet"
        raise InvalidOperation(f"No connection named {name!r} (configured: {known}). "
                               f"Add one with: foya connections add {name} ...") from None
    return name


def _choice(kind: type[ApprovalMode] | type[AgentMode], value: object, what: str) -> Any:
    try:
        return kind(str(value))
    except ValueError:
        options = ", ".join(m.value for m in kind)
        raise InvalidOperation(f"Unknown {what} {value!r}: use one of {options}.") from None
