"""A cheap before/after scan of the workdir around shell commands.

Commands can change any file; we cannot keep old contents cheaply, but
(size, mtime) snapshots tell which files a command touched, so rewind can
list them as "changed by a command" instead of pretending to restore them.
"""

from __future__ import annotations

import os
from pathlib import Path

SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".ruff_cache",
             ".pytest_cache", ".tox", "dist", "build", ".hypothesis"}
MAX_FILES = 50_000

Snapshot = dict[str, tuple[int, int]]


def scan_tree(root: Path) -> Snapshot:
    """``{relative path: (size, mtime_ns)}`` for regular files, bounded in count."""
    out: Snapshot = {}
    if not root.is_dir():
        return out
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            full = os.path.join(dirpath, name)
            try:
                st = os.lstat(full)
            except OSError:
                continue
            out[os.path.relpath(full, root).replace(os.sep, "/")] = (st.st_size, st.st_mtime_ns)
            if len(out) >= MAX_FILES:
                return out
    return out


def changed_paths(before: Snapshot, after: Snapshot) -> list[str]:
    """Paths created, deleted or modified between two snapshots, sorted."""
    keys = before.keys() | after.keys()
    return sorted(k for k in keys if before.get(k) != after.get(k))
