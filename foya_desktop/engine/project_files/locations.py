"""Where project files are looked for: the folders from the project root down to the workdir.

Every kind of file (rules, skills, agent definitions) walks the same folders
in the same order, most general first, so a deeper file can refine a higher
one (Codex and Claude Code read ``AGENTS.md``/``CLAUDE.md`` this way).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

USER_RULES = "AGENTS.md"
"""The user-level rules file, in the data folder (applies to every session)."""
USER_SKILLS = "skills"
"""User-level skills: ``<data folder>/skills/<name>/SKILL.md``."""
USER_AGENTS = "agents"
"""User-level agent definitions: ``<data folder>/agents/*.md``."""


@dataclass(frozen=True, slots=True)
class Locations:
    """The folders one session's project files come from."""

    user: Path
    """The data folder (user level)."""
    folders: tuple[Path, ...]
    """Project root first, then each folder down to the workdir (empty without a folder)."""


def locations(data_dir: Path, root: str, workdir: str) -> Locations:
    """The folders for a session bound to ``root`` (may be empty) working in ``workdir``.

    When the project folder lies inside a git repository, the walk starts at the
    repository's top (Codex reads ``AGENTS.md`` from the git root down to the working
    folder; a project registered at ``repo/service`` still gets ``repo/AGENTS.md``).
    """
    top = root or workdir
    return Locations(data_dir, tuple(folders_down(str(git_top(Path(top))) if top else "", workdir)))


def git_top(folder: Path) -> Path:
    """The nearest folder at or above ``folder`` holding ``.git``; ``folder`` itself when none."""
    start = folder.expanduser().resolve()
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


def folders_down(root: str, workdir: str) -> list[Path]:
    """``root`` and every folder below it down to ``workdir``; only ``workdir`` when outside ``root``."""
    if not workdir and not root:
        return []
    work = Path(workdir or root).expanduser().resolve()
    top = Path(root).expanduser().resolve() if root else work
    if top != work and not work.is_relative_to(top):
        return [work]
    chain = [work]
    while chain[-1] != top:
        chain.append(chain[-1].parent)
    return list(reversed(chain))
