"""Where Foya keeps its data. ``FOYA_HOME`` moves all of it.

Nothing outside this directory is written by Foya itself (API keys go to the
OS keyring, which the OS owns).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "foya-desktop"


@dataclass(frozen=True, slots=True)
class Home:
    """The data directory and the well-known paths inside it."""

    root: Path

    @property
    def database(self) -> Path:
        """The one SQLite database."""
        return self.root / "foya.sqlite3"

    @property
    def artifacts(self) -> Path:
        """Content-addressed blobs (images, file snapshots)."""
        return self.root / "artifacts"

    @property
    def logs(self) -> Path:
        """Log files (never contain API keys)."""
        return self.root / "logs"

    @property
    def backups(self) -> Path:
        """Database copies taken before a schema migration."""
        return self.root / "backups"

    @property
    def run(self) -> Path:
        """Lock files of the processes using the database (``store.leases``)."""
        return self.root / "run"

    def ensure(self) -> Home:
        """Create the directories (owner-only permissions) and return self."""
        for path in (self.root, self.artifacts, self.logs):
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
        return self


def default_home() -> Home:
    """``$FOYA_HOME`` if set, else the per-user data directory: the XDG rule on Linux (what
    platformdirs says there, without its ~25 ms import on the window's path to the first paint),
    platformdirs elsewhere."""
    override = os.environ.get("FOYA_HOME", "").strip()
    if override:
        return Home(Path(override).expanduser().resolve())
    if sys.platform.startswith("linux"):
        data = os.environ.get("XDG_DATA_HOME", "").strip()
        return Home(Path(data if data else Path.home() / ".local" / "share") / APP_NAME)
    import platformdirs

    return Home(Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)))
