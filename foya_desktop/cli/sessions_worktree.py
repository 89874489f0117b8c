"""``foya sessions worktree status | merge-back | remove ID``: worktree sessions from a terminal.

Thin wrappers over ``kernel.worktrees`` (the window's *Merge back…* and *Delete*
use the same doors), so both refuse and explain in the same words. A merge
that stops with conflicts exits 1 and lists the files left for the person.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

from foya_desktop.core.errors import BadInput
from foya_desktop.core.terminal import visible
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.worktrees.ops import MergePreview, WorktreeStatus


def add_worktree_flags(p: argparse.ArgumentParser, where: str) -> None:
    """``--worktree [--branch NAME] [--worktree-dir DIR]`` for ``run``, ``sessions fork`` and
    ``sessions branch``; ``where`` names the folder whose repository is used."""
    p.add_argument("--worktree", action="store_true",
                   help=f"put the new session in a new git worktree of the repository {where} is in, on a "
                        "new branch named after the session")
    p.add_argument("--branch", metavar="NAME", help="with --worktree: this branch (an existing one, or a "
                   "new one of this name)")
    p.add_argument("--worktree-dir", metavar="DIR", help="with --worktree: put the worktree in DIR instead "
                   "of <repository>.foya-worktrees")


def check_worktree_flags(args: argparse.Namespace) -> None:
    """``--branch`` and ``--worktree-dir`` go with ``--worktree``."""
    if (args.branch or args.worktree_dir) and not args.worktree:
        raise BadInput("--branch and --worktree-dir go with --worktree (a new session in a new git "
                       "worktree).")


def add_worktree_parser(sub: Any) -> None:
    """Add ``foya sessions worktree …`` to ``foya sessions``' subparsers."""
    wt = sub.add_parser("worktree", help="a worktree session's branch: status, merge back, remove")
    actions = wt.add_subparsers(dest="worktree_action", required=True)
    st = actions.add_parser("status", help="branch, uncommitted files, commits ahead of the base")
    st.add_argument("id")
    st.add_argument("--json", action="store_true")
    mb = actions.add_parser("merge-back", help="merge (or rebase) the branch into the repository's branch")
    mb.add_argument("id")
    mb.add_argument("--preview", action="store_true", help="only show the diff against the base")
    mb.add_argument("--rebase", action="store_true", help="rebase onto the base, then fast-forward it")
    mb.add_argument("--json", action="store_true")
    rm = actions.add_parser("remove", help="delete the session with its worktree folder and branch")
    rm.add_argument("id")
    rm.add_argument("--keep-branch", action="store_true", help="remove the folder, keep the branch")
    rm.add_argument("--force", action="store_true",
                    help="remove even work that is not in the base (uncommitted files, commits)")
    rm.add_argument("--json", action="store_true")


async def worktree_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Run ``foya sessions worktree ACTION``."""
    if args.worktree_action == "status":
        status = await kernel.worktrees.status(args.id)
        _show(status, describe_status(status), args.json)
        return 0
    if args.worktree_action == "remove":
        deleted = await kernel.worktrees.remove(args.id, branch=not args.keep_branch, force=args.force)
        print(json.dumps({"deleted": deleted}) if args.json
              else f"Removed the worktree and deleted {len(deleted)} session(s).")
        return 0
    if args.preview:
        preview = await kernel.worktrees.merge_preview(args.id)
        _show(preview, describe_preview(preview), args.json)
        return 0
    result = await kernel.worktrees.merge_back(args.id, "rebase" if args.rebase else "merge")
    if args.json:
        print(json.dumps(asdict(result), ensure_ascii=False))
    else:
        print(visible(result.message))
        for name in result.conflicts:
            print(visible(f"  conflict: {name}"))
    return 0 if result.merged else 1


def _show(value: WorktreeStatus | MergePreview, text: str, as_json: bool) -> None:
    print(json.dumps(asdict(value), ensure_ascii=False) if as_json else visible(text))


def describe_status(status: WorktreeStatus) -> str:
    """One worktree's state in lines a person reads."""
    lines = [f"{status.path}", f"branch {status.branch or '(detached)'}, base {status.base or '(none)'} "
             f"in {status.repository}", f"{status.ahead} commit(s) ahead, {status.behind} behind, "
             f"{len(status.changed)} uncommitted file(s)"]
    lines += [f"  {name}" for name in status.changed]
    return "\n".join(lines)


def describe_preview(preview: MergePreview) -> str:
    """The files and hunks a merge back would bring into the base."""
    st = preview.status
    lines = [f"'{st.branch}' against '{st.base}': {len(preview.files)} file(s), {st.ahead} commit(s)"]
    lines += [f"  {f.path}  " + ("binary" if f.added < 0 else f"+{f.added} -{f.removed}")
              for f in preview.files]
    return "\n".join([*lines, "", preview.patch + ("\n… (diff cut here)" if preview.truncated else "")])
