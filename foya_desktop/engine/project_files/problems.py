"""A project file that could not be used, and why (shown by ``foya projects info``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FileKind = Literal["rules", "skill", "agent"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One file that failed to load; the others still load."""

    kind: FileKind
    path: str
    reason: str
    """A sentence for the person, e.g. "the frontmatter has no description"."""
