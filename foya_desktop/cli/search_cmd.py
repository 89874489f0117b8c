"""``foya search QUERY``: the same hits as the window's search, as lines or JSON."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from datetime import datetime

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.kernel import Kernel


def add_search_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``search`` subcommand."""
    p = sub.add_parser("search", help="full-text search over every session's messages, newest first")
    p.add_argument("query", help="words to find (all must match; substrings and identifiers work)")
    p.add_argument("--project", metavar="P", help="only sessions of this project (id, name or folder)")
    p.add_argument("--speaker", metavar="VP", help="only messages by this VP (id or name), or 'user'")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="only messages from this day on")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="only messages before this day")
    p.add_argument("--limit", type=int, default=50)
    p.add_argument("--json", action="store_true", help="a JSON array of hits")


async def search_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Print the hits; exit 0 with hits, 1 without."""
    project_id = await _project_id(kernel, args.project) if args.project else None
    speaker = await _speaker_id(kernel, args.speaker) if args.speaker else None
    hits = await kernel.search.find(args.query, project_id=project_id, speaker=speaker,
                               since_ms=_day_ms(args.since, "--since"),
                               until_ms=_day_ms(args.until, "--until"), limit=max(1, args.limit))
    if args.json:
        print(json.dumps([asdict(h) for h in hits], ensure_ascii=False, indent=1))
    elif not hits:
        print(f"No messages match {args.query!r}.")
    for hit in [] if args.json else hits:
        when = datetime.fromtimestamp(hit.created_at / 1000).strftime("%Y-%m-%d %H:%M")
        who = "you" if hit.role == "user" else hit.speaker
        print(f"{hit.session_id}  {hit.message_id}  {when}  {hit.session_title} · {who}: {hit.snippet}")
    return 0 if hits else 1


async def _project_id(kernel: Kernel, wanted: str) -> str:
    for project in await kernel.projects.list_projects():
        if wanted in (project.id, project.name, project.path):
            return project.id
    raise InvalidOperation(f"No project {wanted!r} (give its id, name or folder; see the window's sidebar).")


async def _speaker_id(kernel: Kernel, wanted: str) -> str:
    if wanted.lower() in ("user", "you"):
        return "user"
    for vp in await kernel.vps.list_vps():
        if wanted.lstrip("@").lower() in (vp.id.lower(), vp.name.lower()):
            return vp.id
    raise InvalidOperation(f"No VP {wanted!r}.")


def _day_ms(day: str | None, option: str) -> int | None:
    if not day:
        return None
    try:
        return int(datetime.strptime(day, "%Y-%m-%d").timestamp() * 1000)
    except ValueError:
        raise InvalidOperation(f"{option} takes a day like 2026-11-30, not {day!r}.") from None
