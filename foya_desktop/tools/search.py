"""Search tools: ``glob`` (find files by name) and ``grep`` (find lines by regex).

Both walk from a folder resolved inside the project, never follow symlinked
folders, skip ``.git`` and Foya's data folder, and stop at hard caps with a
note. ``grep`` also skips binaries and secret-looking files (``.env``, keys)
so a broad search cannot paste credentials into a model request; naming such
a file directly as ``path`` searches it (and the plan marks it sensitive).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import PathOutsideProject, ToolError
from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_bool, arg_str, confined, looks_binary, rel, run_guarded
from foya_desktop.tools.fdwalk import open_resolved
from foya_desktop.tools.paths import is_secret_looking, real_root, resolve_inside
from foya_desktop.tools.walk import Entry, glob_to_regex, has_glob, walk_entries

MAX_GLOB_RESULTS = 500
MAX_GREP_MATCHES = 200
MAX_VISITED = 200_000
MAX_GREP_FILE_BYTES = 5 * 1024 * 1024
MAX_MATCH_LINE_CHARS = 300
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

GLOB_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string", "description": "Glob relative to the project folder, e.g. "
                                                     "'**/*.py' or 'src/*.{ts,tsx}'. '**' spans folders."},
        "path": {"type": "string", "description": "Folder to search from (default '.')."},
    },
    "required": ["pattern"],
    "additionalProperties": False,
}

GREP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pattern": {"type": "string", "description": "Regular expression (Python syntax)."},
        "path": {"type": "string", "description": "File or folder to search (default '.')."},
        "glob": {"type": "string", "description": "Only files matching this glob, e.g. '*.py'."},
        "ignore_case": {"type": "boolean", "description": "Case-insensitive match (default false)."},
    },
    "required": ["pattern"],
    "additionalProperties": False,
}


def _skip_set(ctx: ToolContext, base: Path) -> frozenset[str]:
    """Foya's data folder, relative to ``base``, when it lies below it."""
    data = Path(os.path.realpath(ctx.data_dir))
    return frozenset({data.relative_to(base).as_posix()}) if data.is_relative_to(base) else frozenset()


def _shown(base_rel: str, entry_rel: str) -> str:
    return entry_rel if base_rel == "." else f"{base_rel}/{entry_rel}"


def _split_glob(pattern: str) -> tuple[str, str]:
    """Check a glob and split off its literal folder prefix (walked to directly)."""
    if "\x00" in pattern or pattern.startswith(("/", "~")):
        raise PathOutsideProject(f"glob {pattern!r} must be relative to the project folder")
    parts = pattern.split("/")
    if ".." in parts:
        raise PathOutsideProject(f"glob {pattern!r} contains '..'; globs cannot leave the search folder")
    literal = 0
    while literal < len(parts) - 1 and not has_glob(parts[literal]):
        literal += 1
    return "/".join(parts[:literal]) or ".", "/".join(parts[literal:])


def _folder(ctx: ToolContext, path: str) -> Path:
    resolved = confined(ctx, path)
    if not resolved.is_dir():
        raise ToolError(f"{path!r} is not a folder")
    return resolved


class GlobTool:
    """``glob``: files and folders whose project-relative path matches a pattern."""

    name = "glob"
    description = ("Find files by name pattern inside the project ('**/*.py', 'src/**/test_*.py'). "
                   f"Skips .git. At most {MAX_GLOB_RESULTS} results, sorted by path.")
    parameters = GLOB_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Check the base folder and the pattern."""
        base, prefix, _ = self._parts(args, ctx)
        start = confined(ctx, os.path.join(rel(ctx, base), prefix))
        return Action(kind="read", summary=f"Find {args['pattern']} in {rel(ctx, base)}", paths=(start,))

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Walk in a worker thread."""
        return await run_guarded(lambda: self._glob(args, ctx))

    def _parts(self, args: dict[str, Any], ctx: ToolContext) -> tuple[Path, str, str]:
        base = _folder(ctx, arg_str(args, "path", default="."))
        prefix, rest = _split_glob(arg_str(args, "pattern"))
        return base, prefix, rest

    def _glob(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        base, prefix, rest = self._parts(args, ctx)
        start = confined(ctx, os.path.join(rel(ctx, base), prefix))
        if not start.is_dir():
            return ToolOutput(f"No matches: {prefix!r} is not a folder")
        found, note = self._matches(ctx, start, glob_to_regex(rest))
        if not found:
            return ToolOutput("No files match." + note)
        extra = f"\n[{len(found) - MAX_GLOB_RESULTS} more not shown; narrow the pattern]" \
            if len(found) > MAX_GLOB_RESULTS else ""
        return ToolOutput("\n".join(sorted(found)[:MAX_GLOB_RESULTS]) + extra + note)

    def _matches(self, ctx: ToolContext, start: Path, regex: re.Pattern[str]) -> tuple[list[str], str]:
        start_rel = rel(ctx, start)
        found: list[str] = []
        for visited, entry in enumerate(walk_entries(real_root(ctx.workdir), start, _skip_set(ctx, start))):
            if visited >= MAX_VISITED:
                return found, f"\n[search stopped after {MAX_VISITED} entries; narrow the pattern]"
            shown = _shown(start_rel, entry.rel)
            if regex.fullmatch(entry.rel) and _link_ok(ctx, entry, shown):
                found.append(shown + ("/" if entry.is_dir else ""))
        return found, ""


def _link_ok(ctx: ToolContext, entry: Entry, shown: str) -> bool:
    """Symlinks are listed only when they point inside the project."""
    if not stat.S_ISLNK(os.lstat(entry.name, dir_fd=entry.dir_fd).st_mode):
        return True
    try:
        resolve_inside(ctx.workdir, shown)
    except ToolError:
        return False
    return True


def _scan(data: bytes, shown: str, regex: re.Pattern[str], out: list[str]) -> None:
    """Append ``path:line: text`` for matching lines, up to the global cap."""
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), start=1):
        if regex.search(line):
            clipped = line if len(line) <= MAX_MATCH_LINE_CHARS else line[:MAX_MATCH_LINE_CHARS] + " …"
            out.append(f"{shown}:{number}: {clipped}")
            if len(out) >= MAX_GREP_MATCHES:
                return


