"""Git repositories: how to recognise one on disk, and quarantining those a confined command made.

Git obeys a repository's own ``config`` (``core.fsmonitor``, hooks, pagers…) and
*discovers* repositories: from any folder it looks for a ``.git`` entry (a
folder, or a file saying ``gitdir: …``), and it takes a folder laid out like a
bare repository (``HEAD`` with ``objects/`` and ``refs/``, or ``HEAD`` with a
``commondir`` file) as one. So a confined command (or a model writing files)
that creates either in the project plants config that the person's own git,
run later outside Foya, would obey.

Landlock and seccomp cannot refuse a name, so the rule is held in two places:

- file tools treat a repository layout like ``.git`` (``paths.is_protected``:
  nothing inside one, nor a write that would complete one, is allowed);
- the sandbox wrapper (``sandbox_exec``) lists every repository in the project
  before a confined command starts (keeping them read-only) and again after the
  whole PID namespace has ended; any repository that was not there before is
  quarantined — renamed so git never looks at it — and the command's output
  says so. Nothing planted survives silently.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_ENTRIES = 1_000_000
"""A bigger project cannot be checked; the wrapper then refuses to run the command confined."""
SUFFIX = ".quarantined-by-foya"


def layout(names: set[str], folders: set[str]) -> bool:
    """Whether a folder with these entries (``folders`` are its subfolders) is a git directory."""
    return "HEAD" in names and ({"objects", "refs"} <= folders or "commondir" in names)


def would_be_repository(folder: Path, written: Path) -> bool:
    """Whether ``folder`` is a git directory, counting ``written`` (about to be created) as there."""
    def present(name: str, *, folder_only: bool) -> bool:
        place = folder / name
        if written == place and not folder_only:
            return True
        if written.is_relative_to(place) and written != place:
            return True
        return place.is_dir() if folder_only else os.path.lexists(place)
    return present("HEAD", folder_only=False) and (
        (present("objects", folder_only=True) and present("refs", folder_only=True))
        or present("commondir", folder_only=False))


@dataclass(frozen=True, slots=True)
class Folder:
    """One folder met by :func:`walk`: its entries, and whether it is laid out like a git directory."""

    path: str
    entries: list[os.DirEntry[str]]
    repository: bool


def walk(root: Path,
         descend: Callable[[str, os.DirEntry[str]], bool] = lambda _f, _e: True) -> Iterator[Folder]:
    """Every folder below ``root``, depth first: the one walk both the exposure scan and the
    repository check use. Symlinks are never followed, unreadable folders are skipped, and nothing
    inside a git directory (a ``.git`` entry or a repository-layout folder) is entered; ``descend``
    may keep other subfolders out (package caches)."""
    stack = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        folders = {e.name for e in entries if e.is_dir(follow_symlinks=False)}
        repository = layout({e.name for e in entries}, folders)
        yield Folder(folder, entries, repository)
        if repository:
            continue
        stack.extend(e.path for e in entries
                     if e.name in folders and e.name.casefold() != ".git" and descend(folder, e))


def find_repositories(root: Path, limit: int = MAX_ENTRIES) -> tuple[list[Path], bool]:
    """Every ``.git`` entry and repository-layout folder below ``root`` (symlinks not followed,
    nothing below a repository), and whether the walk was complete."""
    found: list[Path] = []
    seen = 0
    for folder in walk(root):
        seen += len(folder.entries)
        if seen > limit:
            return found, False
        if folder.repository:
            found.append(Path(folder.path))
            continue
        found += [Path(e.path) for e in folder.entries if e.name.casefold() == ".git"]
    return found, True


def identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of a repository entry, so a moved one is still known and a new one at an
    old name is not."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _free(path: Path) -> Path:
    candidate = path.with_name(path.name + SUFFIX)
    n = 1
    while os.path.lexists(candidate):
        n += 1
        candidate = path.with_name(f"{path.name}{SUFFIX}-{n}")
    return candidate


def quarantine(path: Path) -> Path:
    """Make ``path`` no repository git would find: a ``.git`` entry is renamed (and the ``HEAD``
    inside it too), a repository-layout folder loses its ``HEAD`` (renamed). Returns the new name
    of what was renamed."""
    if path.name.casefold() == ".git":
        target = _free(path)
        os.rename(path, target)
        st = os.lstat(target)
        if stat.S_ISDIR(st.st_mode) and os.path.lexists(target / "HEAD"):
            os.rename(target / "HEAD", _free(target / "HEAD"))
        return target
    head = path / "HEAD"
    target = _free(head)
    os.rename(head, target)
    return target
