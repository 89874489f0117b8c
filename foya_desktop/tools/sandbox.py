"""Linux Landlock confinement for commands nobody approved by hand.

A command the policy or the approval mode let through on its own runs
confined: it may read the system (``/usr``, ``/etc``…), toolchains and the
project, may write only inside the project and a private temp folder, and
(with Landlock ABI ≥ 4) may open no TCP connections. A command the person
approved explicitly runs unconfined: it goes exactly as far as they said.

Landlock is applied by a tiny exec wrapper (``sandbox_exec``) in the child
just before it becomes bash, so the app itself is never restricted and no
``preexec_fn`` runs in a threaded parent. Where Landlock is missing (old
kernels, macOS, Windows) ``available()`` is false and the approval policy
falls back to asking.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1

READ_ONLY = EXECUTE | READ_FILE | READ_DIR
SYSTEM_ROOTS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
                "/proc", "/sys", "/run", "/var/lib", "/nix", "/snap", "/Applications", "/Library")
HOME_TOOLCHAINS = (".pyenv", ".cargo", ".rustup", ".nvm", ".volta", ".local/bin", ".local/lib",
                   ".local/share/uv", ".npm", ".cache", ".gradle", ".m2", "go", ".sdkman", ".bun",
                   ".deno", ".gitconfig", ".config/git")


class _RulesetAttr(ctypes.Structure):
    _fields_ = (("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64))


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))


@dataclass(frozen=True, slots=True)
class SandboxPolicy:
    """What a confined command may touch."""

    writable: tuple[Path, ...]
    """The project and a private temp folder."""
    readable: tuple[Path, ...] = field(default_factory=tuple)
    """Extra read-only places besides the system roots and toolchains."""
    block_network: bool = True


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


@functools.cache
def abi_version() -> int:
    """The kernel's Landlock ABI version, 0 when unavailable."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        version = int(_libc().syscall(SYS_CREATE_RULESET, None, 0, CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(version, 0)


def available() -> bool:
    """Whether commands can be confined on this machine."""
    return abi_version() >= 1


def _fs_rights(abi: int) -> int:
    rights = (1 << 13) - 1  # EXECUTE … MAKE_SYM (ABI 1)
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def default_readable(extra: Iterable[Path] = ()) -> list[Path]:
    """System roots, the Python running Foya, PATH entries and toolchains in the home folder."""
    home = Path.home()
    places = [Path(p) for p in SYSTEM_ROOTS]
    places += [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent]
    places += [Path(p) for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    places += [home / t for t in HOME_TOOLCHAINS]
    return [*places, *extra]


def restrict_self(policy: SandboxPolicy) -> None:
    """Confine the calling process (and what it executes) for good. Linux only."""
    abi = abi_version()
    if abi < 1:
        raise OSError("Landlock is not available on this system")
    libc = _libc()
    fs = _fs_rights(abi)
    net = NET_BIND_TCP | NET_CONNECT_TCP if policy.block_network and abi >= 4 else 0
    attr = _RulesetAttr(fs, net)
    size = ctypes.sizeof(attr) if abi >= 4 else ctypes.sizeof(ctypes.c_uint64)
    ruleset = libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        _allow(libc, ruleset, default_readable(policy.readable), READ_ONLY & fs)
        _allow(libc, ruleset, [Path("/dev")], (READ_FILE | WRITE_FILE | READ_DIR | IOCTL_DEV) & fs)
        _allow(libc, ruleset, policy.writable, fs)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
        if libc.syscall(SYS_RESTRICT_SELF, ruleset, 0) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


def _allow(libc: ctypes.CDLL, ruleset: int, paths: Iterable[Path], rights: int) -> None:
    file_rights = rights & (EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV)
    for path in dict.fromkeys(paths):
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue  # places that do not exist here are simply not granted
        try:
            allowed = rights if os.path.isdir(path) else file_rights
            rule = _PathBeneathAttr(allowed, fd)
            if libc.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0) != 0:
                raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
        finally:
            os.close(fd)


def wrap_argv(argv: list[str], policy: SandboxPolicy) -> list[str]:
    """The argv that runs ``argv`` confined by ``policy`` via the exec wrapper."""
    spec = [f"--write={p}" for p in policy.writable] + [f"--read={p}" for p in policy.readable]
    if not policy.block_network:
        spec.append("--network")
    return [sys.executable, "-c", _BOOT, *spec, "--", *argv]


_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
_BOOT = ("import sys; sys.path.insert(0, " + repr(_PACKAGE_PARENT) + "); "
         "from foya_desktop.tools.sandbox_exec import main; sys.exit(main(sys.argv[1:]))")
"""Runs the wrapper from this very installation, whatever the child's cwd or sys.path."""
