"""Text files read once and re-read only when they change, every read confined (``tools.confined_read``).

Rules and skills are looked at before every model request, so an edit to
``AGENTS.md`` applies from the next request; the cost of that is the confinement
check (a few ``lstat`` calls) per candidate file, not a read. The check runs
before every cache hit too, so a file that turned into a link out of the project
after it was cached is refused, never served from the cache.
"""

from __future__ import annotations

import threading
from pathlib import Path

from foya_desktop.tools.confined_read import Confinement, Signature, check_file, read_checked


class TextCache:
    """Decoded text by path, valid while the file's signature stays the same. Thread-safe."""

    def __init__(self) -> None:
        self._texts: dict[Path, tuple[Signature, str]] = {}
        self._lock = threading.Lock()

    def read(self, path: Path, where: Confinement) -> str | None:
        """The file's text; ``None`` when it does not exist. Raises ``Refused`` (the file may not be
        read: a link out of ``where``, a hard link, not a regular file, too large…), other
        ``OSError``s and ``UnicodeError``."""
        checked = check_file(path, where)
        if checked is None:
            return None
        with self._lock:
            hit = self._texts.get(path)
        if hit is not None and hit[0] == checked.signature:
            return hit[1]
        try:
            data, signature = read_checked(checked, where)
        except FileNotFoundError:
            return None
        text = data.decode("utf-8")
        with self._lock:
            self._texts[path] = (signature, text)
        return text
