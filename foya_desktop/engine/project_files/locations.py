"""Where project files are looked for: the folders from the project root down to the workdir.

Every kind of file (rules, skills, agent definitions) walks the same folders
in the same order, most general first, so a deeper file can refine a higher
one (Codex and Claude Code read ``AGENTS.md``/``CLAUDE.md`` this way).

The walk's top folder is also the confinement of every project file
(:attr:`Locations.project`): no file found on the walk is read through a link
that leaves it (``tools.confined_read``). The data folder's files are the
person's own (:data:`~foya_desktop.tools.confined_read.OWN`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from foya_desktop.tools.confined_read import Confinement
from foya_desktop.tools.paths import broad_project_kind

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

    @property
    def project(self) -> Confinement:
        """How the files found in :attr:`folders` are read: inside the first (top) folder, never
        through Foya's data folder (``IndexError`` without folders: there are no project files)."""
        return Confinement(self.folders[0], self.user)


def locations(data_dir: Path, root: str, workdir: str) -> Locations:
    """The folders for a session bound to ``root`` (may be empty) working in ``workdir``.

    When the project folder lies inside a git repository, the walk starts at the
    repository's top (Codex reads ``AGENTS.md`` from the git root down to the working
    folder; a project registered at ``repo/service`` still gets ``repo/AGENTS.md``).
    """
    top = root or workdir
    return Locations(data_dir, tuple(folders_down(str(git_top(Path(top), data_dir)) if top else "",
                                                  workdir)))


def git_top(folder: Path, data_dir: Path) -> Path:
    """The nearest folder at or above ``folder`` holding ``.git``; ``folder`` itself when none.

    The search stops below a broad folder (``paths.broad_project_kind``: ``/``, the home folder,
    a folder around it or around the data folder): a dotfiles repository in the home folder
    must not make the whole home folder the project whose files are read and confined to.
    """
    start = folder.expanduser().resolve()
    for candidate in (start, *start.parents):
        if candidate != start and broad_project_kind(candidate, data_dir) is not None:
            break
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
