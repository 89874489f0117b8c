"""Where Foya keeps its data. ``FOYA_HOME`` moves all of it.

Nothing outside this directory is written by Foya itself (API keys go to the
OS keyring, which the OS owns).

What Foya keeps here is private whatever the umask: the folders it makes are
``0700``, the database with its ``-wal``/``-shm``, the backups and the logs
``0600`` (SQLite gives ``-wal``/``-shm`` the database file's own mode). A data
folder that already existed (``FOYA_HOME`` pointing at one) keeps its mode —
it is the person's folder, and may hold other things — but what Foya keeps in
it is tightened, and :meth:`Home.exposure` gives the sentence the log says.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

APP_NAME = "foya-desktop"
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600


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
        """Create the directories (owner-only, whatever the umask) and return self.

        The data folder is made ``0700`` when Foya creates it; one that existed is left as it is
        (see :meth:`exposure`). Foya's own folders in it are made, or tightened to, owner-only.
        """
        created = not self.root.exists()
        self.root.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
        if created:
            os.chmod(self.root, PRIVATE_FOLDER)
        for path in (self.artifacts, self.logs):
            private_folder(path)
        return self

    def exposure(self) -> str | None:
        """The sentence for the log when the data folder lets other users in (``None``: it does not)."""
        try:
            mode = stat.S_IMODE(self.root.stat().st_mode)
        except OSError:
            return None
        if not mode & 0o077:
            return None
        return (f"The data folder {self.root} lets other users in (mode {mode:04o}); Foya keeps its "
                "own files in it private (0600, folders 0700) and leaves the folder's mode as it is. "
                f"Run `chmod 700 {self.root}` to hide their names too.")


def private_folder(path: Path) -> None:
    """Make the folder ``path`` (and missing parents) owner-only, or tighten it to that."""
    created = not path.exists()
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    if created:
        os.chmod(path, PRIVATE_FOLDER)  # the umask may have taken the owner's own bits
    else:
        tighten(path)


def create_private(path: Path) -> None:
    """Create ``path`` as an empty owner-only file (``0600`` whatever the umask): a database or a
    backup that SQLite then fills (SQLite keeps the mode of a file it finds, and gives its
    ``-wal``/``-shm``/``-journal`` the same)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)


def tighten(path: Path) -> None:
    """Take group and other users' bits off ``path`` if it has any (files an older Foya made under
    a lax umask). Quietly nothing where it cannot: a read-only folder, a file not ours."""
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, mode & ~0o077)


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
