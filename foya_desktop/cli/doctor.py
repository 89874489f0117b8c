"""``foya doctor``: SQLite's full consistency check of the database, now.

An open checks the file in full only when it has to (``store/integrity.py``: after an unclean
shutdown, before a migration); this is the check on demand. It opens no kernel and writes
nothing to the database, so it runs beside the window and on a file the window refuses. The
verdict is kept either way: a failure makes every later open refuse the file with the same
sentence (until a restored or repaired file takes its place), a pass lifts an earlier failure
of this file (after an in-place repair) and spares the next open's check.

Exit codes: 0 sound, 14 damaged (the corrupt sentence naming the newest backup), and the
storage faults' own codes when the file cannot be read at all (docs/data.md "When storage fails").
"""

from __future__ import annotations

import argparse
from typing import Any

from foya_desktop.core.errors import DatabaseCorrupt
from foya_desktop.store import integrity
from foya_desktop.store.home import default_home


def add_doctor_parser(sub: Any) -> None:
    """``foya doctor``."""
    sub.add_parser("doctor", help="check the database in full (SQLite's quick_check) and say whether "
                   "it is sound; damaged: exit 14")


def doctor_command(_args: argparse.Namespace) -> int:
    """Check, print the verdict; a damaged database is the store's corrupt error (exit 14)."""
    home = default_home()
    if not home.database.exists():
        print(f"There is no database at {home.database} yet; nothing to check.")
        return 0
    verdict = integrity.verify(home)
    if not verdict.sound:
        raise DatabaseCorrupt(verdict.detail)
    print(f"The database {home.database} ({verdict.size / 1e6:,.1f} MB) passed SQLite's consistency "
          f"check in {verdict.seconds:.1f} s.")
    return 0
