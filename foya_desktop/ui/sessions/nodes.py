"""The session tree's nodes and where a session belongs in it.

Kept apart from the Qt model so the placement rules — projects, Recents,
child sessions under their parent, pinned first then most recent — read as
plain Python.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Literal

from PySide6.QtCore import QCoreApplication

from foya_desktop.core.model import Phase, Project, Session

NodeKind = Literal["root", "project", "recents", "session"]
RECENTS_ID = "__recents__"

_uids = itertools.count(1)


@dataclass(eq=False, slots=True)
class Node:
    """One row of the tree: the root, a project, the Recents group, or a session."""

    kind: NodeKind
    key: str
    """Project id, session id, ``RECENTS_ID`` or empty for the root."""
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    project: Project | None = None
    session: Session | None = None
    phase: Phase = Phase.IDLE
    waiting: bool = False
    """An approval or question of this session waits for the person."""
    missing: bool = False
    """A project whose folder is gone (moved or deleted); the tree says so and offers a relink."""
    worktree: str = ""
    """A worktree session's mark: its branch, uncommitted and ahead marks (``ui/ops/worktree_flows``)."""
    uid: int = field(default_factory=lambda: next(_uids))
    """Identity carried in ``QModelIndex.internalId``."""

    def row(self) -> int:
        """Position among its siblings."""
        return self.parent.children.index(self) if self.parent is not None else 0

    def walk(self) -> list[Node]:
        """This node and all descendants, depth first."""
        found = [self]
        for child in self.children:
            found.extend(child.walk())
        return found

    @property
    def title(self) -> str:
        """What the tree shows."""
        if self.session is not None:
            return self.session.title or QCoreApplication.translate("Node", "Untitled session")
        if self.project is not None:
            return self.project.name or self.project.path
        return QCoreApplication.translate("Node", "Recents") if self.kind == "recents" else ""


def sort_key(node: Node) -> tuple[int, int, int, str]:
    """Order among siblings.

    Sessions: pinned first, then the person's manual order, then most recently
    active. Projects: their sort order, then name.
    """
    if node.session is not None:
        s = node.session
        return (0 if s.pinned else 1, s.sort_order, -max(s.updated_at, s.created_at), s.title.lower())
    if node.project is not None:
        return (0, node.project.sort_order, 0, node.title.lower())
    return (1, 0, 0, "")


def insertion_row(siblings: list[Node], node: Node) -> int:
    """Where ``node`` goes among ``siblings`` (which must not contain it)."""
    key = sort_key(node)
    for i, other in enumerate(siblings):
        if key < sort_key(other):
            return i
    return len(siblings)
