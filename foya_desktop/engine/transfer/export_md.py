"""A session as Markdown to read: who said what, tool calls and results folded in ``<details>``.

GitHub, GitLab and most Markdown viewers fold ``<details>`` blocks, so a long
tool output does not bury the conversation. Code fences are made longer
than any backtick run inside them, so file contents cannot break out.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from foya_desktop.core.messages import (
    ImagePart,
    Message,
    ReasoningPart,
    TextPart,
    ToolCallPart,
    ToolResultPart,
)
from foya_desktop.core.model import VP, Project, Session
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING

_TICKS = re.compile(r"`{3,}")


def export_markdown(session: Session, project: Project | None, roster: list[VP],
                    messages: list[Message]) -> str:
    """The whole valid history as one Markdown document."""
    names = {v.id: v.display_name or v.name for v in roster}
    lines = [f"# {session.title}", "",
             f"> Exported from Foya Desktop on {_when(None)} · session `{session.id}`"
             + (f" · project {project.name} (`{project.path}`)" if project else "")
             + f" · VPs: {', '.join(f'@{v.name}' for v in roster)}", ">",
             f"> **Warning:** {EXPORT_WARNING}", ""]
    if session.announcement.strip():
        lines += ["**Announcement:** " + session.announcement.strip(), ""]
    for m in messages:
        lines += _message(m, names)
    return "\n".join(lines).rstrip() + "\n"


def _message(m: Message, names: dict[str, str]) -> list[str]:
    if m.role == "tool":
        return [*(_result(p) for p in m.parts if isinstance(p, ToolResultPart)), ""]
    who = "You" if m.role == "user" else names.get(m.speaker or "", m.speaker or "assistant")
    status = "" if m.status == "complete" else f" *({m.status})*"
    out = [f"### {who} · {_when(m.created_at)}{status}", ""]
    for p in m.parts:
        if isinstance(p, TextPart) and p.text.strip():
            out += [p.text.rstrip(), ""]
        elif isinstance(p, ReasoningPart) and p.text.strip():
            out += [_details("Reasoning", p.text, ""), ""]
        elif isinstance(p, ToolCallPart):
            args = json.dumps(p.arguments, ensure_ascii=False, indent=1)
            out += [_details(f"Tool call: <code>{p.name}</code> ({p.state})", args, "json"), ""]
        elif isinstance(p, ImagePart):
            out += [f"*[image {p.name or p.artifact[:12]} · {p.mime} · sha256 {p.artifact[:12]}…]*", ""]
    return out


def _result(p: ToolResultPart) -> str:
    label = f"Result of <code>{p.name}</code>" + (" (error)" if p.is_error else "") + \
        f" · {len(p.content):,} characters" + (f" · {len(p.images)} image(s)" if p.images else "")
    return _details(label, p.content, "")


def _details(summary: str, body: str, lang: str) -> str:
    fence = "`" * max(3, 1 + max((len(t) for t in _TICKS.findall(body)), default=0))
    return f"<details><summary>{summary}</summary>\n\n{fence}{lang}\n{body.rstrip()}\n{fence}\n\n</details>"


def _when(ms: int | None) -> str:
    moment = datetime.now(UTC) if ms is None else datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")
