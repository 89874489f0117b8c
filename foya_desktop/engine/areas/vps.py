"""The VP library as the person edits it: Omni plus user-defined personas (``engine/agents``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from foya_desktop.core.model import VP
from foya_desktop.engine.agents.vps import all_vps

if TYPE_CHECKING:
    from foya_desktop.engine.agents.vp_library import VPLibrary
    from foya_desktop.engine.services import Services


class Vps:
    """List, add, edit, duplicate and remove VPs."""

    def __init__(self, svc: Services, library: VPLibrary) -> None:
        self._svc = svc
        self._library = library

    async def list_vps(self) -> list[VP]:
        """Omni plus user-defined VPs."""
        return await all_vps(self._svc.store)

    async def add_vp(self, vp: VP) -> VP:
        """Define a new persona (refused when the name is taken: use ``edit_vp``)."""
        return await self._library.add(vp)

    async def edit_vp(self, ref: str, **changes: Any) -> VP:
        """Change a VP found by id or name: name, display_name, soul, model_hint, tools, color."""
        return await self._library.edit(ref, **changes)

    async def duplicate_vp(self, ref: str, new_name: str) -> VP:
        """Copy a VP under a new name."""
        return await self._library.duplicate(ref, new_name)

    async def remove_vp(self, ref: str, *, force: bool = False) -> list[str]:
        """Delete a VP; refused while a roster uses it unless ``force`` (returns changed sessions)."""
        return await self._library.remove(ref, force=force)
