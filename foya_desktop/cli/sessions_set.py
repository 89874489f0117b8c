"""``foya sessions set ID …``: change an existing session's settings from a terminal.

Every flag maps to one field of ``Kernel.update_session`` (the same rules as the
window's session settings); only the flags given change anything.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.kernel import Kernel


def add_set_parser(sub: Any) -> argparse.ArgumentParser:
    """Add ``sessions set`` and return its parser (other settings add their flags to it)."""
    p: argparse.ArgumentParser = sub.add_parser("set", help="change an existing session's settings")
    p.add_argument("id")
    p.add_argument("--roster", metavar="A,B", help="the VPs of the session (names or ids, comma separated)")
    p.add_argument("--default-vp", metavar="NAME", help="who answers a message without @mentions")
    p.add_argument("--json", action="store_true", help="print the session's settings as JSON")
    return p


def set_changes(args: argparse.Namespace) -> dict[str, Any]:
    """``update_session`` keyword arguments from the flags that were given."""
    changes: dict[str, Any] = {}
    if args.roster is not None:
        roster = tuple(r.strip().lstrip("@") for r in args.roster.split(",") if r.strip())
        if not roster:
            raise InvalidOperation("A roster needs at least one VP.")
        changes["roster"] = roster
    if args.default_vp is not None:
        changes["default_vp"] = args.default_vp.strip().lstrip("@")
    return changes


async def sessions_set(kernel: Kernel, args: argparse.Namespace) -> int:
    """Apply the changes and print the resulting settings."""
    changes = set_changes(args)
    if not changes:
        raise InvalidOperation("Nothing to change: pass an option (see `foya sessions set --help`).")
    session = await kernel.sessions.update_session(args.id, **changes)
    names = {vp.id: vp.name for vp in await kernel.vps.list_vps()}
    roster = [names.get(v, v) for v in session.roster]
    default = names.get(session.default_vp, session.default_vp)
    if args.json:
        print(json.dumps({"session_id": session.id, "roster": roster, "default_vp": default}))
    else:
        print(f"Session {session.id}: roster {', '.join(roster)}; default VP {default}.")
    return 0
