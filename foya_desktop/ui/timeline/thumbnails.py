"""Image thumbnails for the timeline, loaded from artifacts off the paint path.

Painting must never wait for disk. The first paint of an image asks for its
bytes asynchronously and draws a placeholder of the *same size*; when the
bytes arrive the view repaints. Because the box size is fixed, loading never
changes a row's height, so no re-layout and no scroll jump.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import QImage, QPixmap

THUMB_SIZE = QSize(180, 120)

ArtifactReader = Callable[[str], Awaitable[bytes]]


class ThumbnailCache(QObject):
    """Scaled pixmaps by artifact hash, loaded on first request.

    Signals:
        loaded(str): the thumbnail for this artifact hash is ready (or failed for good).
    """

    loaded = Signal(str)

    def __init__(self, reader: ArtifactReader | None = None, capacity: int = 200,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.reader = reader
        self._capacity = capacity
        self._pixmaps: OrderedDict[str, QPixmap | None] = OrderedDict()
        self._loading: dict[str, asyncio.Task[None]] = {}

    def get(self, sha: str) -> QPixmap | None:
        """The thumbnail if ready; otherwise ``None`` and a load is started."""
        if sha in self._pixmaps:
            self._pixmaps.move_to_end(sha)
            return self._pixmaps[sha]
        if self.reader is not None and sha not in self._loading:
            self._loading[sha] = asyncio.ensure_future(self._load(sha, self.reader))
        return None

    def failed(self, sha: str) -> bool:
        """The artifact could not be read or decoded (draw a "missing" box)."""
        return sha in self._pixmaps and self._pixmaps[sha] is None

    async def _load(self, sha: str, reader: ArtifactReader) -> None:
        try:
            data = await reader(sha)
        except Exception:
            data = b""
        finally:
            self._loading.pop(sha, None)
        image = QImage.fromData(data) if data else QImage()
        pixmap = None
        if not image.isNull():
            pixmap = QPixmap.fromImage(image.scaled(
                THUMB_SIZE, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation))
        self._pixmaps[sha] = pixmap
        while len(self._pixmaps) > self._capacity:
            self._pixmaps.popitem(last=False)
        self.loaded.emit(sha)
