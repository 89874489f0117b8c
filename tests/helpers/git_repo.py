"""Real git repositories in temporary folders, for the worktree tests."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` as the person would (their git, no overrides); its output."""
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def make_repo(path: Path, files: dict[str, str] | None = None) -> Path:
    """A repository on branch ``main`` with one commit of ``files`` (an identity in its own config)."""
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "Test Person")
    git(path, "config", "user.email", "person@example.com")
    for name, text in (files or {"a.txt": "one\ntwo\nthree\n"}).items():
        (path / name).write_text(text)
    commit_all(path, "first")
    return path


def commit_all(path: Path, message: str) -> None:
    """Commit everything in the worktree at ``path``."""
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", message)
