"""File tools that change files: ``write_file`` and ``edit_file``.

``plan`` computes the exact change (a unified diff for the approval dialog)
and fails early on a bad edit; ``run`` recomputes from the file as it is then,
writes through ``open_resolved`` and reports a :class:`FileChange` with the
bytes before and after, which the engine keeps for rewind.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import ToolError
from foya_desktop.tools.base import Action, FileChange, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_bool, arg_str, confined, looks_binary, rel, run_guarded
from foya_desktop.tools.fdwalk import open_resolved
from foya_desktop.tools.paths import is_secret_looking, real_root

MAX_DIFF_CHARS = 200_000

WRITE_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File path, relative to the project folder."},
        "content": {"type": "string", "description": "The complete new content of the file."},
    },
    "required": ["path", "content"],
    "additionalProperties": False,
}

EDIT_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File path, relative to the project folder."},
        "old_string": {"type": "string", "description": "Exact text to replace (include enough context "
                                                        "to make it unique)."},
        "new_string": {"type": "string", "description": "Replacement text."},
        "replace_all": {"type": "boolean", "description": "Replace every occurrence (default false)."},
    },
    "required": ["path", "old_string", "new_string"],
    "additionalProperties": False,
}


@dataclass(frozen=True, slots=True)
class _Change:
    """A computed change to one file."""

    resolved: Path
    shown: str
    before: bytes | None
    after: bytes
    note: str


def _current(ctx: ToolContext, resolved: Path) -> bytes | None:
    """The file's bytes now, or ``None`` when it does not exist yet."""
    if not resolved.exists():
        return None
    with open_resolved(real_root(ctx.workdir), resolved, "rb") as fh:
        return fh.read()


def unified_diff(shown: str, before: bytes | None, after: bytes) -> str:
    """A unified diff for the approval dialog (binary files are only named)."""
    if (before is not None and looks_binary(before)) or looks_binary(after):
        return f"Binary file {shown} changes ({0 if before is None else len(before)} → {len(after)} bytes)"
    old = [] if before is None else before.decode("utf-8", "replace").splitlines(keepends=True)
    new = after.decode("utf-8", "replace").splitlines(keepends=True)
    source = "/dev/null" if before is None else f"a/{shown}"
    diff = "".join(difflib.unified_diff(old, new, source, f"b/{shown}"))
    if len(diff) > MAX_DIFF_CHARS:
        diff = diff[:MAX_DIFF_CHARS] + "\n[… diff truncated …]\n"
    return diff


def _action(change: _Change, verb: str) -> Action:
    return Action(kind="write", summary=f"{verb} {change.shown}", paths=(change.resolved,),
                  diff=unified_diff(change.shown, change.before, change.after),
                  sensitive=is_secret_looking(change.resolved))


def _commit(ctx: ToolContext, change: _Change) -> ToolOutput:
    """Write the new bytes and report the change."""
    with open_resolved(real_root(ctx.workdir), change.resolved, "wb") as fh:
        fh.write(change.after)
    return ToolOutput(content=change.note,
                      changes=(FileChange(change.shown, change.before, change.after),))


def _target(ctx: ToolContext, args: dict[str, Any]) -> Path:
    resolved = confined(ctx, arg_str(args, "path"), for_write=True)
    if resolved.is_dir():
        raise ToolError(f"{rel(ctx, resolved)!r} is a folder, not a file")
    return resolved


class WriteFileTool:
    """``write_file``: create or replace a whole file."""

    name = "write_file"
    description = ("Create a file inside the project, or replace its whole content. Missing parent "
                   "folders are created. Prefer edit_file for changes to existing files.")
    parameters = WRITE_FILE_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Compute the diff the person will approve."""
        return _action(self._change(args, ctx), "Write")

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Write in a worker thread."""
        return await run_guarded(lambda: _commit(ctx, self._change(args, ctx)))

    def _change(self, args: dict[str, Any], ctx: ToolContext) -> _Change:
        resolved = _target(ctx, args)
        after = arg_str(args, "content", allow_empty=True).encode("utf-8")
        before = _current(ctx, resolved)
        shown = rel(ctx, resolved)
        note = (f"Created {shown} ({len(after)} bytes)" if before is None
                else f"Wrote {shown} ({len(after)} bytes, was {len(before)})")
        return _Change(resolved, shown, before, after, note)


def replace_text(text: str, old: str, new: str, *, replace_all: bool) -> tuple[str, int]:
    """Exact replacement; refuses a missing or ambiguous match. Returns (text, count)."""
    if not old:
        raise ToolError("old_string must not be empty (use write_file to create a file)")
    if old == new:
        raise ToolError("old_string and new_string are the same; nothing would change")
    count = text.count(old)
    if count == 0 and "\r\n" in text and "\n" in old and "\r\n" not in old:
        old, new = old.replace("\n", "\r\n"), new.replace("\n", "\r\n")
        count = text.count(old)
    if count == 0:
        raise ToolError("old_string was not found in the file; read the file and copy the text exactly")
    if count > 1 and not replace_all:
        raise ToolError(f"old_string occurs {count} times; add surrounding lines to make it unique "
                        "or set replace_all to true")
    return text.replace(old, new), count


class EditFileTool:
    """``edit_file``: replace exact text in an existing file."""

    name = "edit_file"
    description = ("Replace exact text in an existing file inside the project. old_string must match "
                   "exactly once, unless replace_all is true.")
    parameters = EDIT_FILE_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Apply the edit in memory; a missing or ambiguous match fails here already."""
        return _action(self._change(args, ctx), "Edit")

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Re-apply against the file as it is now, then write, in a worker thread."""
        return await run_guarded(lambda: _commit(ctx, self._change(args, ctx)))

    def _change(self, args: dict[str, Any], ctx: ToolContext) -> _Change:
        resolved = _target(ctx, args)
        old = arg_str(args, "old_string", allow_empty=True)
        new = arg_str(args, "new_string", allow_empty=True)
        replace_all = arg_bool(args, "replace_all")
        shown = rel(ctx, resolved)
        before = _current(ctx, resolved)
        if before is None:
            raise ToolError(f"{shown} does not exist; use write_file to create it")
        try:
            text = before.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError(f"{shown} is not UTF-8 text; edit_file cannot change it") from None
        after, count = replace_text(text, old, new, replace_all=replace_all)
        note = f"Edited {shown}: replaced {count} occurrence{'s' if count > 1 else ''}"
        return _Change(resolved, shown, before, after.encode("utf-8"), note)
