"""Session lifecycle operations of the kernel (branch, rewind, delete, compaction).

Kept apart from ``kernel.py`` so the turn-and-queue façade stays small; the
``Kernel`` class inherits these methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services
    from foya_desktop.engine.turns import TurnManager


class LifecycleOps:
    """Mixin: session operations that need the services and the turn manager."""

    svc: Services
    turns: TurnManager
