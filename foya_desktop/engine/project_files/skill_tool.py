"""The ``skill`` tool: load a skill's instructions (or one file of its folder) when the VP uses it.

Read-only and allowed without asking: it reads only inside the folders of
the skills listed for this session (``Path.resolve`` + ``is_relative_to``,
so ``..`` and symlinks out of a skill folder are refused).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from foya_desktop.engine.project_files.catalog import SKILL_TOOL, ProjectContext
from foya_desktop.engine.project_files.frontmatter import FrontmatterError
from foya_desktop.engine.project_files.skills import Skill, skill_body
from foya_desktop.tools.base import Action, ToolContext, ToolOutput

Locate = Callable[[str], Awaitable[ProjectContext]]
"""Session id → its project files."""
MAX_LISTED = 50
MAX_FILE_CHARS = 100_000
SKILL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The skill's name as listed."},
        "file": {"type": "string", "description": "Optional: a path relative to the skill's folder."},
    },
    "required": ["name"],
    "additionalProperties": False,
}


class SkillTool:
    """Returns a skill's body and the files beside it."""

    name = SKILL_TOOL
    description = ("Load the instructions of one of the skills listed in the system prompt. Call it "
                   "before doing a task a skill describes. With 'file', read one file of the skill's "
                   "folder (scripts, references) that the instructions mention.")
    parameters = SKILL_SCHEMA

    def __init__(self, locate: Locate) -> None:
        self._locate = locate

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """A read of Foya-listed instructions: nothing to approve."""
        return Action(kind="other", summary=f"Load skill {args.get('name', '')}")

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """The body (or the named file); an error sentence for unknown skills and paths."""
        files = await self._locate(ctx.session_id)
        name = str(args.get("name", ""))
        skill = files.skill(name)
        if skill is None:
            known = ", ".join(s.name for s in files.skills) or "none"
            return ToolOutput(f"No skill named {name!r}. Skills available: {known}.", is_error=True)
        rel = str(args.get("file") or "").strip()
        try:
            if rel:
                return await asyncio.to_thread(_read_beside, skill, rel)
            return ToolOutput(await asyncio.to_thread(_with_listing, skill))
        except (OSError, UnicodeError, FrontmatterError) as exc:
            return ToolOutput(f"Could not read the skill {skill.name}: {exc}", is_error=True)


def _with_listing(skill: Skill) -> str:
    body = skill_body(skill)
    folder = skill.folder
    others = sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                    if p.is_file() and p.name != "SKILL.md")[:MAX_LISTED]
    listing = ("\n\nFiles in this skill's folder (read one with skill name=… file=…):\n"
               + "\n".join(f"- {o}" for o in others)) if others else ""
    return f"Skill {skill.name} ({skill.path}):\n\n{body}{listing}"


def _read_beside(skill: Skill, rel: str) -> ToolOutput:
    folder = skill.folder.resolve()
    target = (folder / rel).resolve()
    if not target.is_relative_to(folder):
        return ToolOutput(f"{rel} is outside the skill's folder; only files of the skill can be read.",
                          is_error=True)
    if not target.is_file():
        return ToolOutput(f"The skill {skill.name} has no file {rel}.", is_error=True)
    text = target.read_bytes()[:MAX_FILE_CHARS * 4].decode("utf-8", errors="replace")
    cut = "\n[… truncated]" if len(text) > MAX_FILE_CHARS else ""
    return ToolOutput(text[:MAX_FILE_CHARS] + cut)
