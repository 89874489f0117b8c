"""Logging to ``<data dir>/logs/foya.log``. Nothing secret is ever logged:
keys are never passed to a logger, and provider errors carry no headers."""

from __future__ import annotations

import logging
import logging.handlers

from foya_desktop.store.home import Home


def setup_logging(home: Home, *, verbose: bool = False) -> None:
    """Rotating file log in the data directory; stderr (warnings only) if it cannot be written."""
    handler: logging.Handler
    try:
        home.ensure()
        handler = logging.handlers.RotatingFileHandler(home.logs / "foya.log", maxBytes=2_000_000,
                                                       backupCount=3, encoding="utf-8")
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
