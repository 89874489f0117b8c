"""A seccomp filter for confined commands: the rules Landlock cannot express.

Landlock restricts file access and TCP. It does not cover UDP, unix sockets
(pathname sockets such as a session bus or a docker socket), raw sockets,
mounting (which could undo the read-only view of ``.git``), the kernel
keyring, ``ptrace``, ``io_uring`` (which performs socket and file operations
without the syscalls below) or terminal injection with ``TIOCSTI``. This
filter refuses those with an errno, so ordinary programs fail cleanly instead
of being killed. Internet sockets stay allowed because a confined command
always runs in its own network namespace, which has no interface up.

Only x86-64 is supported; elsewhere ``supported()`` is false and the
approval policy asks instead of running a command confined.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RET_ALLOW, RET_KILL_PROCESS = 0x7FFF0000, 0x80000000
_RET_ERRNO = 0x00050000
_LD_ABS, _JEQ, _JSET, _RET = 0x20, 0x15, 0x45, 0x06
_NR, _ARCH, _ARG0, _ARG1 = 0, 4, 16, 24
AF_INET, AF_INET6 = 2, 10
TIOCSTI, TIOCLINUX = 0x5412, 0x541C
CLONE_NAMESPACES = 0x00020000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x02000000
"""CLONE_NEWNS, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWCGROUP."""
SYS_SOCKET, SYS_CLONE, SYS_CLONE3, SYS_IOCTL = 41, 56, 435, 16

DENIED: dict[str, int] = {
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "unshare": 272, "setns": 308,
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "keyctl": 250, "add_key": 248,
    "request_key": 249, "bpf": 321, "perf_event_open": 298, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "kexec_load": 246,
    "kexec_file_load": 320, "init_module": 175, "finit_module": 313, "delete_module": 176,
    "userfaultfd": 323, "acct": 163, "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170,
    "setdomainname": 171, "iopl": 172, "ioperm": 173, "quotactl": 179, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "syslog": 103, "settimeofday": 164, "clock_settime": 227, "adjtimex": 159,
    "clock_adjtime": 305, "pidfd_getfd": 438, "fanotify_init": 300, "vhangup": 153,
}
"""x86-64 syscall numbers refused with EPERM."""


def supported() -> bool:
    """Whether this filter fits the machine (Linux on x86-64)."""
    return platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")


class _Program:
    """A tiny BPF assembler with forward labels (jumps are 8-bit and relative)."""

    def __init__(self) -> None:
        self.ops: list[tuple[int, int | str, int | str, int]] = []
        self.labels: dict[str, int] = {}

    def load(self, offset: int) -> None:
        self.ops.append((_LD_ABS, 0, 0, offset))

    def jump(self, op: int, k: int, true: int | str = 0, false: int | str = 0) -> None:
        self.ops.append((op, true, false, k))

    def ret(self, value: int) -> None:
        self.ops.append((_RET, 0, 0, value))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.ops)

    def assemble(self) -> bytes:
        out = bytearray()
        for index, (code, jt, jf, k) in enumerate(self.ops):
            t = self.labels[jt] - index - 1 if isinstance(jt, str) else jt
            f = self.labels[jf] - index - 1 if isinstance(jf, str) else jf
            if not (0 <= t < 256 and 0 <= f < 256):
                raise ValueError("seccomp jump out of range")
            out += struct.pack("<HBBI", code, t, f, k)
        return bytes(out)


def _errno(code: int) -> int:
    return _RET_ERRNO | code


def build_filter() -> bytes:
    """The filter program as raw ``sock_filter`` records."""
    p = _Program()
    p.load(_ARCH)
    p.jump(_JEQ, AUDIT_ARCH_X86_64, 0, "kill")
    p.load(_NR)
    p.jump(_JSET, 0x40000000, "eperm", 0)  # x32 ABI numbers
    for number in DENIED.values():
        p.jump(_JEQ, number, "eperm", 0)
    p.jump(_JEQ, SYS_SOCKET, "socket", 0)
    p.jump(_JEQ, SYS_CLONE, "clone", 0)
    p.jump(_JEQ, SYS_CLONE3, "enosys", 0)  # flags live in memory; libc falls back to clone()
    p.jump(_JEQ, SYS_IOCTL, "ioctl", 0)
    p.ret(RET_ALLOW)
    p.label("socket")
    p.load(_ARG0)
    p.jump(_JEQ, AF_INET, "allow", 0)
    p.jump(_JEQ, AF_INET6, "allow", 0)
    p.ret(_errno(errno.EACCES))
    p.label("clone")
    p.load(_ARG0)
    p.jump(_JSET, CLONE_NAMESPACES, "eperm", "allow")
    p.label("ioctl")
    p.load(_ARG1)
    p.jump(_JEQ, TIOCSTI, "eperm", 0)
    p.jump(_JEQ, TIOCLINUX, "eperm", "allow")
    p.label("allow")
    p.ret(RET_ALLOW)
    p.label("eperm")
    p.ret(_errno(errno.EPERM))
    p.label("enosys")
    p.ret(_errno(errno.ENOSYS))
    p.label("kill")
    p.ret(RET_KILL_PROCESS)
    return p.assemble()


class _SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


def install() -> None:
    """Apply the filter to the calling thread and what it executes (needs NO_NEW_PRIVS set)."""
    if not supported():
        raise OSError("seccomp filtering is only supported on Linux x86-64")
    program = build_filter()
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
