"""A lenient reader for the ``---`` frontmatter of SKILL.md and agent files.

Why hand-written and not PyYAML: the files come from Claude Code, Codex and
others, and what they contain is "YAML" only by intent. ``globs: *.py`` is an
alias error in YAML, ``description: Use when: the user asks`` a mapping error,
yet those tools read both. We only need flat ``key: value`` pairs (plus lists
and block scalars), so we read exactly that and never fail on what follows
the first colon. What cannot be read at all (no closing ``---``, a line that
is no ``key: value``) raises :class:`FrontmatterError` with a sentence naming
the line, so the caller can report that one file and load the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

Value = str | list[str]

_KEY = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.\-]*)\s*:(?:\s+(.*)|\s*)$")
_FENCE = "---"


class FrontmatterError(ValueError):
    """The frontmatter cannot be read; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Document:
    """A Markdown file split into its frontmatter fields and its body."""

    fields: dict[str, Value]
    """Top-level keys as written (case kept); values are strings or lists of strings."""
    body: str
    """Everything after the closing fence (the whole text when there is no frontmatter)."""
    has_frontmatter: bool


def parse_document(text: str) -> Document:
    """Split ``text``; raise :class:`FrontmatterError` when its frontmatter is unreadable."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != _FENCE:
        return Document({}, text.lstrip("\ufeff"), has_frontmatter=False)
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() in (_FENCE, "...")), None)
    if end is None:
        raise FrontmatterError("the frontmatter starts with --- but has no closing --- line")
    fields = _parse_fields(lines[1:end])
    return Document(fields, "\n".join(lines[end + 1:]).strip("\n"), has_frontmatter=True)


def _parse_fields(lines: list[str]) -> dict[str, Value]:
    fields: dict[str, Value] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.lstrip().startswith("#"):
            i += 1
            continue
        match = _KEY.match(line)
        if match is None or line[0].isspace():
            raise FrontmatterError(f"frontmatter line {i + 2} is not 'key: value': {line.strip()[:60]!r}")
        key, rest = match.group(1), (match.group(2) or "").strip()
        block, i = _indented(lines, i + 1)
        fields[key] = _value(rest, block)
    return fields


def _indented(lines: list[str], start: int) -> tuple[list[str], int]:
    """The indented (or blank) lines from ``start`` on, and the index after them."""
    end = start
    while end < len(lines) and (not lines[end].strip() or lines[end][0].isspace()
                                or lines[end].startswith("- ")):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end], end


def _value(rest: str, block: list[str]) -> Value:
    if rest[:1] in ("|", ">") and set(rest[1:]) <= set("+-0123456789"):
        return _block_scalar(block, literal=rest.startswith("|"))
    if not rest and any(b.strip().startswith("- ") or b.strip() == "-" for b in block):
        return [_unquote(b.strip()[1:].strip()) for b in block if b.strip().startswith("-")]
    if rest.startswith("[") and rest.endswith("]"):
        return [_unquote(x.strip()) for x in rest[1:-1].split(",") if x.strip()]
    pieces = [rest, *(b.strip() for b in block if b.strip())]
    return _unquote(" ".join(p for p in pieces if p))


def _block_scalar(block: list[str], *, literal: bool) -> str:
    indents = [len(b) - len(b.lstrip()) for b in block if b.strip()]
    cut = min(indents, default=0)
    rows = [b[cut:] if b.strip() else "" for b in block]
    if literal:
        return "\n".join(rows).strip("\n")
    return " ".join(r for r in rows if r).strip()


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        inner = text[1:-1]
        return inner.replace("''", "'") if text[0] == "'" else inner.replace('\\"', '"')
    return text


def as_list(value: Value | None) -> list[str]:
    """A list field written either as a YAML list or as ``a, b c`` (both occur in real files)."""
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in (x.strip() for x in value) if v]
    return [v for v in re.split(r"[,\s]+", value) if v]


def as_text(value: Value | None) -> str:
    """A text field (a list is joined with spaces rather than refused)."""
    if value is None:
        return ""
    return " ".join(value) if isinstance(value, list) else value