def _read_entry(entry: Entry) -> bytes | None:
    """A walked regular file's bytes (symlinks, devices, huge and binary files give ``None``)."""
    try:
        fd = os.open(entry.name, _READ_FLAGS, dir_fd=entry.dir_fd)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_GREP_FILE_BYTES or st.st_nlink > 1:
            return None  # hard-linked files count as outside the project
        data = fh.read(MAX_GREP_FILE_BYTES)
    return None if looks_binary(data) else data


def _compile(args: dict[str, Any]) -> re.Pattern[str]:
    pattern = arg_str(args, "pattern")
    if len(pattern) > 1000:
        raise ToolError("pattern is longer than 1000 characters")
    flags = re.IGNORECASE if arg_bool(args, "ignore_case") else 0
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        raise ToolError(f"invalid regular expression: {exc}") from None


def _name_filter(args: dict[str, Any]) -> tuple[re.Pattern[str] | None, bool]:
    """The optional ``glob`` filter, and whether it applies to the whole relative path."""
    pattern = args.get("glob")
    if pattern is None or pattern == "":
        return None, False
    text = arg_str(args, "glob")
    return glob_to_regex(text), "/" in text


class GrepTool:
    """``grep``: lines matching a regex, with file and line number."""

    name = "grep"
    description = ("Search file contents inside the project with a regular expression. Returns "
                   f"'path:line: text', at most {MAX_GREP_MATCHES} matches. Skips .git, binary files "
                   "and secret-looking files such as .env (name one as path to search it).")
    parameters = GREP_SCHEMA

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Check the regex, the filter and the path."""
        _compile(args)
        _name_filter(args)
        target = confined(ctx, arg_str(args, "path", default="."))
        sensitive = target.is_file() and is_secret_looking(target)
        return Action(kind="read", summary=f"Search {args['pattern']!r} in {rel(ctx, target)}",
                      paths=(target,), sensitive=sensitive)

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Search in a worker thread."""
        return await run_guarded(lambda: self._grep(args, ctx))

    def _grep(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        regex = _compile(args)
        target = confined(ctx, arg_str(args, "path", default="."))
        out: list[str] = []
        note = ""
        if target.is_dir():
            note = self._walk(ctx, target, regex, out, _name_filter(args))
        else:
            with open_resolved(real_root(ctx.workdir), target, "rb") as fh:
                data = fh.read(MAX_GREP_FILE_BYTES)
            if looks_binary(data):
                return ToolOutput(f"{rel(ctx, target)} is a binary file; grep searches text only.")
            _scan(data, rel(ctx, target), regex, out)
        if len(out) >= MAX_GREP_MATCHES:
            note += f"\n[stopped at {MAX_GREP_MATCHES} matches; narrow the pattern or the path]"
        return ToolOutput(("\n".join(out) if out else "No matches.") + note)

    def _walk(self, ctx: ToolContext, base: Path, regex: re.Pattern[str], out: list[str],
              name_filter: tuple[re.Pattern[str] | None, bool]) -> str:
        """Search every text file below ``base``; returns notes about what was skipped."""
        base_rel, secrets, note = rel(ctx, base), 0, ""
        for visited, entry in enumerate(walk_entries(real_root(ctx.workdir), base, _skip_set(ctx, base))):
            if len(out) >= MAX_GREP_MATCHES:
                break
            if visited >= MAX_VISITED:
                note = f"\n[search stopped after {MAX_VISITED} entries; narrow the path]"
                break
            if entry.is_dir or not _wanted(entry, name_filter):
                continue
            if is_secret_looking(entry.rel):
                secrets += 1
                continue
            data = _read_entry(entry)
            if data is not None:
                _scan(data, _shown(base_rel, entry.rel), regex, out)
        return note + (f"\n[{secrets} secret-looking file(s) not searched]" if secrets else "")


def _wanted(entry: Entry, name_filter: tuple[re.Pattern[str] | None, bool]) -> bool:
    regex, whole_path = name_filter
    return regex is None or regex.fullmatch(entry.rel if whole_path else entry.name) is not None
