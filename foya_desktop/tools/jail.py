"""Namespaces for commands: a private process tree, no network, and a read-only world.

Every command Foya starts runs in its own PID namespace, so nothing it spawns
(``setsid``, double forks, daemons) outlives it: when the namespace's first
process ends, the kernel kills every process in it, and the first process
dies with the wrapper that started it (parent-death signal), which dies with
Foya. A *confined* command additionally gets

- its own network namespace (no interface is up: no TCP, UDP or abstract unix
  sockets reach anything, 127.0.0.1 included);
- its own mount namespace in which every mount is read-only except the
  project and a private temp folder, so ``chmod``/``touch -d`` and writes to
  ``/dev/shm`` outside the project fail (Landlock does not cover metadata);
- read-only ``.git`` folders (the project's and nested ones), so nothing can
  plant a hook or an ``core.fsmonitor`` that runs later outside Foya, and
  read-only files a trusted MCP server runs (their folders cannot be moved
  away either: ``pin_folders``);
- Foya's data folder hidden under an empty read-only tmpfs, and secret-looking
  and hard-linked files of the project replaced by an empty device, so their
  bytes are not readable in any encoding;
- a fresh ``/proc`` that shows only its own processes (not Foya's environment).

Unprivileged users get the namespaces through a user namespace that maps
their own uid and gid, so files keep their owner and ``id`` prints the truth.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable
from pathlib import Path

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID = 0x1, 0x2
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
SYS_MOUNT_SETATTR = 442
PR_SET_PDEATHSIG = 1


class _MountAttr(ctypes.Structure):
    _fields_ = (("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64))


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def die_with_parent(signal_number: int) -> None:
    """Ask the kernel to send ``signal_number`` when our parent ends."""
    _check(_libc().prctl(PR_SET_PDEATHSIG, signal_number, 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")


def enter_namespaces(*, network: bool) -> None:
    """Unshare PID (and mount, network) namespaces, through a user namespace when not root."""
    flags = CLONE_NEWPID | CLONE_NEWNS
    if not network:
        flags |= CLONE_NEWNET
    uid, gid = os.getuid(), os.getgid()
    if os.geteuid() != 0:
        flags |= CLONE_NEWUSER
    _check(_libc().unshare(flags), "unshare")
    if flags & CLONE_NEWUSER:
        Path("/proc/self/setgroups").write_text("deny")
        Path("/proc/self/uid_map").write_text(f"{uid} {uid} 1")
        Path("/proc/self/gid_map").write_text(f"{gid} {gid} 1")
    libc = _libc()
    _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate /")


def _setattr(path: Path, attr_set: int, attr_clr: int, *, recursive: bool) -> None:
    attr = _MountAttr(attr_set, attr_clr, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    result = _libc().syscall(SYS_MOUNT_SETATTR, AT_FDCWD, os.fsencode(path), flags,
                             ctypes.byref(attr), ctypes.sizeof(attr))
    _check(result, f"mount_setattr {path}")


def _bind(source: Path | str, target: Path) -> None:
    _check(_libc().mount(os.fsencode(source), os.fsencode(target), None, MS_BIND | MS_REC, None),
           f"bind mount {target}")


def read_only_world(writable: Iterable[Path], read_only: Iterable[Path], hidden: Iterable[Path]) -> None:
    """Make every mount read-only, then re-open ``writable`` and cover ``read_only``/``hidden``.

    Must run in a private mount namespace. Order matters: the writable places
    are bind-mounted over themselves and made writable again, then the folders
    holding read-only files are pinned, then the ``.git`` folders and files inside
    them are made read-only, then hidden places are covered (folders by an empty
    read-only tmpfs, files by ``/dev/null``).
    """
    writable, read_only = list(writable), list(read_only)
    _setattr(Path("/"), MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, recursive=True)
    for place in writable:
        _bind(place, place)
        try:
            _setattr(place, 0, MOUNT_ATTR_RDONLY, recursive=True)
        except OSError:  # a mount below was read-only to begin with: keep it so
            _setattr(place, 0, MOUNT_ATTR_RDONLY, recursive=False)
    pin_folders(read_only, writable)
    protect(read_only)
    libc = _libc()
    for place in hidden:
        if place.is_symlink() or not place.exists():
            continue
        if place.is_dir():
            _check(libc.mount(b"tmpfs", os.fsencode(place), b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV,
                              b"size=4k,mode=000"), f"hide {place}")
        else:
            _check(libc.mount(b"/dev/null", os.fsencode(place), None, MS_BIND, None), f"hide {place}")
            _setattr(place, MOUNT_ATTR_RDONLY, 0, recursive=False)


def protect(read_only: Iterable[Path]) -> None:
    """Make each folder (recursively) or file read-only by a bind mount over itself (a mount
    point can be neither renamed nor removed, so it cannot be swapped either)."""
    for place in read_only:
        if place.is_symlink() or not place.exists():
            continue
        _bind(place, place)
        _setattr(place, MOUNT_ATTR_RDONLY, 0, recursive=place.is_dir())


def pin_folders(files: Iterable[Path], writable: Iterable[Path]) -> None:
    """Make every folder between a writable place and a read-only file in it a mount point of
    its own, still writable. A read-only file could otherwise be swapped without being written:
    ``mv srv srv.old && mkdir srv`` moves the folder away with the file's mount in it, and a new
    file takes its path. A mount point can be neither renamed nor removed."""
    roots = [Path(os.path.realpath(w)) for w in writable]
    pinned: set[Path] = set()
    for place in files:
        if place.is_symlink() or not place.is_file():
            continue
        root = next((r for r in roots if place.is_relative_to(r)), None)
        if root is None:
            continue
        for folder in reversed(place.parents):
            if folder in pinned or not folder.is_relative_to(root) or folder == root:
                continue
            if folder.is_symlink():
                break
            _bind(folder, folder)
            pinned.add(folder)


def mount_proc() -> None:
    """A /proc for this PID namespace (call as its first process)."""
    _check(_libc().mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None), "mount /proc")

