"""``foya sessions branch | rewind | delete | compact``: the lifecycle operations from a terminal.

Each command is a thin wrapper over the kernel method the window uses, so
both refuse and explain in the same words.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import asdict
from typing import Any

from foya_desktop.cli.sessions_worktree import add_worktree_flags, check_worktree_flags
from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.rewind import RewindPreview


def add_session_op_parsers(sub: Any) -> None:
    """Add the four subcommands to ``foya sessions``' subparsers."""
    br = sub.add_parser("branch", help="new session from the history up to a complete reply")
    br.add_argument("id")
    br.add_argument("--after", required=True, metavar="MESSAGE_ID",
                    help="a complete assistant message or tool result (see `foya sessions show --json`)")
    br.add_argument("--json", action="store_true")
    add_worktree_flags(br, "the session's folder")
    rw = sub.add_parser("rewind", help="remove a user message and everything after it, restoring files")
    rw.add_argument("id")
    rw.add_argument("--to", required=True, metavar="MESSAGE_ID", help="the user message to go back to")
    rw.add_argument("--preview", action="store_true", help="only show what would happen")
    rw.add_argument("--json", action="store_true")
    rm = sub.add_parser("delete", help="delete a session and its child sessions (irreversible)")
    rm.add_argument("id")
    rm.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    cp = sub.add_parser("compact", help="summarise the history so later requests start from the summary")
    cp.add_argument("id")


async def dispatch_session_op(kernel: Kernel, args: argparse.Namespace) -> int | None:
    """Run the op named by ``args.action``; ``None`` when it is not one of ours."""
    if args.action == "branch":
        return await _branch(kernel, args)
    if args.action == "rewind":
        return await _rewind(kernel, args)
    if args.action == "delete":
        return await _delete(kernel, args)
    if args.action == "compact":
        return await _compact(kernel, args)
    return None


async def _branch(kernel: Kernel, args: argparse.Namespace) -> int:
    check_worktree_flags(args)
    session = await kernel.worktrees.branch(args.id, args.after, branch=args.branch or "",
                                            parent_folder=args.worktree_dir or "") if args.worktree \
        else await kernel.lifecycle.branch(args.id, args.after)
    count = await kernel.history.message_count(session.id)
    if args.json:
        print(json.dumps({"session_id": session.id, "source_id": args.id, "messages": count}))
    else:
        print(f"Branched {args.id} after {args.after} into {session.id} ({count} messages): {session.title}")
    return 0


async def _rewind(kernel: Kernel, args: argparse.Namespace) -> int:
    preview = await kernel.lifecycle.rewind_preview(args.id, args.to)
    if args.preview:
        print(json.dumps(asdict(preview), ensure_ascii=False, indent=1) if args.json
              else describe_preview(preview))
        return 0
    result = await kernel.lifecycle.rewind_confirm(args.id, preview)
    if args.json:
        print(json.dumps(asdict(result), ensure_ascii=False, indent=1))
        return 0
    print(describe_preview(preview))
    print(f"\nRewound. {len(result.restored)} restored, {len(result.removed)} removed, "
          f"{len(result.skipped)} left untouched. Your message, to edit and send again:\n")
    print(result.text)
    return 0


def describe_preview(p: RewindPreview) -> str:
    """The preview in plain words, file by file."""
    lines = [f"Rewinding to {p.message_id} removes {p.messages_removed} message(s) from the history "
             "(the event log keeps them)."]
    lines += [f"  restore  {path}" for path in p.restore]
    lines += [f"  remove   {path}  (created after this message)" for path in p.remove]
    lines += [f"  keep     {u.path}  — not restored: {u.reason}" for u in p.unsafe]
    if not (p.restore or p.remove or p.unsafe):
        lines.append("  No files were changed by tools after this message.")
    return "\n".join(lines)


async def _delete(kernel: Kernel, args: argparse.Namespace) -> int:
    session = await kernel.sessions.get_session(args.id)
    children = await kernel.sessions.descendants(args.id)
    what = f"session {session.id} ({session.title})" + (
        f" and {len(children)} child session(s)" if children else "")
    if not args.yes:
        if not sys.stdin.isatty():
            raise InvalidOperation(f"Deleting {what} cannot be undone; pass --yes to confirm.")
        answer = await asyncio.to_thread(input, f"Delete {what}? This cannot be undone. [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing deleted.")
            return 1
    worktree = (await kernel.worktrees.statuses([session])).get(session.id)
    deleted = await kernel.lifecycle.delete_session(args.id)
    print(f"Deleted {len(deleted)} session(s): {' '.join(deleted)}")
    if worktree is not None:  # docs/window/sessions.md: the worktree goes only when the person says so
        print(f"The worktree {worktree.path} and its branch '{worktree.branch}' stay (git worktree remove "
              f"removes them; 'foya sessions worktree remove ID' deletes a session with its worktree).")
    return 0


async def _compact(kernel: Kernel, args: argparse.Namespace) -> int:
    checkpoint = await kernel.lifecycle.compact(args.id)
    print(f"Checkpoint {checkpoint.id} covers the history up to seq {checkpoint.covers_seq}. Summary:\n")
    print(checkpoint.summary)
    return 0
