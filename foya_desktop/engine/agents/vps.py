"""The VP catalog: the built-in Omni assistant plus user-defined personas."""

from __future__ import annotations

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import OMNI, OMNI_ID, VP, Session
from foya_desktop.store.store import Store


async def all_vps(store: Store) -> list[VP]:
    """Omni first, then stored VPs by name."""
    return [OMNI, *[vp for vp in await store.list_vps() if vp.id != OMNI_ID]]


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
    known = {vp.id for vp in vps} | {vp.name for vp in vps}
    missing = [r for r in roster if r not in known]
    if missing:
        raise InvalidOperation(f"Unknown VP(s): {', '.join(missing)}.")
    ids = tuple(dict.fromkeys(_to_id(r, vps) for r in roster))
    chosen = _to_id(default_vp, vps) if default_vp else ids[0]
    if chosen not in ids:
        raise InvalidOperation(f"The default VP {default_vp!r} is not in the roster.")
    return ids, chosen


def _to_id(ref: str, vps: list[VP]) -> str:
    for vp in vps:
        if ref in (vp.id, vp.name):
            return vp.id
    return ref
