"""System prompts: the VP's soul plus the session's context."""

from __future__ import annotations

import datetime as dt

from foya_desktop.core.model import VP, Project, Session
from foya_desktop.engine.session.agent_mode import mode_prompt


def system_prompt(vp: VP, session: Session, roster: list[VP], project: Project | None,
                  project_files: str = "") -> str:
    """The system prompt for one VP's model steps in this session.

    ``project_files`` is the rules/skills/agents section (``engine.project_files.catalog``).
    """
    lines = [vp.soul.strip(), ""]
    lines.append(f"Your name in this session is {vp.name} ({vp.display_name}).")
    others = [v for v in roster if v.id != vp.id]
    if others:
        names = ", ".join(f"{v.name} ({v.display_name})" for v in others)
        lines.append(
            f"You share one timeline with other personas: {names}. Their replies appear as "
            "quoted notes. Writing @Name in your reply does not hand work to them: to hand a "
            "message to one of them, call the route_forward tool.")
    if session.workdir:
        lines.append(f"Working directory (all file tools and commands are confined to it): "
                     f"{session.workdir}")
    if project and project.instruction.strip():
        lines += ["", "Project instruction:", project.instruction.strip()]
    if project_files:
        lines += ["", project_files]
    if session.announcement.strip():
        lines += ["", "Session announcement:", session.announcement.strip()]
    if mode_prompt(session):
        lines += ["", mode_prompt(session)]
    lines += ["", f"Today is {dt.date.today().isoformat()}."]
    return "\n".join(lines)
