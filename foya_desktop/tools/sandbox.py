"""Confinement for commands nobody approved by hand (Linux), and lifetime for every command.

A command the policy or the approval mode let through on its own runs
confined, in layers that each close what the others cannot:

- Landlock: reads only the system (``/usr``, ``/etc``…), toolchains and the
  project; writes only the project and a private temp folder; no TCP; only a
  handful of harmless devices (``/dev/null``, ``/dev/urandom``…); with ABI ≥ 6
  no abstract unix sockets and no signals to processes outside the sandbox.
- namespaces (``jail``): no network at all, a read-only world outside the
  project (metadata included), read-only ``.git``, Foya's data folder hidden,
  secret-looking and hard-linked project files emptied, a private ``/proc``.
- seccomp (``seccomp``): no unix or raw sockets, no mounting, keyring,
  ptrace, io_uring or TIOCSTI.

A command the person approved explicitly runs unconfined (it goes exactly as
far as they said) but still in its own PID namespace, so it dies with its
timeout, its turn and the app. Everything is applied by a small exec wrapper
(``sandbox_exec``) in the child, so the app itself is never restricted and no
``preexec_fn`` runs in a threaded parent. Where any layer is missing
(macOS, Windows, old kernels, no user namespaces) ``support()`` says why and
the approval policy asks instead of running the command confined.
"""

from __future__ import annotations

import ctypes
import functools
import json
import os
import sys
from collections.abc import Iterable, Mapping
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
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1

SYSTEM_ROOTS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
                "/proc", "/sys", "/run", "/var/lib", "/nix", "/snap", "/Applications", "/Library")
HARMLESS_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty")
"""The only device files a confined command may open (not disks, not /dev/shm, not other terminals)."""
HOME_TOOLCHAINS = (".pyenv", ".cargo", ".rustup", ".nvm", ".volta", ".local/bin", ".local/lib",
                   ".local/share/uv", ".npm", ".cache", ".gradle", ".m2", "go", ".sdkman", ".bun",
                   ".deno", ".gitconfig", ".config/git")


class _RulesetAttr(ctypes.Structure):
    _fields_ = (("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64))


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
    read_only: tuple[Path, ...] = field(default_factory=tuple)
    """Places inside ``writable`` that stay read-only (``.git`` folders and git files, the files
    trusted MCP servers run)."""
    hidden: tuple[Path, ...] = field(default_factory=tuple)
    """Places whose bytes the command must not see (data folder, secret and hard-linked files)."""

    def to_json(self) -> str:
        """The policy as the wrapper's ``--spec`` argument."""
        return json.dumps({"writable": [str(p) for p in self.writable],
                           "readable": [str(p) for p in self.readable],
                           "block_network": self.block_network,
                           "read_only": [str(p) for p in self.read_only],
                           "hidden": [str(p) for p in self.hidden]})

    @classmethod
    def from_json(cls, text: str) -> SandboxPolicy:
        """The inverse of :meth:`to_json`."""
        data = json.loads(text)
        return cls(tuple(Path(p) for p in data["writable"]), tuple(Path(p) for p in data["readable"]),
                   bool(data["block_network"]), tuple(Path(p) for p in data["read_only"]),
                   tuple(Path(p) for p in data["hidden"]))


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
    """System roots, the Python running Foya, PATH entries, the active virtual environments and
    toolchains in the home folder."""
    home = Path.home()
    places = [Path(p) for p in SYSTEM_ROOTS]
    places += [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).parent]
    places += [Path(p) for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    places += active_environments(os.environ, home)
    places += [home / t for t in HOME_TOOLCHAINS]
    return [*places, *extra]


def active_environments(environ: Mapping[str, str], home: Path) -> list[Path]:
    """The virtual environments a command's ``python`` comes from: ``VIRTUAL_ENV``'s, and the one
    holding the first ``python3``/``python`` on ``PATH`` (an activated venv outside the project).

    Only their bin folder is a PATH entry, but the interpreter reads ``pyvenv.cfg`` beside it and
    imports from the environment's ``lib/`` at start-up, so without the whole root it cannot
    start confined. They are granted read-only, like every place :func:`default_readable` lists
    (the project and the temp folder are the only writable ones). A folder counts only when it
    holds a ``pyvenv.cfg``, and never ``/`` or the home folder (or one above it): that would make
    the whole home folder readable.
    """
    candidates = [environ.get("VIRTUAL_ENV", "")]
    python = _first_on_path(("python3", "python"), environ.get("PATH", ""))
    if python is not None:  # not resolved: a venv's python is a link to the base interpreter
        candidates += [str(python.parent), str(python.parent.parent)]
    found: list[Path] = []
    for candidate in candidates:
        root = Path(candidate)
        if (candidate and root.is_absolute() and (root / "pyvenv.cfg").is_file()
                and not home.is_relative_to(root) and root not in found):
            found.append(root)
    return found


def _first_on_path(names: Iterable[str], path: str) -> Path | None:
    """Where the shell would find the first of ``names`` (absolute ``PATH`` entries only)."""
    for folder in path.split(os.pathsep):
        if not os.path.isabs(folder):
            continue
        for name in names:
            candidate = Path(folder, name)
            if os.access(candidate, os.X_OK) and candidate.is_file():
                return candidate
    return None


def restrict_self(policy: SandboxPolicy) -> None:
    """Confine the calling process (and what it executes) for good. Linux only."""
    abi = abi_version()
    if abi < 1:
        raise OSError("Landlock is not available on this system")
    libc = _libc()
    fs = _fs_rights(abi)
    net = NET_BIND_TCP | NET_CONNECT_TCP if policy.block_network and abi >= 4 else 0
    scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0
    attr = _RulesetAttr(fs, net, scoped)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), size, 0)
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        _allow(libc, ruleset, default_readable(policy.readable), READ_ONLY & fs)
        _allow(libc, ruleset, [Path("/dev")], READ_DIR)
        _allow(libc, ruleset, [Path(d) for d in HARMLESS_DEVICES],
               (READ_FILE | WRITE_FILE | IOCTL_DEV) & fs)
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


