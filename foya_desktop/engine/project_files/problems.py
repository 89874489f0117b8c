"""A project file that could not be used, and why (shown by ``foya projects info`` and the rules
in effect)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from foya_desktop.engine.project_files.frontmatter import FrontmatterError
from foya_desktop.tools.confined_read import REFUSED, Refused

FileKind = Literal["rules", "skill", "agent", "mcp"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One file that failed to load; the others still load."""

    kind: FileKind
    path: str
    reason: str
    """A sentence for the person, e.g. "the frontmatter has no description" or "refused: a symbolic
    link leaving the project (it leads to …)"."""

    @property
    def refused(self) -> bool:
        """Confinement refused the file (``tools.confined_read``): it was never read."""
        return self.reason.startswith(REFUSED)


def why_unusable(exc: BaseException) -> str:
    """The reason sentence for a file that raised ``exc`` while it was read or parsed."""
    if isinstance(exc, UnicodeError):
        return "it is not UTF-8 text"
    if isinstance(exc, FrontmatterError | Refused):
        return str(exc)
    return f"it cannot be read ({exc})"


def mcp_problem(sentence: str) -> Problem:
    """A file-level problem of ``tools.mcp.config`` (a sentence naming the file) as a :class:`Problem`;
    a refusal there reads ``<file>: refused: …`` and keeps its path."""
    path, sep, rest = sentence.partition(": " + REFUSED)
    return Problem("mcp", path, REFUSED + rest.removesuffix(".")) if sep else Problem("mcp", "", sentence)
