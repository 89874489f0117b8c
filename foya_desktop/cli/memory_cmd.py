"""``foya memory list | add | remove``: the person's view and edits of scoped memory
(docs/window/memory.md).

``vp`` and ``session-vp`` need ``--vp NAME``; ``session`` and ``session-vp`` need
``--session ID``. Listing narrows by whatever is given.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from foya_desktop.core.memory import MemoryEntry, MemoryScope
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.memory.ops import parse_scope, reach

SCOPES = [s.value for s in MemoryScope]


def add_memory_parser(p: argparse.ArgumentParser) -> None:
    """The ``memory`` subcommands."""
    sub: Any = p.add_subparsers(dest="action", required=True)
    ls = sub.add_parser("list", help="list memory entries with who wrote them and where")
    add = sub.add_parser("add", help="save an entry")
    add.add_argument("text", help="the fact or preference")
    for cmd in (ls, add):
        cmd.add_argument("--scope", choices=SCOPES, default=None if cmd is ls else "user",
                         help="user (default for add), vp, session-vp or session")
        cmd.add_argument("--vp", metavar="NAME", help="the VP of a vp/session-vp scope")
        cmd.add_argument("--session", metavar="ID", help="the session of a session/session-vp scope")
        cmd.add_argument("--json", action="store_true")
    rm = sub.add_parser("remove", help="remove an entry by id")
    rm.add_argument("id", help="the entry id (mem_…, see `foya memory list`)")
    rm.add_argument("--json", action="store_true")


def entry_json(entry: MemoryEntry) -> dict[str, Any]:
    """An entry as ``--json`` prints it."""
    return {"id": entry.id, "scope": str(entry.scope), "text": entry.text, "vp": entry.vp_id or None,
            "session_id": entry.session_id, "author": entry.author,
            "source_session_id": entry.source_session_id or None, "created_at": entry.created_at,
            "updated_at": entry.updated_at}


def _line(entry: MemoryEntry) -> str:
    owner = " ".join(x for x in (entry.vp_id and f"vp={entry.vp_id}",
                                 entry.session_id and f"session={entry.session_id}") if x)
    source = f" in {entry.source_session_id}" if entry.source_session_id else ""
    return (f"{entry.id}  [{entry.scope}{' ' + owner if owner else ''}]  {entry.text}\n"
            f"    by {entry.author}{source}")


async def memory_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Run one ``foya memory`` action."""
    if args.action == "remove":
        entry = await kernel.memory.remove_memory(args.id)
        print(json.dumps(entry_json(entry), ensure_ascii=False) if args.json
              else f"Removed {entry.id} from {entry.scope} memory.")
        return 0
    scope = parse_scope(args.scope) if args.scope else None
    if args.action == "add":
        assert scope is not None
        entry = await kernel.memory.add_memory(scope, args.text, vp=args.vp, session_id=args.session)
        print(json.dumps(entry_json(entry), ensure_ascii=False) if args.json
              else f"Saved {entry.id} to {entry.scope} memory; it applies to {reach(entry, args.vp or '')}. "
                   f"Undo: foya memory remove {entry.id}")
        return 0
    entries = await kernel.memory.list_memory(scope, vp=args.vp, session_id=args.session)
    if args.json:
        print(json.dumps([entry_json(e) for e in entries], ensure_ascii=False, indent=1))
    elif not entries:
        print("No memory entries.")
    else:
        print("\n".join(_line(e) for e in entries))
    return 0
