"""File tools for reading: ``read_file`` and ``list_dir`` (the writers live in ``writes``,
the searchers in ``search``; all six are importable from here).

Output is shaped for a model: numbered lines so edits can cite them, hard caps
with a note that says how to get the rest, and polite refusals (binary files,
images) that name the better tool.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, BinaryIO

from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.common import (
    SNIFF_BYTES,
    arg_int,
    arg_str,
    confined,
    image_mime,
    looks_binary,
    rel,
    run_guarded,
)
from foya_desktop.tools.fdwalk import open_dir_resolved, open_resolved
from foya_desktop.tools.paths import is_secret_looking, real_root
from foya_desktop.tools.search import GlobTool, GrepTool
from foya_desktop.tools.writes import EditFileTool, WriteFileTool

__all__ = ["EditFileTool", "GlobTool", "GrepTool", "ListDirTool", "ReadFileTool", "WriteFileTool"]

DEFAULT_LINES = 2000
MAX_LINE_CHARS = 2000
MAX_READ_CHARS = 100_000
MAX_DIR_ENTRIES = 1000

READ_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File path, relative to the project folder."},
        "offset": {"type": "integer", "minimum": 1, "description": "First line to show (1-based)."},
        "limit": {"type": "integer", "minimum": 1,
                  "description": f"Lines to show (default {DEFAULT_LINES})."},
    },
    "required": ["path"],
    "additionalProperties": False,
}

LIST_DIR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Folder, relative to the project folder (default '.')."},
    },
    "additionalProperties": False,
}


def _clip(line: str) -> str:
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + " … [line truncated]"


def _numbered(text: io.TextIOBase, first: int, count: int) -> tuple[list[str], str]:
    """Lines ``first..first+count-1`` numbered like ``cat -n``, plus a note when cut short."""
    out: list[str] = []
    size = 0
    for number, raw in enumerate(text, start=1):
        if number < first:
            continue
        if len(out) == count:
            return out, f"[more lines follow; continue with offset={number}]"
        line = _clip(raw.rstrip("\r\n"))
        size += len(line) + 8
        if size > MAX_READ_CHARS and out:
            return out, (f"[output limit of {MAX_READ_CHARS} characters reached; "
                         f"continue with offset={number}]")
        out.append(f"{number:6}\t{line}")
    if not out:
        return out, "(empty file)" if first == 1 else f"[the file has fewer than {first} lines]"
    return out, ""


def _read_text(fh: BinaryIO, shown: str, first: int, count: int) -> ToolOutput:
    """Refuse images and binaries politely; otherwise number the requested lines."""
    head = fh.read(SNIFF_BYTES)
    mime = image_mime(head)
    if mime is not None:
        return ToolOutput(f"{shown} is an image ({mime}); use view_image to look at it.", is_error=True)
    if looks_binary(head):
        return ToolOutput(f"{shown} is a binary file; read_file shows text only.", is_error=True)
    fh.seek(0)
    # Closing the wrapper closes ``fh`` early (the caller's ``with`` then finds it closed);
    # a wrapper left to the garbage collector would warn about an unclosed file.
    with io.TextIOWrapper(fh, encoding="utf-8", errors="replace") as text:
        lines, note = _numbered(text, first, count)
    return ToolOutput("\n".join([*lines, note]) if note else "\n".join(lines))


class ReadFileTool:
    """``read_file``: numbered lines of a text file, a window at a time."""

    name = "read_file"
    description = (
        "Read a text file inside the project. Lines come numbered (cat -n style). Long files are "
        f"shown {DEFAULT_LINES} lines at a time; pass offset/limit for other parts. Images: use view_image."
    )
    parameters = READ_FILE_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Check the path and the line window."""
        resolved = confined(ctx, arg_str(args, "path"))
        arg_int(args, "offset", default=1, low=1, high=10**9)
        arg_int(args, "limit", default=DEFAULT_LINES, low=1, high=10**6)
        return Action(kind="read", summary=f"Read {rel(ctx, resolved)}", paths=(resolved,),
                      sensitive=is_secret_looking(resolved))

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Read in a worker thread."""
        return await run_guarded(lambda: self._read(args, ctx))

    def _read(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        resolved = confined(ctx, arg_str(args, "path"))
        first = arg_int(args, "offset", default=1, low=1, high=10**9)
        count = arg_int(args, "limit", default=DEFAULT_LINES, low=1, high=10**6)
        with open_resolved(real_root(ctx.workdir), resolved, "rb") as fh:
            return _read_text(fh, rel(ctx, resolved), first, count)


def _listing(fd: int) -> list[str]:
    """Entry names sorted, folders marked ``/`` and symlinks ``@`` (never followed)."""
    names: list[str] = []
    with os.scandir(fd) as entries:
        for entry in entries:
            if entry.is_symlink():
                names.append(entry.name + "@")
            elif entry.is_dir(follow_symlinks=False):
                names.append(entry.name + "/")
            else:
                names.append(entry.name)
    return sorted(names)


class ListDirTool:
    """``list_dir``: one folder's entries."""

    name = "list_dir"
    description = ("List a folder inside the project: names sorted, folders end with '/', "
                   f"symbolic links with '@'. At most {MAX_DIR_ENTRIES} entries.")
    parameters = LIST_DIR_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Check the folder path."""
        resolved = confined(ctx, arg_str(args, "path", default="."))
        return Action(kind="read", summary=f"List {rel(ctx, resolved)}", paths=(resolved,))

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """List in a worker thread."""
        return await run_guarded(lambda: self._list(args, ctx))

    def _list(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        resolved: Path = confined(ctx, arg_str(args, "path", default="."))
        with open_dir_resolved(real_root(ctx.workdir), resolved) as fd:
            names = _listing(fd)
        shown = rel(ctx, resolved)
        if not names:
            return ToolOutput(f"{shown}: (empty folder)")
        note = ""
        if len(names) > MAX_DIR_ENTRIES:
            note = f"\n[{len(names) - MAX_DIR_ENTRIES} more entries not shown]"
            names = names[:MAX_DIR_ENTRIES]
        return ToolOutput(f"{shown}/ ({len(names)} shown)\n" + "\n".join(names) + note)
