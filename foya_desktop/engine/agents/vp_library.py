"""The VP library rules: what a valid VP is, and create / edit / duplicate / remove.

The window's VP editor and ``foya vps`` both come here, so they refuse in the
same words. Omni (id ``omni``) is built in: it can be edited (the edit is kept
across upgrades) but neither removed nor renamed away from its id.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import CatalogChanged, SessionChanged
from foya_desktop.core.ids import new_id
from foya_desktop.core.model import MODEL_HINTS, OMNI_ID, VP
from foya_desktop.engine.services import Services
from foya_desktop.store.catalog import list_vps, save_vp
from foya_desktop.store.sessions import get_session
from foya_desktop.store.vp_library import delete_vp, find_vp, sessions_using

NAME = re.compile(r"^[\w\-\u00c0-\uffff]{1,40}$")
"""A mention handle: what ``@Name`` matches in the composer (see ``engine.routing``)."""
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
EDITABLE = {"name", "display_name", "soul", "model_hint", "tools", "color", "max_steps"}


def validate(vp: VP, known_tools: set[str]) -> VP:
    """The VP with its fields cleaned, or ``InvalidOperation`` naming the first problem."""
    name = vp.name.strip()
    if not NAME.match(name):
        raise InvalidOperation(f"A VP name is one word of letters, digits, '-' or '_' (it is used as "
                               f"@Name); {vp.name!r} is not.")
    if not vp.soul.strip():
        raise InvalidOperation(f"{name} needs a soul (its system prompt).")
    if vp.model_hint not in ("", *MODEL_HINTS):
        raise InvalidOperation(f"The model hint is 'primary' or 'fast', not {vp.model_hint!r}.")
    tools = tuple(dict.fromkeys(t.strip() for t in vp.tools if t.strip()))
    unknown = [t for t in tools if t not in known_tools]
    if unknown:
        raise InvalidOperation(f"Unknown tool(s): {', '.join(unknown)}. Known tools: "
                               f"{', '.join(sorted(known_tools))}.")
    if vp.color and not COLOR.match(vp.color):
        raise InvalidOperation(f"A colour is written #rrggbb, not {vp.color!r}.")
    if not 1 <= vp.max_steps <= 200:
        raise InvalidOperation("The step limit is between 1 and 200.")
    return replace(vp, name=name, display_name=vp.display_name.strip() or name, soul=vp.soul.strip(),
                   tools=tools)


def _name_taken(name: str, except_id: str = "") -> bool:
    return any(v.name.casefold() == name.casefold() and v.id != except_id for v in list_vps())


def _add(vp: VP) -> VP:
    if _name_taken(vp.name):
        raise InvalidOperation(f"A VP named {vp.name} already exists; edit it with `foya vps edit`.")
    slug = vp.name.casefold()
    free = not any(v.id == slug for v in list_vps()) and slug != OMNI_ID
    return save_vp(replace(vp, id=vp.id or (slug if free else new_id("vp")), builtin=False))


def _edit(ref: str, changes: dict[str, Any], known_tools: set[str]) -> VP:
    current = find_vp(ref)
    updated = validate(replace(current, **changes), known_tools)
    if _name_taken(updated.name, current.id):
        raise InvalidOperation(f"Another VP is already named {updated.name}.")
    return save_vp(updated)


def _duplicate(ref: str, new_name: str, known_tools: set[str]) -> VP:
    source = find_vp(ref)
    copy = validate(replace(source, id="", name=new_name,
                            display_name=new_name if source.display_name == source.name
                            else f"{source.display_name} (copy)"), known_tools)
    return _add(copy)


def _remove(ref: str, force: bool) -> tuple[VP, list[str]]:
    vp = find_vp(ref)
    if vp.id == OMNI_ID or vp.builtin:
        raise InvalidOperation(f"{vp.name} is built in and cannot be removed; edit it instead.")
    users = sessions_using(vp.id)
    if users and not force:
        listed = ", ".join(f"{sid} ({title})" for sid, title in users[:5])
        more = f" and {len(users) - 5} more" if len(users) > 5 else ""
        raise InvalidOperation(f"{vp.name} is on the roster of {len(users)} session(s): {listed}{more}. "
                               "Take it off those rosters first, or pass --force to remove it from "
                               "them as well.")
    return vp, delete_vp(vp.id, out_of_rosters=force)


class VPLibrary:
    """Create, edit, duplicate and remove VPs (one write transaction each)."""

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    def _known_tools(self) -> set[str]:
        return set(self._svc.tools.all_names())

    async def add(self, vp: VP) -> VP:
        """A new VP; its id is its lower-case name when that is free."""
        if vp.id == OMNI_ID:
            raise InvalidOperation("The built-in Omni assistant cannot be replaced; edit it instead.")
        return self._changed(await self._svc.store.write(_add, validate(vp, self._known_tools())))

    async def edit(self, ref: str, **changes: Any) -> VP:
        """Change fields of a VP found by id or name (Omni included)."""
        bad = set(changes) - EDITABLE
        if bad:
            raise InvalidOperation(f"Cannot change {', '.join(sorted(bad))} of a VP.")
        if "tools" in changes:
            changes["tools"] = tuple(changes["tools"])
        return self._changed(await self._svc.store.write(_edit, ref, changes, self._known_tools()))

    async def duplicate(self, ref: str, new_name: str) -> VP:
        """A copy of a VP under a new name (soul, hint, tools and colour kept)."""
        return self._changed(await self._svc.store.write(_duplicate, ref, new_name, self._known_tools()))

    async def remove(self, ref: str, *, force: bool = False) -> list[str]:
        """Delete a VP; refused while a roster uses it unless ``force`` takes it off them.

        Returns the ids of the sessions whose roster changed (``SessionChanged`` published).
        """
        vp, changed = await self._svc.store.write(_remove, ref, force)
        self._changed(vp)
        for sid in changed:
            session = await self._svc.store.read(get_session, sid)
            self._svc.bus.publish(SessionChanged(sid, session))
        return changed

    def _changed(self, vp: VP) -> VP:
        """Tell the lists of VPs (published after the commit, like every durable change)."""
        self._svc.bus.publish(CatalogChanged("", "vps"))
        return vp

    async def get(self, ref: str) -> VP:
        """One VP by id or name (``NotFound`` names the command that lists them)."""
        return await self._svc.store.read(find_vp, ref)
