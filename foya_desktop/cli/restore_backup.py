"""``foya restore-backup``: put the newest backup (or a named one) in place of a damaged database.

The same careful restore the window's storage-fault dialog offers (``store/restore.py``): the
backup is checked first, the damaged file is renamed aside (never deleted), the backup is
copied in with SQLite's backup API. It opens no kernel: the database it replaces is the one
that cannot be opened. Refused while another Foya process uses the data folder.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from foya_desktop.store.home import default_home
from foya_desktop.store.restore import restore_newest_backup


def add_restore_backup_parser(sub: Any) -> None:
    """``foya restore-backup [--from FILE]``."""
    p = sub.add_parser("restore-backup", help="replace a damaged database with its newest backup "
                       "(the damaged file is kept beside it)")
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="restore this backup file instead of the newest one in the data folder's backups/")


def restore_backup_command(args: argparse.Namespace) -> int:
    """Restore and say what was done."""
    home = default_home()
    restored = restore_newest_backup(home, Path(args.source).expanduser() if args.source else None)
    print(f"Restored {restored.backup} as {home.database}.")
    if restored.damaged_copy is not None:
        print(f"The damaged database is kept as {restored.damaged_copy} "
              "(for a repair with sqlite3 .recover).")
    return 0
