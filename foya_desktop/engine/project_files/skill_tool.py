"""The ``skill`` tool: load a skill's instructions (or one file of its folder) when the VP uses it.

Read-only and allowed without asking: it reads only inside the folder of a
skill listed for this session, through the file tools' confinement with that
folder as the root (``tools.confined_read``): ``..``, absolute paths, links
leaving the folder, hard links, pseudo-files, secret-looking names and files
over the size cap are refused. That holds for user-level skills too: the model
names the file, and skills are often copied in from elsewhere. The listing
walks the folder without following links and shows names only.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from foya_desktop.engine.project_files.catalog import SKILL_TOOL, ProjectContext
from foya_desktop.engine.project_files.frontmatter import FrontmatterError
from foya_desktop.engine.project_files.skills import SKILL_FILE, Skill, skill_body
from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.confined_read import Confinement, Refused, read_bytes

Locate = Callable[[str], Awaitable[ProjectContext]]
"""Session id → its project files."""
MAX_LISTED = 50
MAX_WALKED = 2_000
"""Entries looked at for the listing (a skill folder is small; a huge one is listed in part)."""
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
    others = _listing(skill.folder)
    listing = ("\n\nFiles in this skill's folder (read one with skill name=… file=…):\n"
               + "\n".join(f"- {o}" for o in others)) if others else ""
    return f"Skill {skill.name} ({skill.path}):\n\n{body}{listing}"


def _listing(folder: Path) -> list[str]:
    """Up to :data:`MAX_LISTED` file names below ``folder``, never following a symlinked folder."""
    found: list[str] = []
    walked = 0
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        walked += len(dirs) + len(files)
        found += [Path(top, f).relative_to(folder).as_posix() for f in sorted(files)
                  if not (top == str(folder) and f == SKILL_FILE)]
        if walked > MAX_WALKED:
            break
    return sorted(found)[:MAX_LISTED]


def _read_beside(skill: Skill, rel: str) -> ToolOutput:
    where = Confinement(skill.folder, skill.confinement.data_dir, "the skill's folder")
    try:
        data = read_bytes(rel, where)
    except FileNotFoundError:
        return ToolOutput(f"The skill {skill.name} has no file {rel}.", is_error=True)
    except Refused as exc:
        return ToolOutput(f"{rel} of the skill {skill.name} was not read ({exc}); only the skill's own "
                          "files can be read.", is_error=True)
    text = data[:MAX_FILE_CHARS * 4].decode("utf-8", errors="replace")
    cut = "\n[… truncated]" if len(text) > MAX_FILE_CHARS else ""
    return ToolOutput(text[:MAX_FILE_CHARS] + cut)
