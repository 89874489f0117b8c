"""Path confinement: the ONE place that decides whether a path is inside the project.

Every file tool sends every path argument through :func:`resolve_inside` and
opens files through :func:`open_inside` (which re-checks and then opens
without following symlinks, see ``fdwalk``). Paths are never expanded: a
leading ``~`` or ``$VAR`` would mean something different to the model than to
us, so they are refused with a message saying so rather than taken literally.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from foya_desktop.core.errors import PathOutsideProject, ToolError
from foya_desktop.tools.fdwalk import open_dir_resolved, open_resolved
from foya_desktop.tools.repo_guard import would_be_repository
from foya_desktop.tools.sensitive import is_secret_looking

__all__ = [
    "BROAD_REASONS",
    "broad_project_kind",
    "broad_project_reason",
    "in_system_tree",
    "is_protected",
    "is_secret_looking",
    "open_dir_inside",
    "open_inside",
    "read_bytes_inside",
    "real_root",
    "relative_posix",
    "resolve_inside",
    "write_bytes_inside",
]

_SYSTEM_ROOTS = (Path("/proc"), Path("/dev"), Path("/sys"))
"""Kernel-provided trees: magic links (``/proc/self/root``) and devices are never project files."""

_VARIABLE = re.compile(r"(?:^|/)\$|\$[{(]")
"""``$NAME`` at the start of a component, ``${…}`` or ``$(…)`` anywhere (``Foo$Bar.class`` is fine)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _screen(path: str) -> None:
    """Refuse path strings that are unsafe or would be misread before touching the disk."""
    if not isinstance(path, str):
        raise ToolError(f"path must be a string, not {type(path).__name__}")
    if not path:
        raise ToolError("path is empty")
    if "\x00" in path:
        raise PathOutsideProject(f"path {path!r} contains a NUL byte")
    if _CONTROL.search(path):
        raise PathOutsideProject(f"path {path!r} contains control characters")
    if path.startswith("~"):
        raise PathOutsideProject(
            f"path {path!r} starts with '~'; home folders are outside the project and '~' is not expanded")
    if _VARIABLE.search(path):
        raise PathOutsideProject(
            f"path {path!r} uses shell variable syntax; variables are not expanded, give a literal path")


def in_system_tree(path: Path) -> bool:
    """Whether ``path`` lies in ``/proc``, ``/dev`` or ``/sys`` (pseudo-files, devices, magic links)."""
    return any(path == top or path.is_relative_to(top) for top in _SYSTEM_ROOTS)


def real_root(root: Path) -> Path:
    """The project root with symlinks resolved; it must be an existing folder."""
    real = Path(os.path.realpath(root))
    if not real.is_dir():
        raise ToolError(f"project folder {str(root)!r} does not exist")
    return real


def _refuse_loops(candidate: Path, shown: str) -> None:
    """``realpath`` quietly stops at symlink loops; ``stat`` reports them, so ask it."""
    try:
        os.stat(candidate)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PathOutsideProject(f"path {shown!r} runs into a symbolic link loop") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise ToolError(f"path {shown!r} is too long") from None


def _refuse_hardlinked(real: Path, shown: str) -> None:
    """A regular file with several names may also be named outside: never write through it."""
    try:
        st = os.lstat(real)
    except OSError:
        return
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        raise PathOutsideProject(
            f"{shown!r} has {st.st_nlink} hard links; writing it could change a file outside the project")


def resolve_inside(root: Path, path: str, *, for_write: bool = False) -> Path:
    """Resolve ``path`` (relative to ``root``, or absolute) and prove it stays inside ``root``.

    Symlinks are followed to their final target, which must be inside the root too;
    a new file is checked through the folders it would be created in. Returns the
    absolute, symlink-free path. Raises :class:`PathOutsideProject` otherwise.
    """
    _screen(path)
    root_real = real_root(root)
    candidate = Path(path) if os.path.isabs(path) else root_real / path
    if in_system_tree(Path(os.path.normpath(candidate))):
        raise PathOutsideProject(f"{path!r} is a system path (/proc, /dev, /sys), not a project file")
    _refuse_loops(candidate, path)
    real = Path(os.path.realpath(candidate))
    if in_system_tree(real) or not real.is_relative_to(root_real):
        raise PathOutsideProject(
            f"{path!r} resolves to {str(real)!r}, outside the project folder {str(root_real)!r}")
    if for_write:
        if real == root_real:
            raise ToolError("the project folder itself cannot be written as a file")
        _refuse_hardlinked(real, path)
    return real