def wrap_argv(argv: list[str], policy: SandboxPolicy | None) -> list[str]:
    """The argv that runs ``argv`` through the wrapper: confined by ``policy``, or (``None``)
    unconfined in its own PID namespace. Without namespace support, ``argv`` itself."""
    if policy is None and lifetime_support() is not None:
        return argv
    return _wrapper_argv(argv, policy)


def _wrapper_argv(argv: list[str], policy: SandboxPolicy | None) -> list[str]:
    spec = [f"--parent={os.getpid()}"]
    if policy is not None:
        spec.append(f"--spec={policy.to_json()}")
    return [sys.executable, "-I", "-S", "-c", _BOOT, *spec, "--", *argv]


WRAPPER_MARK = b"foya_desktop.tools.sandbox_exec"
"""Found in every wrapper's command line (the start-up sweep looks for it)."""
_PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
_BOOT = ("import sys; sys.path.insert(0, " + repr(_PACKAGE_PARENT) + "); "
         "from foya_desktop.tools.sandbox_exec import main; sys.exit(main(sys.argv[1:]))")
"""Runs the wrapper from this very installation, whatever the child's cwd, sys.path or
environment (``-I``: PYTHON* variables and the user site are ignored)."""


def _probe(policy: SandboxPolicy | None, work: Path) -> str | None:
    import subprocess
    argv = _wrapper_argv(["/bin/sh", "-c", "echo ok > probe"], policy)
    try:
        done = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=20, check=False,
                              env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the sandbox wrapper did not start ({exc})"
    if done.returncode != 0 or not (work / "probe").exists():
        detail = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return detail.removeprefix("sandbox_exec: ")
    return None


def _read_int(path: str) -> int | None:
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def _kernel_at_least(major: int, minor: int) -> bool:
    release = os.uname().release.split("-")[0].split(".")
    try:
        return (int(release[0]), int(release[1])) >= (major, minor)
    except (IndexError, ValueError):
        return False


@functools.cache
def lifetime_support() -> str | None:
    """``None`` when commands can run in their own PID namespace here, else why not.

    Read from the kernel's settings (cheap: no process is started); the wrapper
    itself refuses to run a confined command when a step fails anyway, so a
    wrong answer here can only turn an approval prompt into a clear failure.
    :func:`probe` measures the real thing.
    """
    if not sys.platform.startswith("linux"):
        return f"{sys.platform} has no PID namespaces"
    if not _kernel_at_least(5, 12):
        return "the kernel is older than 5.12 (no mount_setattr)"
    if os.geteuid() == 0:
        return None
    if _read_int("/proc/sys/kernel/unprivileged_userns_clone") == 0:
        return "unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone=0)"
    if _read_int("/proc/sys/user/max_user_namespaces") == 0:
        return "user namespaces are switched off (user.max_user_namespaces=0)"
    if _read_int("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1:
        return "AppArmor forbids unprivileged user namespaces (apparmor_restrict_unprivileged_userns=1)"
    return None


@functools.cache
def support() -> str | None:
    """``None`` when every confinement layer is available on this machine, else the reason."""
    if not sys.platform.startswith("linux"):
        return f"Foya cannot confine commands on {sys.platform}"
    if abi_version() < 1:
        return "the kernel has no Landlock"
    from foya_desktop.tools import seccomp
    if not seccomp.supported():
        return "the seccomp filter supports only x86-64"
    return lifetime_support()


def probe() -> tuple[str | None, str | None]:
    """Run real probe commands: (why a namespace failed, why confinement failed), ``None`` = fine."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="foya-probe-") as tmp:
        lifetime = _probe(None, Path(tmp))
        work = Path(tmp) / "project"
        (work / ".git").mkdir(parents=True)
        return lifetime, _probe(SandboxPolicy(writable=(work,), read_only=(work / ".git",)), work)


def available() -> bool:
    """Whether commands can be confined on this machine (see :func:`support`)."""
    return support() is None
