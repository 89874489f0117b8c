"""``foya vps add | add-agent | list | edit | duplicate | remove``: the VP library from a terminal.

Thin wrappers over the kernel's VP library, which the window's VP editor uses too.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import MODEL_HINTS, VP
from foya_desktop.engine.kernel import Kernel


def add_vps_parser(p: argparse.ArgumentParser) -> None:
    """The ``vps`` subcommands."""
    sub = p.add_subparsers(dest="action", required=True)
    add = sub.add_parser("add", help="create a VP (a persona you can address as @NAME)")
    add.add_argument("name", help="one word, used as @NAME")
    _fields(add, creating=True)
    ls = sub.add_parser("list", help="list VPs (Omni is built in)")
    ls.add_argument("--json", action="store_true")
    ed = sub.add_parser("edit", help="change a VP (only the options given change)")
    ed.add_argument("name", help="the VP's name or id")
    ed.add_argument("--rename", metavar="NEW_NAME")
    _fields(ed, creating=False)
    dup = sub.add_parser("duplicate", help="copy a VP under a new name")
    dup.add_argument("name")
    dup.add_argument("new_name")
    imp = sub.add_parser("add-agent", help="add an agent file (.claude/agents, .foya/agents) to the library "
                                          "so rosters can use it")
    imp.add_argument("name", help="the agent's name (see `foya projects info`)")
    imp.add_argument("--from", dest="folder", default=".", metavar="DIR",
                     help="the project folder (default: here)")
    rm = sub.add_parser("remove", help="delete a VP (refused while a session's roster uses it)")
    rm.add_argument("name")
    rm.add_argument("--force", action="store_true", help="also take it off every roster that uses it")


def _fields(p: argparse.ArgumentParser, *, creating: bool) -> None:
    soul = p.add_mutually_exclusive_group(required=creating)
    soul.add_argument("--soul", metavar="TEXT", help="the system prompt")
    soul.add_argument("--soul-file", metavar="FILE", help="read the system prompt from a file")
    p.add_argument("--display-name", metavar="TEXT")
    p.add_argument("--model-hint", choices=MODEL_HINTS)
    p.add_argument("--tools", metavar="a,b", help="allowed tools, comma separated ('' = all)")
    p.add_argument("--color", metavar="#rrggbb")


def _soul(args: argparse.Namespace) -> str | None:
    if args.soul_file:
        try:
            return Path(args.soul_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InvalidOperation(f"Cannot read the soul file {args.soul_file}: {exc}.") from exc
    return str(args.soul) if args.soul is not None else None


def _changes(args: argparse.Namespace) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    soul = _soul(args)
    if soul is not None:
        changes["soul"] = soul
    if args.display_name is not None:
        changes["display_name"] = args.display_name
    if args.model_hint is not None:
        changes["model_hint"] = args.model_hint
    if args.tools is not None:
        changes["tools"] = tuple(t for t in args.tools.split(",") if t.strip())
    if args.color is not None:
        changes["color"] = args.color
    return changes


def vp_json(vp: VP) -> dict[str, Any]:
    """The JSON shape of ``foya vps list --json``."""
    return {"id": vp.id, "name": vp.name, "display_name": vp.display_name, "soul": vp.soul,
            "model_hint": vp.model_hint or "primary", "tools": list(vp.tools), "color": vp.color,
            "builtin": vp.builtin}


async def vps_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Run one ``foya vps`` action."""
    if args.action == "add":
        vp = await kernel.vps.add_vp(VP(id="", name=args.name, display_name="", **_changes(args)))
        print(f"Added VP {vp.name} (id {vp.id}). Address it as @{vp.name}; put it on a session with "
              f"`foya run --vp {vp.name} …` or `foya sessions set ID --roster {vp.name}`.")
    elif args.action == "list":
        vps = await kernel.vps.list_vps()
        if args.json:
            print(json.dumps([vp_json(v) for v in vps], ensure_ascii=False, indent=1))
        else:
            for v in vps:
                tools = ",".join(v.tools) or "all tools"
                tag = " (built in)" if v.builtin else ""
                print(f"{v.name:<16} {v.id:<12} {v.model_hint or 'primary':<8} {tools}{tag}")
    elif args.action == "edit":
        changes = _changes(args)
        if args.rename:
            changes["name"] = args.rename
        if not changes:
            raise InvalidOperation("Nothing to change: pass --soul, --rename, --model-hint, --tools, ….")
        vp = await kernel.vps.edit_vp(args.name, **changes)
        print(f"Saved VP {vp.name} (id {vp.id}).")
    elif args.action == "add-agent":
        vp = await kernel.files.add_agent_vp(args.folder, args.name)
        print(f"Added VP {vp.name} (id {vp.id}) from its agent file. Put it on a session with "
              f"`foya sessions set ID --roster {vp.name}`; later edits of the file do not change it.")
    elif args.action == "duplicate":
        vp = await kernel.vps.duplicate_vp(args.name, args.new_name)
        print(f"Added VP {vp.name} (id {vp.id}), a copy of {args.name}.")
    else:
        changed = await kernel.vps.remove_vp(args.name, force=args.force)
        print(f"Removed VP {args.name}" + (f"; taken off the roster of {len(changed)} session(s): "
                                           f"{' '.join(changed)}" if changed else "") + ".")
    return 0