def relative_posix(root: Path, resolved: Path) -> str:
    """``resolved`` relative to the real root, with ``/`` separators (``.`` for the root)."""
    rel = resolved.relative_to(real_root(root)).as_posix()
    return rel or "."


def is_protected(root: Path, resolved: Path, data_dir: Path | None) -> bool:
    """True for git internals and Foya's data folder.

    Git internals: any ``.git`` component below the root, and any folder laid
    out like a git directory (``HEAD`` with ``objects/`` and ``refs/``), counting
    ``resolved`` as present, so a write that would *complete* such a layout is
    refused too (``repo_guard``: git discovers those and obeys their config).
    They hold hooks and config that run code; the data folder holds the
    sessions database. No file tool reads or writes either.
    """
    if data_dir is not None:
        data_real = Path(os.path.realpath(data_dir))
        if resolved == data_real or resolved.is_relative_to(data_real):
            return True
    root_real = Path(os.path.realpath(root))
    if not resolved.is_relative_to(root_real):
        return False
    if any(part.casefold() == ".git" for part in resolved.relative_to(root_real).parts):
        return True
    folder = resolved
    while folder.is_relative_to(root_real):
        if would_be_repository(folder, resolved):
            return True
        if folder == root_real:
            break
        folder = folder.parent
    return False


def open_inside(root: Path, path: str, mode: str = "rb") -> BinaryIO:
    """Resolve, then open for ``"rb"``/``"wb"`` without following a swapped-in symlink."""
    resolved = resolve_inside(root, path, for_write=mode != "rb")
    return open_resolved(real_root(root), resolved, mode)


def read_bytes_inside(root: Path, path: str, limit: int | None = None) -> bytes:
    """Up to ``limit`` bytes (all when ``None``) of a file inside the root."""
    with open_inside(root, path, "rb") as fh:
        return fh.read() if limit is None else fh.read(limit)


def write_bytes_inside(root: Path, path: str, data: bytes) -> None:
    """Replace (or create) a file inside the root, creating parent folders inside it."""
    with open_inside(root, path, "wb") as fh:
        fh.write(data)


def open_dir_inside(root: Path, path: str) -> int:
    """A descriptor of a folder inside the root (the caller closes it)."""
    resolved = resolve_inside(root, path)
    with open_dir_resolved(real_root(root), resolved) as fd:
        return os.dup(fd)


BROAD_REASONS: dict[str, str] = {
    "root": "is the root of the file system",
    "home": "is your home folder",
    "contains_home": "contains your home folder",
    "contains_data": "contains Foya's data folder (the sessions database and the always-allow rules)",
}
"""Why a folder is too broad to be a project, by kind (the window words each kind itself)."""


def broad_project_kind(project: Path, data_dir: Path) -> str | None:
    """The kind of broad folder ``project`` is (a key of :data:`BROAD_REASONS`), or ``None``.

    The one rule: ``/``, the home folder, a folder around the home folder, or one
    that contains Foya's data folder. Everything inside a project is reachable by
    tools and commands, so such a project removes nearly all confinement and needs
    an explicit confirmation from the person (the kernel refuses it otherwise).
    """
    real = Path(os.path.realpath(project))
    home = Path(os.path.realpath(Path.home()))
    data = Path(os.path.realpath(data_dir))
    if real == Path("/"):
        return "root"
    if real == home:
        return "home"
    if home.is_relative_to(real):
        return "contains_home"
    if data.is_relative_to(real):
        return "contains_data"
    return None


def broad_project_reason(project: Path, data_dir: Path) -> str | None:
    """Why ``project`` is too broad to be a project (``/``, the home folder, around the data
    folder), in English, or ``None``. Such a project needs an explicit confirmation."""
    kind = broad_project_kind(project, data_dir)
    return None if kind is None else BROAD_REASONS[kind]
