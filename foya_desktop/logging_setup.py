"""Logging to ``<data dir>/logs/foya.log``. Nothing secret is ever logged:
keys are never passed to a logger, and provider errors carry no headers."""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
from typing import cast

from foya_desktop.store.home import PRIVATE_FILE, Home, tighten


class _PrivateLog(logging.handlers.RotatingFileHandler):
    """The rotating log, its files created ``0600`` whatever the umask (``store.home``); rotated
    ones are renamed, so they keep that mode."""

    def _open(self) -> io.TextIOWrapper:
        def private(path: str, flags: int) -> int:
            fd = os.open(path, flags, PRIVATE_FILE)
            os.fchmod(fd, PRIVATE_FILE)
            return fd

        return cast(io.TextIOWrapper, open(self.baseFilename, self.mode, encoding=self.encoding,
                                           errors=self.errors, opener=private))


def setup_logging(home: Home, *, verbose: bool = False) -> None:
    """Rotating file log in the data directory; stderr (warnings only) if it cannot be written."""
    handler: logging.Handler
    try:
        home.ensure()
        for old in home.logs.glob("foya.log*"):  # written by an older Foya under a lax umask
            tighten(old)
        handler = _PrivateLog(home.logs / "foya.log", maxBytes=2_000_000, backupCount=3, encoding="utf-8")
    except OSError:
        # a read-only or full data folder must not stop reading commands: log to stderr instead
        handler = logging.StreamHandler()
        handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.addHandler(handler)
    for noisy in ("httpx", "httpcore", "peewee", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    exposed = home.exposure() if isinstance(handler, _PrivateLog) else None
    if exposed is not None:
        logging.getLogger(__name__).warning(exposed)
