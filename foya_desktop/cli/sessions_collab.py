"""``foya sessions fork | merge``: Yeaft's collaboration operations from a terminal.

Thin wrappers over the kernel methods the window uses, so both refuse in the same words.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from foya_desktop.engine.kernel import Kernel


def add_collab_parsers(sub: Any) -> None:
    """Add ``fork`` (and ``merge`` when the engine has it) to ``foya sessions``."""
    fk = sub.add_parser("fork", help="new session with this one's history and settings (never stops it)")
    fk.add_argument("id")
    fk.add_argument("--from-turn", metavar="MSG_ID",
                    help="any message of a completed turn: copy up to and including that turn")
    fk.add_argument("--json", action="store_true")


async def dispatch_collab(kernel: Kernel, args: argparse.Namespace) -> int | None:
    """Run ``fork``; ``None`` when the action is not one of ours."""
    if args.action == "fork":
        session = await kernel.fork(args.id, from_turn=args.from_turn)
        count = await kernel.message_count(session.id)
        if args.json:
            print(json.dumps({"session_id": session.id}))
        else:
            print(f"Forked {args.id} into {session.id} ({count} messages): {session.title}")
        return 0
    return None
