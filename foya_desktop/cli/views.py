"""Plain-text and JSON renderings of sessions for the command line."""

from __future__ import annotations

import json
from datetime import datetime

from foya_desktop.core.messages import Message, ReasoningPart, TextPart, ToolCallPart, ToolResultPart
from foya_desktop.core.model import Session
from foya_desktop.engine.kernel import Kernel


def session_json(s: Session) -> dict[str, object]:
    """The fields a script needs."""
    return {"id": s.id, "title": s.title, "project_id": s.project_id, "parent_id": s.parent_id,
            "workdir": s.workdir, "connection": s.connection, "model": s.model,
            "approval_mode": str(s.approval_mode), "roster": list(s.roster),
            "default_vp": s.default_vp, "pinned": s.pinned, "phase": str(s.phase),
            "created_at": s.created_at, "updated_at": s.updated_at}


def sessions_table(sessions: list[Session], *, as_json: bool, interrupted: set[str] | None = None) -> str:
    """One line per session, or a JSON array; ``interrupted``: sessions whose last turn was."""
    stopped = interrupted or set()
    if as_json:
        return json.dumps([{**session_json(s), "last_turn_interrupted": s.id in stopped} for s in sessions],
                          ensure_ascii=False, indent=1)
    if not sessions:
        return "No sessions yet. Start one with: foya run \"hello\""
    lines = []
    for s in sessions:
        when = datetime.fromtimestamp(s.updated_at / 1000).strftime("%Y-%m-%d %H:%M")
        pin = "📌 " if s.pinned else ""
        note = "  (last turn interrupted)" if s.id in stopped else ""
        lines.append(f"{s.id}  {when}  {pin}{s.title}  [{s.workdir or 'no folder'}]{note}")
    return "\n".join(lines)


def message_json(m: Message) -> dict[str, object]:
    """A message with its speaker and parts."""
    from foya_desktop.core.messages import part_to_json
    return {"id": m.id, "seq": m.seq, "role": m.role, "speaker": m.speaker, "status": str(m.status),
            "turn_id": m.turn_id, "created_at": m.created_at,
            "parts": [part_to_json(p) for p in m.parts]}


async def show_session(kernel: Kernel, session_id: str, *, as_json: bool) -> str:
    """The session's valid history with speakers."""
    session = await kernel.sessions.get_session(session_id)
    messages = await kernel.history.messages(session_id)
    if as_json:
        return json.dumps({"session": session_json(session),
                           "messages": [message_json(m) for m in messages]},
                          ensure_ascii=False, indent=1)
    names = {vp.id: vp.name for vp in await kernel.vps.list_vps()}
    out = [f"# {session.title}  ({session.id})", f"folder: {session.workdir or '-'}", ""]
    for m in messages:
        out.extend(_render(m, names))
    return "\n".join(out)


def _render(m: Message, names: dict[str, str]) -> list[str]:
    who = "You" if m.role == "user" else names.get(m.speaker or "", m.speaker or "?")
    flag = "" if str(m.status) == "complete" else f"  [{m.status}]"
    lines: list[str] = []
    for p in m.parts:
        if isinstance(p, TextPart) and p.text:
            lines.append(f"[{who}]{flag} {p.text}")
        elif isinstance(p, ReasoningPart):
            lines.append(f"[{who} thinking] {p.text[:200]}")
        elif isinstance(p, ToolCallPart):
            lines.append(f"[{who}] → {p.name} {json.dumps(p.arguments, ensure_ascii=False)[:200]}")
        elif isinstance(p, ToolResultPart):
            mark = "✗" if p.is_error else "←"
            lines.append(f"[{who}] {mark} {p.name}: {p.content[:200]!r}")
    return lines or [f"[{who}]{flag} (no text)"]
