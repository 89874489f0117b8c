"""Rewind on disk: what each tracked file looks like now, the restore plan, and applying it.

A file is restored only when Foya knows both ends: its content before the
removed turns (the first recorded ``before``) and its content now, which must
still be exactly what the last tool change wrote. Anything else — a command
touched it, someone edited it since, it became a folder or a link out of the
project — is listed as unsafe and left alone. Writes are atomic (temporary
file + rename), so a crash never leaves a half-written file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import FoyaError
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.ops_rewind import TrackedChange
from foya_desktop.tools.paths import resolve_inside


@dataclass(frozen=True, slots=True)
class FileState:
    """A file as it is now: its sha256 (``None``: absent) or why it cannot be handled."""

    sha: str | None
    problem: str = ""


@dataclass(frozen=True, slots=True)
class FileOp:
    """Put ``path`` back to ``target`` (``None``: delete it); ``undo`` is its content now."""

    path: str
    target: str | None
    undo: str | None


@dataclass(frozen=True, slots=True)
class UnsafeFile:
    """A changed file the rewind will not touch, and why."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class RewindPlan:
    """The file side of a rewind."""

    ops: tuple[FileOp, ...]
    unsafe: tuple[UnsafeFile, ...]
    token: str
    """Hash over the current state of every affected file: confirm refuses if it moved."""


def current_state(workdir: str, path: str) -> FileState:
    """Read one tracked file now (blocking)."""
    try:
        resolved = resolve_inside(Path(workdir), path, for_write=True)
    except FoyaError as exc:
        return FileState(None, f"cannot be written safely ({exc})")
    if not resolved.exists():
        return FileState(None)
    if not resolved.is_file():
        return FileState(None, "is no longer a regular file")
    try:
        return FileState(hashlib.sha256(resolved.read_bytes()).hexdigest())
    except OSError as exc:
        return FileState(None, f"cannot be read ({exc.strerror or exc})")


def affected_paths(changes: list[TrackedChange]) -> list[str]:
    """Every path the removed turns changed, sorted."""
    return sorted({c.path for c in changes})


def make_plan(changes: list[TrackedChange], states: dict[str, FileState]) -> RewindPlan:
    """Decide per file: restore, remove, or leave alone (unsafe)."""
    ops: list[FileOp] = []
    unsafe: list[UnsafeFile] = []
    for path in affected_paths(changes):
        mine = [c for c in changes if c.path == path]
        state = states[path]
        reason = _unsafe_reason(mine, state)
        if reason:
            unsafe.append(UnsafeFile(path, reason))
        elif state.sha != mine[0].before_sha:
            ops.append(FileOp(path, mine[0].before_sha, state.sha))
    return RewindPlan(tuple(ops), tuple(unsafe), state_token(states))


def _unsafe_reason(mine: list[TrackedChange], state: FileState) -> str:
    if any(c.kind != "tool" for c in mine):
        return "changed by a command (its earlier content is unknown)"
    if state.problem:
        return state.problem
    if state.sha != mine[-1].after_sha:
        return "changed outside Foya since the last tool change"
    return ""


def state_token(states: dict[str, FileState]) -> str:
    """A stable hash of the current state of every affected file."""
    items = sorted((p, s.sha or "", s.problem) for p, s in states.items())
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()


def apply_ops(workdir: str, ops: list[FileOp], blobs: ArtifactFiles, *, undo: bool = False) -> None:
    """Put every file at its target (or, with ``undo``, back where it was). Idempotent."""
    for op in ops:
        sha = op.undo if undo else op.target
        resolved = resolve_inside(Path(workdir), op.path, for_write=True)
        if sha is None:
            resolved.unlink(missing_ok=True)
        else:
            atomic_write(resolved, blobs.get(sha))


def atomic_write(target: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder, fsync, then rename over the target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o7777 if target.exists() else None
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=TEMP_PREFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


TEMP_PREFIX = ".foya-rewind-"


def remove_rewind_temps(workdir: str, ops: list[FileOp]) -> int:
    """Delete temporary files a kill mid-write left next to the plan's files; returns how many.

    Only the folders the plan wrote into are looked at (never a scan of the project).
    """
    removed = 0
    folders = {resolve_inside(Path(workdir), op.path, for_write=True).parent for op in ops}
    for folder in folders:
        with contextlib.suppress(OSError):
            for entry in folder.iterdir():
                if entry.name.startswith(TEMP_PREFIX) and entry.is_file() and not entry.is_symlink():
                    entry.unlink(missing_ok=True)
                    removed += 1
    return removed


def ops_to_json(ops: tuple[FileOp, ...]) -> list[dict[str, Any]]:
    """The journal's form of a plan."""
    return [{"path": o.path, "target": o.target, "undo": o.undo} for o in ops]


def ops_from_json(data: list[dict[str, Any]]) -> list[FileOp]:
    """Inverse of :func:`ops_to_json`."""
    return [FileOp(str(d["path"]), d["target"], d["undo"]) for d in data]
