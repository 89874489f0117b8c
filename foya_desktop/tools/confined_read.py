"""Reading the files Foya loads by itself: rules, skills, agent files and ``.mcp.json``.

These files reach the model with no tool call and no approval, in every approval mode (a rules
file goes into every request's system prompt), so they are read under at least the file tools'
confinement, with the same functions (``paths.resolve_inside``, ``paths.is_protected``,
``sensitive.is_secret_looking``, ``fdwalk.open_resolved``), never a second set of rules:

- **Project files** (a :class:`Confinement` with a ``root``: the project's top folder, or one
  skill's folder for what the ``skill`` tool reads). Refused: a symbolic link (the file or a folder
  on its way) whose target leaves the root; anything in ``/proc``, ``/dev`` or ``/sys``; git
  internals and Foya's data folder; a target whose name looks like it holds secrets (the file
  tools ask before reading those, these reads ask nobody; only the secret scrubber reads them,
  ``secret_values``, for values it removes from tool output); anything but a regular file; a file with
  more than one hard link (another name of it may lie outside, and nothing here tells which);
  more than ``limit`` bytes. The open itself walks from the root without following any link
  (``fdwalk``), so a link swapped in after the check fails instead of being followed.
- **The person's own files** (``root`` is ``None``: ``AGENTS.md``, ``skills/``, ``agents/`` and
  ``mcp.json`` in Foya's data folder, and an agent file the person picks in the window). The person
  put them there — file tools and confined commands cannot write the data folder — and linking them
  from a dotfiles folder is common, so links may lead anywhere and hard links are accepted. What is
  reached must still be a regular file outside ``/proc``, ``/dev`` and ``/sys``, not secret-looking,
  within ``limit`` bytes, and it is opened without blocking (a FIFO never hangs a request). What the
  ``skill`` tool reads from a user-level skill is confined to that skill's folder like any project's:
  the model chooses those paths, and skills are often copied in from elsewhere.

Sizes are capped by the bytes actually read, not by ``st_size`` (pseudo-files report 0). A refusal
is a :class:`Refused` carrying a sentence for the person; callers report it as a problem (``foya
projects info``, the rules in effect) and go on with the other files.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from foya_desktop.core.errors import PathOutsideProject, ToolError
from foya_desktop.tools.fdwalk import open_resolved
from foya_desktop.tools.paths import (
    in_system_tree,
    is_protected,
    is_secret_looking,
    real_root,
    resolve_inside,
)

MAX_FILE_BYTES = 1_000_000
"""Larger files are not read at all (a rules file that big is a mistake, reported as such)."""

RefusalKind = Literal["outside", "system_file", "protected", "secret", "hard_link", "not_regular",
                      "too_large", "changed", "bad_name"]
_OWN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_NOFOLLOW | os.O_CLOEXEC

Signature = tuple[int, int, int, int, int]
"""(device, inode, size, mtime ns, ctime ns): a cached text stays valid while this is unchanged."""


REFUSED = "refused: "
"""How every refusal's sentence starts (so a list of problems can tell refusals apart)."""


class Refused(OSError):
    """A file Foya will not read; ``str()`` is the sentence for the person ("refused: …")."""

    def __init__(self, kind: RefusalKind, reason: str) -> None:
        super().__init__(REFUSED + reason)
        self.kind: RefusalKind = kind
        self.reason = reason

    def __str__(self) -> str:
        return REFUSED + self.reason


@dataclass(frozen=True, slots=True)
class Confinement:
    """Where a file Foya reads by itself may lead (see the module docstring for both kinds)."""

    root: Path | None
    """Files must stay inside this folder; ``None``: the person's own files."""
    data_dir: Path | None = None
    """Foya's data folder, never read through a project file."""
    label: str = "the project"
    """How the root is named in refusals ("the skill's folder")."""
    secret_values: bool = False
    """Secret-looking files may be read: only ``engine.permissions.secrets``, to learn the values
    it scrubs from tool output (the values never reach a request)."""


OWN = Confinement(None)
"""The person's own files (user level, or a file they picked)."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A file that passed the checks (by ``stat``, not yet opened)."""

    path: Path
    """Its real, symlink-free path."""
    signature: Signature


def check_file(path: Path | str, where: Confinement, *, limit: int = MAX_FILE_BYTES) -> Checked | None:
    """Check ``path`` without opening it: ``None`` when it does not exist, :class:`Refused` when it
    may not be read. ``path`` is absolute or relative to the root (``str``: as a model gave it).
    Cheap enough to run before every cache hit (a few ``lstat`` calls)."""
    if where.root is None:
        return _check_own(Path(path), limit)
    return _check_confined(path, where.root, where, limit)


def read_checked(checked: Checked, where: Confinement, *,
                 limit: int = MAX_FILE_BYTES) -> tuple[bytes, Signature]:
    """Open and read a checked file (re-checked on the open descriptor); its bytes and signature."""
    with _open_checked(checked, where) as fh:
        st = os.fstat(fh.fileno())
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise _too_large(max(st.st_size, len(data)), limit)
    return data, _signature(st)


