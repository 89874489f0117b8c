"""What git says about a repository and its worktrees (blocking calls: run them off the loop).

Everything a worktree session shows is read from git when asked, never stored:
the branch checked out in the session's folder, its uncommitted files, and how
far it is ahead of (and behind) the *base* — the branch checked out in the
repository's main folder, which is where *Merge back* merges into.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.worktrees.git import run_git


@dataclass(frozen=True, slots=True)
class Checkout:
    """One entry of ``git worktree list``: a folder and the branch checked out there."""

    path: Path
    branch: str
    """Short branch name; empty when the HEAD is detached."""


@dataclass(frozen=True, slots=True)
class Linked:
    """A folder that is a linked worktree, and the repository's main worktree."""

    path: Path
    main: Checkout


def toplevel(folder: Path) -> Path | None:
    """The top of the worktree ``folder`` is in, or ``None`` when it is in no git repository."""
    done = run_git(folder, "rev-parse", "--show-toplevel")
    return Path(done.out.strip()).resolve() if done.ok and done.out.strip() else None


def checkouts(top: Path) -> list[Checkout]:
    """Every worktree of the repository, the main one first (``git worktree list --porcelain``)."""
    done = run_git(top, "worktree", "list", "--porcelain", "-z")
    if not done.ok:
        raise InvalidOperation(f"git could not list the worktrees of {top}: {done.sentence()}.")
    found: list[Checkout] = []
    path: Path | None = None
    branch = ""
    for line in [*done.out.split("\0"), ""]:
        if line.startswith("worktree "):
            path, branch = Path(line.removeprefix("worktree ")), ""
        elif line.startswith("branch "):
            branch = line.removeprefix("branch ").removeprefix("refs/heads/")
        elif not line and path is not None:
            found.append(Checkout(path, branch))
            path = None
    return found


def linked(folder: Path) -> Linked | None:
    """``folder``'s worktree and the main one when ``folder`` is the top of a *linked* worktree
    (its ``.git`` is a file), else ``None``. The cheap file test first: the sidebar asks for
    every session."""
    if not (folder / ".git").is_file():
        return None
    top = toplevel(folder)
    if top is None or top != folder.resolve():
        return None
    listed = checkouts(top)
    if len(listed) < 2 or listed[0].path.resolve() == top:
        return None
    return Linked(top, listed[0])


def branch_exists(top: Path, name: str) -> bool:
    """A local branch ``name`` exists."""
    return run_git(top, "show-ref", "--verify", "--quiet", f"refs/heads/{name}").ok


def valid_branch_name(top: Path, name: str) -> bool:
    """git accepts ``name`` as a branch name."""
    return run_git(top, "check-ref-format", "--branch", name).ok


def current_branch(folder: Path) -> str:
    """The branch checked out in ``folder`` (empty when detached)."""
    done = run_git(folder, "symbolic-ref", "--quiet", "--short", "HEAD")
    return done.out.strip() if done.ok else ""


def changed_files(folder: Path) -> list[str]:
    """Uncommitted changes in the worktree at ``folder``, untracked files included."""
    done = run_git(folder, "status", "--porcelain=v1", "-z", "--untracked-files=all")
    if not done.ok:
        raise InvalidOperation(f"git could not read the state of {folder}: {done.sentence()}.")
    entries = done.out.split("\0")
    files: list[str] = []
    skip = False
    for entry in entries:
        if skip:
            skip = False
            continue
        if len(entry) > 3:
            files.append(entry[3:])
            skip = entry[0] in "RC"  # a rename's old name follows
    return files


def ahead_behind(folder: Path, base: str, branch: str) -> tuple[int, int]:
    """Commits of ``branch`` not in ``base``, and of ``base`` not in ``branch``."""
    done = run_git(folder, "rev-list", "--left-right", "--count", f"{base}...{branch}")
    if not done.ok:
        return 0, 0
    behind, ahead = (int(n) for n in done.out.split())
    return ahead, behind


def conflicted(folder: Path) -> list[str]:
    """Files git left with conflicts in ``folder``."""
    done = run_git(folder, "diff", "--name-only", "--diff-filter=U", "-z")
    return [name for name in done.out.split("\0") if name]


def slug(title: str) -> str:
    """A branch name made of a session's title (``Fix the login page`` → ``fix-the-login-page``)."""
    words = re.sub(r"[^\w]+", "-", title.casefold()).strip("-")
    return words[:48].rstrip("-") or "session"
