"""Subprocesses in their own process group, with bounded output and a real kill.

Each command runs in a new session (``start_new_session=True``), so its
process group contains everything it spawned; stopping it signals the whole
group (SIGTERM, then SIGKILL after a grace period), which also reaches
children that were put in the background. Output is kept in a bounded
buffer: the head and the tail, with a count of what was dropped between.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import stat
from pathlib import Path

from foya_desktop.tools.sandbox import WRAPPER_MARK, SandboxPolicy, wrap_argv

READ_CHUNK = 65536
EXIT_POLL_S = 0.02
DRAIN_AFTER_EXIT_S = 0.5
"""How long to keep reading after the command exited (background children may hold the pipe)."""


class OutputBuffer:
    """The first ``head`` and last ``tail`` bytes of a stream, and how many were dropped."""

    def __init__(self, head: int, tail: int) -> None:
        self._head_cap = head
        self._tail_cap = tail
        self._head = bytearray()
        self._tail = bytearray()
        self.total = 0

    def feed(self, data: bytes) -> None:
        """Add a chunk; memory stays bounded by ``head + 2 * tail``."""
        self.total += len(data)
        room = self._head_cap - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        self._tail += data
        if len(self._tail) > 2 * self._tail_cap:
            del self._tail[: len(self._tail) - self._tail_cap]

    @property
    def dropped(self) -> int:
        return self.total - len(self._head) - min(len(self._tail), self._tail_cap)

    def text(self) -> str:
        """Head, a ``[… N bytes truncated …]`` marker when something was dropped, and tail."""
        tail = bytes(self._tail[-self._tail_cap:]) if self._tail_cap else b""
        head = bytes(self._head).decode("utf-8", "replace")
        if self.dropped <= 0:
            return (bytes(self._head) + tail).decode("utf-8", "replace")
        return f"{head}\n[… {self.dropped} bytes truncated …]\n{tail.decode('utf-8', 'replace')}"


def kill_group(pgid: int, sig: int) -> None:
    """Signal a whole process group; a group that is already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


class ProcessHandle:
    """A running command: its output buffer, exit code, and a way to stop it for good."""

    def __init__(self, proc: asyncio.subprocess.Process, command: str, buffer: OutputBuffer) -> None:
        self.proc = proc
        self.command = command
        self.output = buffer
        self._reader = asyncio.create_task(self._read())

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def tail(self) -> str:
        """What the command printed so far (bounded)."""
        return self.output.text()

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while chunk := await self.proc.stdout.read(READ_CHUNK):
            self.output.feed(chunk)

    async def exited(self) -> int:
        """The exit code, as soon as bash itself ends.

        NOTE: ``Process.wait()`` also waits for the pipes to close (CPython 3.12),
        which a background child holding stdout delays forever; the return code
        is set as soon as the child is reaped, so watch that instead.
        """
        while (code := self.proc.returncode) is None:  # noqa: ASYNC110 (no event exists for "reaped")
            await asyncio.sleep(EXIT_POLL_S)
        return code

    async def wait(self) -> int:
        """The exit code, once the output is read and stragglers in the group are stopped."""
        code = await self.exited()
        await self._finish_reading()
        return code

    async def _finish_reading(self) -> None:
        """Read what is left, then end stragglers still holding the pipe."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._reader), DRAIN_AFTER_EXIT_S)
        kill_group(self.pid, signal.SIGKILL)
        if not self._reader.done():
            self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.proc.wait(), DRAIN_AFTER_EXIT_S)

    async def cancel(self, grace: float = 2.0) -> None:
        """SIGTERM the whole group, then SIGKILL it if anything is left after ``grace``."""
        kill_group(self.pid, signal.SIGTERM)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.exited(), grace)
        kill_group(self.pid, signal.SIGKILL)
        await self.exited()
        await self._finish_reading()


async def start_process(command: str, workdir: Path, env: dict[str, str], *,
                        head: int = 0, tail: int = 64 * 1024,
                        sandbox: SandboxPolicy | None = None) -> ProcessHandle:
    """Start ``bash -c command`` in its own process group with stdout and stderr merged.

    Bash is started through the exec wrapper (``sandbox.wrap_argv``): in its own PID
    namespace, so nothing it spawns outlives it, and with a ``sandbox`` policy also
    confined; the wrapper refuses to run the command at all when it cannot confine it.
    """
    argv = wrap_argv(["/bin/bash", "-c", command], sandbox)
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=workdir, env=env, start_new_session=True,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    return ProcessHandle(proc, command, OutputBuffer(head, tail))


def private_tmp(session_id: str) -> Path:
    """A temp folder only this user can enter, one per session, outside Foya's data folder.

    Confined commands write there instead of the shared ``/tmp``; it lies
    outside the data folder because that folder is hidden from them.
    """
    import tempfile

    base = Path(tempfile.gettempdir()) / f"foya-{os.getuid()}"
    base.mkdir(mode=0o700, exist_ok=True)
    st = os.lstat(base)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise OSError(f"{base} is not a private folder of this user")
    folder = base / session_id
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def sweep_orphans() -> int:
    """Start-up: end commands a previous Foya started whose Foya is gone; returns how many.

    Commands die with Foya through parent-death signals and PID namespaces;
    this catches what slipped through (a wrapper whose parent ended in the
    instant before it could ask for that signal).
    """
    ended = 0
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if WRAPPER_MARK not in b" ".join(argv[:5]):
            continue
        parent = next((a[9:] for a in argv if a.startswith(b"--parent=")), b"")
        if parent.isdigit() and Path(f"/proc/{int(parent)}").exists() and int(parent) != 1:
            continue
        with contextlib.suppress(OSError):
            os.kill(int(entry.name), signal.SIGKILL)
            ended += 1
    return ended
