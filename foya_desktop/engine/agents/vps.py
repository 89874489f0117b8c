"""The VP catalog: the built-in Omni assistant plus user-defined personas."""

from __future__ import annotations

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import OMNI, OMNI_ID, VP, Session
from foya_desktop.store.catalog import list_vps
from foya_desktop.store.store import Store


async def all_vps(store: Store) -> list[VP]:
    """Omni first (as stored, i.e. with the person's edits), then the other VPs by name."""
    stored = await store.read(list_vps)
    omni = next((vp for vp in stored if vp.id == OMNI_ID), OMNI)
    return [omni, *[vp for vp in stored if vp.id != OMNI_ID]]


async def roster_of(store: Store, session: Session) -> list[VP]:
    """The session's roster as VP records, in roster order (unknown ids are skipped)."""
    by_id = {vp.id: vp for vp in await all_vps(store)}
    roster = [by_id[i] for i in session.roster if i in by_id]
    return roster or [OMNI]


async def check_roster(store: Store, roster: tuple[str, ...],
                       default_vp: str | None) -> tuple[tuple[str, ...], str]:
    """Validate an explicit roster (never replaced when non-empty) and pick the default VP."""
    if not roster:
        roster = (OMNI_ID,)
    vps = await all_vps(store)
    known = {vp.id.casefold() for vp in vps} | {vp.name.casefold() for vp in vps}
    missing = [r for r in roster if r.casefold() not in known]
    if missing:
        raise InvalidOperation(f"Unknown VP(s): {', '.join(missing)}. Create one with "
                               "`foya vps add NAME --soul TEXT` (see `foya vps list`).")
    ids = tuple(dict.fromkeys(_to_id(r, vps) for r in roster))
    chosen = _to_id(default_vp, vps) if default_vp else ids[0]
    if chosen not in ids:
        raise InvalidOperation(f"The default VP {default_vp!r} is not in the roster.")
    return ids, chosen


def _to_id(ref: str, vps: list[VP]) -> str:
    """An exact id first (stored rosters), then a name as people type it, then an id in any case."""
    folded = ref.casefold()
    for vp in vps:
        if ref == vp.id:
            return vp.id
    for vp in vps:
        if folded == vp.name.casefold():
            return vp.id
    for vp in vps:
        if folded == vp.id.casefold():
            return vp.id
    return ref
