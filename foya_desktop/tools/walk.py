"""Walking the project tree for ``glob`` and ``grep``, and glob patterns as regexes.

The walk uses ``os.fwalk`` from a descriptor opened by ``fdwalk``: it never
follows symlinked folders, and it prunes ``.git`` and Foya's data folder so
searches cannot read what the file tools refuse to read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from foya_desktop.tools.fdwalk import open_dir_resolved

_GLOB_CHARS = frozenset("*?[{")


@dataclass(frozen=True, slots=True)
class Entry:
    """One walked entry. ``dir_fd`` is only valid until the walk moves on."""

    rel: str
    """Path relative to the walk's base, ``/`` separators."""
    name: str
    dir_fd: int
    is_dir: bool


def _class(pattern: str, start: int) -> tuple[str, int] | None:
    """Translate ``[...]`` starting at ``start``; ``None`` when it never closes."""
    i = start + 1
    if i < len(pattern) and pattern[i] in "!^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    end = pattern.find("]", i)
    if end < 0:
        return None
    body = pattern[start + 1:end].replace("\\", "\\\\")
    if body[:1] in ("!", "^"):
        body = "^" + body[1:]
    return f"(?!/)[{body}]", end + 1


def _braces(pattern: str, start: int) -> tuple[str, int] | None:
    """Translate a flat ``{a,b}`` alternation; ``None`` when it is not one."""
    end = pattern.find("}", start)
    inner = pattern[start + 1:end] if end > 0 else ""
    if end < 0 or "," not in inner or "{" in inner:
        return None
    return "(?:" + "|".join(_component(alt) for alt in inner.split(",")) + ")", end + 1


def _component(pattern: str) -> str:
    """One path component of a glob as a regex that never crosses ``/``."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        special = {"[": _class, "{": _braces}.get(char)
        translated = special(pattern, i) if special else None
        if translated is not None:
            out.append(translated[0])
            i = translated[1]
            continue
        out.append({"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char)))
        i += 1
    return "".join(out)


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """A regex for a relative glob: ``*``, ``?``, ``[…]``, ``{a,b}``, and ``**`` for any depth."""
    parts = pattern.strip("/").split("/")
    regex = ""
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            regex += ".*" if last else "(?:[^/]+/)*"
        else:
            regex += _component(part) + ("" if last else "/")
    return re.compile(regex, re.DOTALL)


def has_glob(text: str) -> bool:
    """Whether a pattern component contains glob syntax."""
    return any(char in _GLOB_CHARS for char in text)


def _pruned(rel_dir: str, name: str, skip: frozenset[str]) -> bool:
    child = f"{rel_dir}/{name}" if rel_dir else name
    return name.casefold() == ".git" or child in skip


def walk_entries(root_real: Path, base: Path, skip: frozenset[str] = frozenset()) -> Iterator[Entry]:
    """Every entry below ``base`` in sorted order, without following symlinked folders.

    ``skip`` holds base-relative folder paths never entered (e.g. Foya's data folder);
    ``.git`` folders are never entered either.
    """
    with open_dir_resolved(root_real, base) as fd:
        walker = os.fwalk(".", dir_fd=fd, follow_symlinks=False)
        for dirpath, dirnames, filenames, dir_fd in walker:
            rel_dir = dirpath[2:] if dirpath.startswith("./") else ""
            dirnames[:] = sorted(d for d in dirnames if not _pruned(rel_dir, d, skip))
            for name in dirnames:
                yield Entry(f"{rel_dir}/{name}" if rel_dir else name, name, dir_fd, True)
            for name in sorted(filenames):
                yield Entry(f"{rel_dir}/{name}" if rel_dir else name, name, dir_fd, False)
