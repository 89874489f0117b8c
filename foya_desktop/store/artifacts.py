"""Content-addressed blob files: ``artifacts/ab/abcdef…`` named by sha256.

Writes go to a temporary file that is fsynced and renamed, so a crash never
leaves a half-written blob under its final name.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from foya_desktop.core.ids import now_ms
from foya_desktop.store.schema import ArtifactRow


class ArtifactFiles:
    """The blob directory. Blocking I/O: call from the store's worker threads."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def path_of(self, sha: str) -> Path:
        """Where the blob with this hash lives."""
        if len(sha) != 64 or any(c not in "0123456789abcdef" for c in sha):
            raise ValueError(f"not an artifact hash: {sha!r}")
        return self._root / sha[:2] / sha

    def put(self, data: bytes) -> str:
        """Store ``data`` (idempotent) and return its sha256 hex."""
        sha = hashlib.sha256(data).hexdigest()
        target = self.path_of(sha)
        if target.exists():
            return sha
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return sha

    def get(self, sha: str) -> bytes:
        """The blob's bytes; ``FileNotFoundError`` if it is gone."""
        return self.path_of(sha).read_bytes()

    def delete(self, sha: str) -> None:
        """Remove the blob if present."""
        self.path_of(sha).unlink(missing_ok=True)


def put_artifact(files: ArtifactFiles, data: bytes, mime: str) -> str:
    """Store a blob (file first, then its row) and return its sha256 (a write)."""
    sha = files.put(data)
    ArtifactRow.insert(sha=sha, mime=mime, size=len(data), created_at=now_ms()).on_conflict_ignore().execute()
    return sha
