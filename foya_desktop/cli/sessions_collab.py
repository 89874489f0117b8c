"""``foya sessions fork | merge``: Yeaft's collaboration operations from a terminal.

Thin wrappers over the kernel methods the window uses, so both refuse in the same words.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from foya_desktop.cli.sessions_worktree import add_worktree_flags, check_worktree_flags
from foya_desktop.engine.kernel import Kernel


def add_collab_parsers(sub: Any) -> None:
    """Add ``fork`` and ``merge`` to ``foya sessions``."""
    fk = sub.add_parser("fork", help="new session with this one's history and settings (never stops it)")
    fk.add_argument("id")
    fk.add_argument("--from-turn", metavar="MSG_ID",
                    help="any message of a completed turn: copy up to and including that turn")
    fk.add_argument("--json", action="store_true")
    add_worktree_flags(fk, "the session's folder")
    mg = sub.add_parser("merge", help="new session from two histories (A's settings; neither changes)")
    mg.add_argument("a", help="the initiating session: its folder, announcement, default VP, model, project")
    mg.add_argument("b")
    mg.add_argument("--preview", action="store_true", help="only show which turns come from where")
    mg.add_argument("--json", action="store_true")


async def dispatch_collab(kernel: Kernel, args: argparse.Namespace) -> int | None:
    """Run ``fork`` or ``merge``; ``None`` when the action is not one of ours."""
    if args.action == "fork":
        check_worktree_flags(args)
        session = await kernel.worktrees.fork(args.id, from_turn=args.from_turn, branch=args.branch or "",
                                              parent_folder=args.worktree_dir or "") if args.worktree \
            else await kernel.lifecycle.fork(args.id, from_turn=args.from_turn)
        count = await kernel.history.message_count(session.id)
        if args.json:
            print(json.dumps({"session_id": session.id}))
        else:
            print(f"Forked {args.id} into {session.id} ({count} messages): {session.title}")
        return 0
    if args.action == "merge":
        return await _merge(kernel, args)
    return None


async def _merge(kernel: Kernel, args: argparse.Namespace) -> int:
    plan = await kernel.lifecycle.merge_preview(args.a, args.b)
    if args.preview:
        rows = [{"origin": t.origin, "turn_id": t.turn.turn_id, "sent_at": t.turn.sent_at,
                 "question": t.turn.question, "messages": len(t.turn.messages)} for t in plan.turns]
        if args.json:
            print(json.dumps({"common": plan.common, "turns": rows}, ensure_ascii=False, indent=1))
        else:
            label = {"common": "both", "a": "A   ", "b": "B   "}
            for r in rows:
                print(f"{label[str(r['origin'])]}  {str(r['question'])[:70]}")
        return 0
    session = await kernel.lifecycle.merge(args.a, args.b)
    if args.json:
        print(json.dumps({"session_id": session.id}))
    else:
        print(f"Merged {args.a} and {args.b} into {session.id} ({plan.common} common turn(s), "
              f"{len(plan.turns)} in all): {session.title}")
    return 0