def _open_checked(checked: Checked, where: Confinement) -> BinaryIO:
    if where.root is None:
        return os.fdopen(_open_own(checked), "rb")
    try:
        return open_resolved(real_root(where.root), checked.path, "rb")
    except ToolError as exc:
        if not os.path.lexists(checked.path):
            raise FileNotFoundError(errno.ENOENT, "no such file", str(checked.path)) from None
        raise Refused("changed", f"the file changed while Foya opened it ({exc})") from None


def read_bytes(path: Path | str, where: Confinement, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a file under ``where``; ``FileNotFoundError`` when missing, :class:`Refused`."""
    checked = check_file(path, where, limit=limit)
    if checked is None:
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    return read_checked(checked, where, limit=limit)[0]


def read_text(path: Path | str, where: Confinement, *, limit: int = MAX_FILE_BYTES) -> str:
    """:func:`read_bytes` decoded as UTF-8 (``UnicodeDecodeError`` otherwise)."""
    return read_bytes(path, where, limit=limit).decode("utf-8")


def check_folder(path: Path, where: Confinement) -> Path | None:
    """The real path of a folder to list (``None`` when it is no folder); :class:`Refused` when it
    leads out of the root. Listing reveals names only; every file is still read through
    :func:`check_file`."""
    if not os.path.lexists(path) or (where.root is not None and not os.path.isdir(where.root)):
        return None
    if where.root is None:
        real = Path(os.path.realpath(path))
        if in_system_tree(real):
            raise Refused("system_file", f"a link to {real}, a part of the system, not a folder of yours")
    else:
        real = _resolved(path, where.root, where)
    return real if real.is_dir() else None


def _check_confined(path: Path | str, root: Path, where: Confinement, limit: int) -> Checked | None:
    if not os.path.isdir(root):
        return None  # no project folder (any more): nothing in it to read
    real = _resolved(path, root, where)
    if not os.path.lexists(real):
        return None
    if is_protected(root, real, where.data_dir):
        raise Refused("protected", "it leads into git internals or Foya's data folder")
    if is_secret_looking(real) and not where.secret_values:
        raise Refused("secret", f"it leads to {real.name}, whose name suggests keys or credentials")
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return None  # a link to nothing inside the root: nothing to read
    if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
        raise Refused("hard_link", f"a hard link (the file has {st.st_nlink} names; another one may lie "
                                   f"outside {where.label})")
    return _regular(real, st, limit)


def _resolved(path: Path | str, root: Path, where: Confinement) -> Path:
    """``resolve_inside`` with its refusals turned into sentences about project files."""
    shown = _relative(path, root)
    try:
        return resolve_inside(root, shown)
    except PathOutsideProject:
        raise _outside(root, shown, where) from None
    except ToolError as exc:
        raise Refused("bad_name", str(exc)) from None


def _relative(path: Path | str, root: Path) -> str:
    """A discovered path relative to the root (the root's own name is never screened again);
    other paths as given."""
    if isinstance(path, Path) and path.is_absolute():
        for base in (root, Path(os.path.realpath(root))):
            if path.is_relative_to(base):
                return path.relative_to(base).as_posix() or "."
    return str(path)


def _outside(root: Path, shown: str, where: Confinement) -> Refused:
    root_real = Path(os.path.realpath(root))
    candidate = Path(shown) if os.path.isabs(shown) else root_real / shown
    try:
        os.stat(candidate)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Refused("outside", "a symbolic link loop")
    target = Path(os.path.realpath(candidate))
    if in_system_tree(target) or in_system_tree(Path(os.path.normpath(candidate))):
        return Refused("system_file", f"a link to {target}, a pseudo-file of the system, not a file "
                                      f"of {where.label}")
    if not Path(os.path.normpath(candidate)).is_relative_to(root_real):
        return Refused("outside", f"it lies outside {where.label}")
    return Refused("outside", f"a symbolic link leaving {where.label} (it leads to {target})")


def _check_own(path: Path, limit: int) -> Checked | None:
    if not os.path.lexists(path):
        return None
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused("outside", "a symbolic link loop") from None
        raise
    real = Path(os.path.realpath(path))
    if in_system_tree(real) or in_system_tree(Path(os.path.normpath(path))):
        raise Refused("system_file", f"a link to {real}, a pseudo-file of the system, not a file of yours")
    if is_secret_looking(real):
        raise Refused("secret", f"it leads to {real.name}, whose name suggests keys or credentials")
    return _regular(real, st, limit)


def _regular(real: Path, st: os.stat_result, limit: int) -> Checked:
    if not stat.S_ISREG(st.st_mode):
        raise Refused("not_regular", "not a regular file (a folder, device, pipe or socket)")
    if st.st_size > limit:
        raise _too_large(st.st_size, limit)
    return Checked(real, _signature(st))


def _open_own(checked: Checked) -> int:
    """Open the person's own file: no blocking, no last-moment link, and the file that was checked."""
    try:
        fd = os.open(checked.path, _OWN_FLAGS)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused("changed", "the file became a symbolic link while Foya opened it") from None
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != checked.signature[:2]:
        os.close(fd)
        raise Refused("changed", "the file changed while Foya opened it")
    return fd


def _too_large(size: int, limit: int) -> Refused:
    return Refused("too_large", f"too large ({size:,} bytes; at most {limit:,} are read)")


def _signature(st: os.stat_result) -> Signature:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
