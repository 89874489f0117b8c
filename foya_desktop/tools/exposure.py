"""What in a project a confined command must not change or read, found by one bounded walk.

- ``.git`` folders and ``.git`` files (the project's and nested repositories'),
  and folders laid out like a bare repository: read-only, so no command plants
  hooks or config that git runs later (new ones are quarantined by the sandbox
  wrapper when the command ends, see ``repo_guard``).
- secret-looking files (``.env``, keys…): hidden, so no encoding, glob or
  interpreter trick gets their bytes out; reading one needs the person.
- regular files with more than one hard link: hidden, since another name
  may lie outside the project. Package-manager folders (``node_modules``,
  virtual environments with ``pyvenv.cfg``) are not walked: their hard links
  point into the package caches, which confined commands may read anyway.
- Foya's data folder and a git credential store in the home folder: hidden.

The walk stops at ``MAX_ENTRIES``; a project larger than that cannot be
checked, and :func:`scan` says so (the command then asks).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from foya_desktop.tools import repo_guard
from foya_desktop.tools.sensitive import is_secret_looking

MAX_ENTRIES = 100_000
MAX_HIDDEN = 5_000
_NOT_WALKED = frozenset({"node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox", ".mypy_cache",
                         ".pytest_cache", ".ruff_cache", ".cache"})
HOME_SECRETS = (".config/git/credentials", ".git-credentials")


@dataclass(slots=True)
class Exposure:
    """The result of a scan: places to keep read-only, places to hide, and a reason if incomplete."""

    read_only: list[Path] = field(default_factory=list)
    hidden: list[Path] = field(default_factory=list)
    incomplete: str | None = None


def _skip_folder(path: str, name: str) -> bool:
    return name in _NOT_WALKED or os.path.exists(os.path.join(path, name, "pyvenv.cfg"))


def scan(root: Path, data_dir: Path | None) -> Exposure:
    """Walk ``root`` (never following symlinks) and collect what confinement must protect."""
    out = Exposure()
    root = Path(os.path.realpath(root))
    if data_dir is not None:
        data = Path(os.path.realpath(data_dir))
        if not root.is_relative_to(data):
            out.hidden.append(data)
    home = Path.home()
    out.hidden += [home / p for p in HOME_SECRETS if (home / p).is_file()]
    seen = 0
    for folder in repo_guard.walk(root, lambda path, entry: not _skip_folder(path, entry.name)):
        if folder.repository:
            out.read_only.append(Path(folder.path))  # a bare-repository layout: git internals
            continue
        for entry in folder.entries:
            seen += 1
            if seen > MAX_ENTRIES:
                out.incomplete = f"the project has more than {MAX_ENTRIES} files to check"
                return out
            _visit(entry, out)
        if len(out.hidden) > MAX_HIDDEN:
            out.incomplete = f"the project has more than {MAX_HIDDEN} secret-looking or hard-linked files"
            return out
    return out


def _visit(entry: os.DirEntry[str], out: Exposure) -> None:
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return
    path = Path(entry.path)
    if entry.name.casefold() == ".git":
        out.read_only.append(path)
        return
    if not stat.S_ISREG(st.st_mode):  # folders are walked by repo_guard.walk
        return
    if is_secret_looking(path) or st.st_nlink > 1:
        out.hidden.append(path)
