"""The VP library's rows beyond plain save/list (sync; worker threads): lookup by id or
name, which sessions use a VP, removal (optionally out of rosters), and the start-up
upgrade of untouched built-ins."""

from __future__ import annotations

import json

from foya_desktop.core.errors import NotFound
from foya_desktop.core.ids import now_ms
from foya_desktop.core.model import OMNI, OMNI_PAST_DEFAULTS, VP
from foya_desktop.store.codec import vp_from_row
from foya_desktop.store.events_log import append_event
from foya_desktop.store.schema import SessionRow, VPRow

BUILTINS: tuple[tuple[VP, tuple[tuple[str, str, str], ...]], ...] = ((OMNI, OMNI_PAST_DEFAULTS),)
"""Each built-in VP with the (name, display name, soul) triples it shipped with before."""


def find_vp(ref: str) -> VP:
    """A VP by exact id, else by name as people type it (any case); ids survive renames."""
    folded = ref.casefold()
    row = VPRow.get_or_none(VPRow.id == ref)
    if row is None:
        row = next((r for r in VPRow.select() if r.name.casefold() == folded), None)
    if row is None:
        raise NotFound(f"No VP named {ref!r}. See `foya vps list`.")
    return vp_from_row(row)


def sessions_using(vp_id: str) -> list[tuple[str, str]]:
    """(session id, title) of every session whose roster holds ``vp_id``."""
    rows = SessionRow.select(SessionRow.id, SessionRow.title, SessionRow.roster)
    return [(r.id, r.title) for r in rows if vp_id in json.loads(r.roster)]


def delete_vp(vp_id: str, *, out_of_rosters: bool) -> list[str]:
    """Delete a VP row; with ``out_of_rosters`` also drop it from every roster using it.

    A roster left empty falls back to Omni; a default VP that was removed becomes
    the roster's first VP. Returns the ids of the sessions changed.
    """
    changed: list[str] = []
    if out_of_rosters:
        for row in SessionRow.select().where(SessionRow.roster.contains(json.dumps(vp_id))):
            roster = [v for v in json.loads(row.roster) if v != vp_id]
            if len(roster) == len(json.loads(row.roster)):
                continue
            roster = roster or [OMNI.id]
            default = row.default_vp if row.default_vp in roster else roster[0]
            cols = {"roster": json.dumps(roster), "default_vp": default}
            append_event(row.id, "settings_changed", cols)
            SessionRow.update(**cols, updated_at=now_ms()).where(SessionRow.id == row.id).execute()
            changed.append(row.id)
    if VPRow.delete().where(VPRow.id == vp_id).execute() == 0:
        raise NotFound(f"No VP {vp_id}.")
    return changed


def ensure_builtins() -> list[str]:
    """Insert missing built-ins; upgrade stored ones that exactly match an older default.

    A stored built-in whose name, display name and soul equal one of its past shipped
    defaults was never edited, so it becomes the current default. Anything else was
    written by the person and is kept. Returns the ids inserted or upgraded.
    """
    touched: list[str] = []
    for current, past in BUILTINS:
        row = VPRow.get_or_none(VPRow.id == current.id)
        if row is None:
            _write(current)
            touched.append(current.id)
        elif (row.name, row.display_name, row.soul) in past:
            VPRow.update(name=current.name, display_name=current.display_name, soul=current.soul,
                         builtin=True).where(VPRow.id == current.id).execute()
            touched.append(current.id)
        elif not row.builtin:
            VPRow.update(builtin=True).where(VPRow.id == current.id).execute()
    return touched


def _write(vp: VP) -> None:
    VPRow.insert(id=vp.id, name=vp.name, display_name=vp.display_name, soul=vp.soul,
                 model_hint=vp.model_hint, tools=json.dumps(list(vp.tools)), max_steps=vp.max_steps,
                 builtin=vp.builtin, color=vp.color).execute()
