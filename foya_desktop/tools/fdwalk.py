"""Open files and folders by walking directory descriptors, never following symlinks.

``resolve_inside`` checks a path, but a check alone leaves a race: between the
check and the open, a folder on the way could be swapped for a symlink that
points out of the project. These helpers close that window. They start from
a descriptor of the project root and open each component with ``dir_fd`` and
``O_NOFOLLOW``, so a symlink anywhere on the way fails the open instead of
being followed. They take the *already resolved* path (which contains no
symlinks), so meeting a symlink here always means something changed under us.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, cast

from foya_desktop.core.errors import PathOutsideProject, ToolError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _parts_below(root_real: Path, resolved: Path) -> tuple[str, ...]:
    """The components of ``resolved`` below the root; refuses anything else."""
    if not resolved.is_relative_to(root_real):
        raise PathOutsideProject(f"{str(resolved)!r} is outside the project folder {str(root_real)!r}")
    parts = resolved.relative_to(root_real).parts
    if any(p in ("", ".", "..") for p in parts):
        raise PathOutsideProject(f"{str(resolved)!r} is not a normalised path")
    return parts


def _swapped(name: str, dir_fd: int, exc: OSError) -> ToolError:
    """Turn an open failure into a clear error: symlinks become ``PathOutsideProject``."""
    with contextlib.suppress(OSError):
        if stat.S_ISLNK(os.lstat(name, dir_fd=dir_fd).st_mode):
            return PathOutsideProject(
                f"{name!r} is (or just became) a symbolic link; Foya does not follow it here")
    if exc.errno == errno.ELOOP:
        return PathOutsideProject(f"{name!r} is a symbolic link; Foya does not follow it here")
    if exc.errno == errno.ENOENT:
        return ToolError(f"{name!r} does not exist")
    if exc.errno == errno.ENOTDIR:
        return ToolError(f"{name!r} is not a folder")
    return ToolError(f"cannot open {name!r}: {exc.strerror}")


def _open_subdir(name: str, dir_fd: int, *, create: bool) -> int:
    """Open one folder below ``dir_fd`` (creating it first when asked)."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        if not create:
            raise ToolError(f"folder {name!r} does not exist") from None
    # Created concurrently, or a symlink appeared: the open below decides.
    with contextlib.suppress(FileExistsError):
        os.mkdir(name, 0o777, dir_fd=dir_fd)
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        raise _swapped(name, dir_fd, exc) from exc


def walk_to(root_real: Path, parts: tuple[str, ...], *, create: bool = False) -> int:
    """Descriptor of the folder reached by ``parts`` below the root; caller closes it."""
    fd = os.open(root_real, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for name in parts:
            try:
                next_fd = _open_subdir(name, fd, create=create)
            except OSError as exc:
                raise _swapped(name, fd, exc) from exc
            os.close(fd)
            fd = next_fd
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def open_dir_resolved(root_real: Path, resolved: Path) -> Iterator[int]:
    """A descriptor of the resolved folder, closed on exit."""
    fd = walk_to(root_real, _parts_below(root_real, resolved))
    try:
        yield fd
    finally:
        os.close(fd)


def _open_leaf(root_real: Path, resolved: Path, flags: int, *, create_parents: bool) -> int:
    """Open the last component of ``resolved`` with ``flags`` (always ``O_NOFOLLOW``)."""
    parts = _parts_below(root_real, resolved)
    if not parts:
        raise ToolError("the project folder itself is not a file")
    parent = walk_to(root_real, parts[:-1], create=create_parents)
    try:
        return os.open(parts[-1], flags, 0o666, dir_fd=parent)
    except OSError as exc:
        raise _swapped(parts[-1], parent, exc) from exc
    finally:
        os.close(parent)


def _require_regular(fd: int, name: str, *, for_write: bool) -> None:
    """Refuse devices, FIFOs and sockets, and files with other hard links (another name may lie
    outside the project; checked on the open descriptor, so a link made after the check counts)."""
    st = os.fstat(fd)
    # NOTE: one literal sentence per case, so the window can say each in its language (tool_words)
    if stat.S_ISDIR(st.st_mode):
        raise ToolError(f"{name!r} is a folder")
    if not stat.S_ISREG(st.st_mode):
        raise ToolError(f"{name!r} is not a regular file")
    if st.st_nlink > 1 and for_write:
        raise PathOutsideProject(f"{name!r} has {st.st_nlink} hard links; writing it could change a file "
                                 "outside the project, so Foya treats it as outside")
    if st.st_nlink > 1:
        raise PathOutsideProject(f"{name!r} has {st.st_nlink} hard links; reading it could show a file "
                                 "outside the project, so Foya treats it as outside")


def open_resolved(root_real: Path, resolved: Path, mode: str = "rb") -> BinaryIO:
    """Open a resolved path for ``"rb"`` or ``"wb"`` without following any symlink.

    ``"wb"`` creates missing parent folders inside the root, and truncates only
    after the hard-link check passed, so a refused write changes nothing.
    """
    if mode not in ("rb", "wb"):
        raise ValueError(f"unsupported mode {mode!r}")
    for_write = mode == "wb"
    flags = _WRITE_FLAGS if for_write else _READ_FLAGS
    fd = _open_leaf(root_real, resolved, flags, create_parents=for_write)
    try:
        _require_regular(fd, resolved.name, for_write=for_write)
        if for_write:
            os.ftruncate(fd, 0)
        return cast(BinaryIO, os.fdopen(fd, mode))
    except BaseException:
        os.close(fd)
        raise
