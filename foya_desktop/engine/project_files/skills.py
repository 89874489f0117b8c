"""Skills: folders holding a ``SKILL.md`` (the Agent Skills format of Claude Code and Codex).

Only the frontmatter's ``name`` and ``description`` go into every request;
the body is read when a VP calls the ``skill`` tool. Skills come from the
data folder's ``skills/`` (user level) and from ``.agents/skills/`` and
``.claude/skills/`` in each project folder from the root down to the
workdir; a deeper skill of the same name replaces a higher one.

Discovery and ``SKILL.md`` are read confined (``tools.confined_read``): a
project's skills folder, skill folder or ``SKILL.md`` that leads out of the
project is refused and reported. What the ``skill`` tool reads is confined to
the skill's own folder (:attr:`Skill.folder`, a real path).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.frontmatter import FrontmatterError, as_text, parse_document
from foya_desktop.engine.project_files.locations import USER_SKILLS, Locations
from foya_desktop.engine.project_files.problems import Problem, why_unusable
from foya_desktop.tools.confined_read import OWN, Confinement, Refused, check_folder, read_text

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
    folder: Path
    """The skill's folder, symlinks resolved: all the ``skill`` tool may read from."""
    confinement: Confinement
    """How its ``SKILL.md`` is read (the project's, or the person's own for user-level skills)."""


def skill_folders(where: Locations) -> list[tuple[Path, Literal["user", "project"]]]:
    """Folders whose subfolders are skills, most general first."""
    out: list[tuple[Path, Literal["user", "project"]]] = [(where.user / USER_SKILLS, "user")]
    out += [(folder / d, "project") for folder in where.folders for d in SKILL_DIRS]
    return out


def load_skills(where: Locations, cache: TextCache) -> tuple[list[Skill], list[Problem]]:
    """Every readable skill by name (deeper wins) and a problem per broken or refused file."""
    found: dict[str, Skill] = {}
    problems: list[Problem] = []
    for base, scope in skill_folders(where):
        confinement = OWN if scope == "user" else where.project
        for path, folder in _candidates(base, confinement, problems):
            try:
                skill = read_skill(path, scope, cache, folder, confinement)
            except (FrontmatterError, OSError, UnicodeError) as exc:
                problems.append(Problem("skill", str(path), why_unusable(exc)))
                continue
            found[skill.name.casefold()] = skill
    return sorted(found.values(), key=lambda s: s.name.casefold()), problems


def _candidates(base: Path, confinement: Confinement, problems: list[Problem]) -> list[tuple[Path, Path]]:
    """(``SKILL.md``, the skill's real folder) under ``base``; refused folders become problems."""
    try:
        real_base = check_folder(base, confinement)
        names = sorted(os.listdir(real_base)) if real_base is not None else []
    except OSError as exc:
        problems.append(Problem("skill", str(base), why_unusable(exc)))
        return []
    out: list[tuple[Path, Path]] = []
    for name in names:
        if real_base is None or not os.path.lexists(real_base / name / SKILL_FILE):
            continue
        try:
            folder = check_folder(base / name, confinement)
        except Refused as exc:
            problems.append(Problem("skill", str(base / name), str(exc)))
            continue
        if folder is not None:
            out.append((base / name / SKILL_FILE, folder))
    return out


def read_skill(path: Path, scope: Literal["user", "project"], cache: TextCache, folder: Path,
               confinement: Confinement) -> Skill:
    """The skill's header; ``FrontmatterError`` when it has none usable, ``Refused`` when confined out."""
    text = cache.read(path, confinement) or ""
    doc = parse_document(text)
    if not doc.has_frontmatter:
        raise FrontmatterError("it has no frontmatter (a --- block with name and description)")
    name = as_text(doc.fields.get("name")).strip() or path.parent.name
    description = " ".join(as_text(doc.fields.get("description")).split())
    if not description:
        raise FrontmatterError("the frontmatter has no description (the model needs it to know "
                               "when to use the skill)")
    return Skill(name, description[:DESCRIPTION_CHARS], str(path), scope, folder, confinement)


def skill_body(skill: Skill) -> str:
    """The instructions after the frontmatter, read now (the file may have changed since listing),
    under the same confinement as when it was listed."""
    return parse_document(read_text(Path(skill.path), skill.confinement)).body
