"""Text files read once and re-read only when they change (stat per request, read on change).

Rules and skills are looked at before every model request, so an edit to
``AGENTS.md`` applies from the next request; the cost of that is one
``stat`` per candidate file, not a read.
"""

from __future__ import annotations

import threading
from pathlib import Path

MAX_FILE_BYTES = 1_000_000
"""Larger files are not read at all (a rules file that big is a mistake, reported as such)."""


class FileTooLarge(OSError):
    """The file is over :data:`MAX_FILE_BYTES`."""


class TextCache:
    """Decoded text by path, valid while (mtime, size) stay the same. Thread-safe."""

    def __init__(self) -> None:
        self._texts: dict[Path, tuple[int, int, str]] = {}
        self._lock = threading.Lock()

    def read(self, path: Path) -> str | None:
        """The file's text; ``None`` when it does not exist. Raises ``OSError``/``UnicodeError``."""
        try:
            st = path.stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        if not path.is_file():
            return None
        key = (st.st_mtime_ns, st.st_size)
        with self._lock:
            hit = self._texts.get(path)
        if hit is not None and hit[:2] == key:
            return hit[2]
        if st.st_size > MAX_FILE_BYTES:
            raise FileTooLarge(f"the file is {st.st_size:,} bytes; at most {MAX_FILE_BYTES:,} are read")
        text = path.read_bytes().decode("utf-8")
        with self._lock:
            self._texts[path] = (*key, text)
        return text
