"""Skills: folders holding a ``SKILL.md`` (the Agent Skills format of Claude Code and Codex).

Only the frontmatter's ``name`` and ``description`` go into every request;
the body is read when a VP calls the ``skill`` tool. Skills come from the
data folder's ``skills/`` (user level) and from ``.agents/skills/`` and
``.claude/skills/`` in each project folder from the root down to the
workdir; a deeper skill of the same name replaces a higher one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.frontmatter import FrontmatterError, as_text, parse_document
from foya_desktop.engine.project_files.locations import USER_SKILLS, Locations
from foya_desktop.engine.project_files.problems import Problem

SKILL_DIRS = (".agents/skills", ".claude/skills")
SKILL_FILE = "SKILL.md"
DESCRIPTION_CHARS = 1_024
"""The Agent Skills limit for a description; longer ones are cut in the listing."""


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill that loaded."""

    name: str
    description: str
    path: str
    """Its ``SKILL.md``."""
    scope: Literal["user", "project"]

    @property
    def folder(self) -> Path:
        """The skill's folder (what the ``skill`` tool may read from)."""
        return Path(self.path).parent


def skill_folders(where: Locations) -> list[tuple[Path, Literal["user", "project"]]]:
    """Folders whose subfolders are skills, most general first."""
    out: list[tuple[Path, Literal["user", "project"]]] = [(where.user / USER_SKILLS, "user")]
    out += [(folder / d, "project") for folder in where.folders for d in SKILL_DIRS]
    return out


def load_skills(where: Locations, cache: TextCache) -> tuple[list[Skill], list[Problem]]:
    """Every readable skill by name (deeper wins) and a problem per broken ``SKILL.md``."""
    found: dict[str, Skill] = {}
    problems: list[Problem] = []
    for base, scope in skill_folders(where):
        if not base.is_dir():
            continue
        for entry in sorted(base.iterdir()):
            path = entry / SKILL_FILE
            if not path.is_file():
                continue
            try:
                skill = read_skill(path, scope, cache)
            except (FrontmatterError, OSError, UnicodeError) as exc:
                problems.append(Problem("skill", str(path), _reason(exc)))
                continue
            found[skill.name.casefold()] = skill
    return sorted(found.values(), key=lambda s: s.name.casefold()), problems


def read_skill(path: Path, scope: Literal["user", "project"], cache: TextCache) -> Skill:
    """The skill's header; ``FrontmatterError`` when it has none usable."""
    text = cache.read(path) or ""
    doc = parse_document(text)
    if not doc.has_frontmatter:
        raise FrontmatterError("it has no frontmatter (a --- block with name and description)")
    name = as_text(doc.fields.get("name")).strip() or path.parent.name
    description = " ".join(as_text(doc.fields.get("description")).split())
    if not description:
        raise FrontmatterError("the frontmatter has no description (the model needs it to know "
                               "when to use the skill)")
    return Skill(name, description[:DESCRIPTION_CHARS], str(path), scope)


def skill_body(skill: Skill) -> str:
    """The instructions after the frontmatter, read now (the file may have changed since listing)."""
    return parse_document(Path(skill.path).read_text(encoding="utf-8")).body


def _reason(exc: BaseException) -> str:
    if isinstance(exc, UnicodeError):
        return "it is not UTF-8 text"
    return str(exc) if isinstance(exc, FrontmatterError) else f"it cannot be read ({exc})"
