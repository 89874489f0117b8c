"""Where a new fork or branch is bound: the source's project, or a new worktree's.

docs/window/sessions.md "Sessions": forks and branches copy the source's project and folder, and
a session's binding never changes once made. *Fork/branch in a new worktree*
(``engine.worktrees``) is the one case where the new session is bound, at its
creation and for good, to another project: the worktree Foya just added for it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from foya_desktop.core.model import Session


class Place(NamedTuple):
    """A project and its folder for a new session."""

    project_id: str
    workdir: str


def placed(session: Session, place: Place | None) -> Session:
    """``session`` bound to ``place`` (unchanged without one)."""
    return session if place is None else replace(session, project_id=place.project_id, workdir=place.workdir)
