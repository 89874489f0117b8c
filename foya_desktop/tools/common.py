"""Small helpers shared by the file tools: argument checks, confinement, sniffing, threads.

Arguments come from a model, so every accessor checks the type and says in
plain words what was wrong: the message goes back to the model as the tool
result and it usually corrects itself on the next call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import ToolError
from foya_desktop.tools.base import ToolContext, ToolOutput
from foya_desktop.tools.paths import is_protected, relative_posix, resolve_inside

_IMAGE_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)

SNIFF_BYTES = 8192
"""How much of a file decides whether it is binary (the heuristic git and grep use)."""


def arg_str(args: dict[str, Any], key: str, *, default: str | None = None, allow_empty: bool = False) -> str:
    """A required (or defaulted) string argument."""
    value = args.get(key, default)
    if value is None:
        raise ToolError(f"missing required argument {key!r}")
    if not isinstance(value, str):
        raise ToolError(f"argument {key!r} must be a string, not {type(value).__name__}")
    if not value and not allow_empty:
        raise ToolError(f"argument {key!r} must not be empty")
    return value


def arg_int(args: dict[str, Any], key: str, *, default: int, low: int, high: int) -> int:
    """An optional integer argument within ``[low, high]`` (JSON floats like ``5.0`` pass)."""
    value = args.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise ToolError(f"argument {key!r} must be an integer")
    if not low <= value <= high:
        raise ToolError(f"argument {key!r} must be between {low} and {high}")
    return int(value)


def arg_bool(args: dict[str, Any], key: str, *, default: bool = False) -> bool:
    """An optional boolean argument."""
    value = args.get(key, default)
    if not isinstance(value, bool):
        raise ToolError(f"argument {key!r} must be true or false")
    return value


def confined(ctx: ToolContext, path: str, *, for_write: bool = False) -> Path:
    """Resolve inside the workdir and refuse protected places (git internals, Foya's data).

    Protected paths are refused for reads too: ``.git/config`` can carry
    credentials, and the data folder holds every session; ``git`` commands
    are the way to inspect a repository.
    """
    resolved = resolve_inside(ctx.workdir, path, for_write=for_write)
    if is_protected(ctx.workdir, resolved, ctx.data_dir):
        # NOTE: one literal sentence per case, so the window can say each in its language (tool_words)
        if for_write:
            raise ToolError(f"{path!r} is protected (git internals or Foya's data) and cannot be written "
                            "by file tools")
        raise ToolError(f"{path!r} is protected (git internals or Foya's data) and cannot be read "
                        "by file tools")
    return resolved


def rel(ctx: ToolContext, resolved: Path) -> str:
    """How a resolved path is shown to the model: relative to the workdir."""
    return relative_posix(ctx.workdir, resolved)


def image_mime(head: bytes) -> str | None:
    """The image type from magic bytes (PNG, JPEG, GIF, WebP), or ``None``."""
    for magic, mime in _IMAGE_MAGIC:
        if head.startswith(magic):
            return mime
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def looks_binary(head: bytes) -> bool:
    """A NUL byte in the first few KiB means binary, as git and grep decide."""
    return b"\x00" in head[:SNIFF_BYTES]


async def run_guarded(work: Callable[[], ToolOutput]) -> ToolOutput:
    """Run blocking file work in a thread; tool errors become error results for the model."""
    try:
        return await asyncio.to_thread(work)
    except ToolError as exc:
        return ToolOutput(content=str(exc), is_error=True)
    except OSError as exc:
        return ToolOutput(content=f"file system error: {exc.strerror or exc}", is_error=True)
