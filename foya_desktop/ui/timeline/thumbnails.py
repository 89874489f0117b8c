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

from PySide6.QtCore import QCoreApplication, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import QImage, QPixmap

from foya_desktop.ui import theme
from foya_desktop.ui.timeline.canvas import Canvas

THUMB_SIZE = QSize(144, 96)
"""Compact: a reply with a few screenshots stays a reply, not a gallery."""
THUMB_GAP = 8

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
                THUMB_SIZE - QSize(4, 4), Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation))
        self._pixmaps[sha] = pixmap
        while len(self._pixmaps) > self._capacity:
            self._pixmaps.popitem(last=False)
        self.loaded.emit(sha)


def thumbnail_strip(c: Canvas, shas: list[str], x: int, width: int, cache: ThumbnailCache | None) -> None:
    """Thumbnails side by side, wrapping to more lines when the column is narrow.

    Each box is recorded in ``c.images`` so a click can open the viewer on it.
    """
    step = THUMB_SIZE.width() + THUMB_GAP
    per_line = max(1, (width + THUMB_GAP) // step)
    for start in range(0, len(shas), per_line):
        for i, sha in enumerate(shas[start:start + per_line]):
            box = QRect(x + i * step, c.y, THUMB_SIZE.width(), THUMB_SIZE.height())
            c.images.append((box, sha))
            if c.painter is not None:
                _thumbnail(c, box, sha, cache)
        c.space(THUMB_SIZE.height() + THUMB_GAP)


def _thumbnail(c: Canvas, box: QRect, sha: str, cache: ThumbnailCache | None) -> None:
    """One box: the picture centred on a quiet frame, a placeholder while loading, or "missing"."""
    assert c.painter is not None
    c.rounded_rect(box, theme.code_background(), 6, theme.dim_color())
    pixmap = cache.get(sha) if cache is not None else None
    target = box.translated(c.left, c.top)
    if pixmap is not None:
        left = target.x() + (target.width() - pixmap.width()) // 2
        top = target.y() + (target.height() - pixmap.height()) // 2
        c.painter.drawPixmap(left, top, pixmap)
    elif cache is not None and cache.failed(sha):
        c.painter.setPen(theme.dim_color())
        c.painter.setFont(theme.small_font())
        c.painter.drawText(
            target, Qt.AlignmentFlag.AlignCenter, QCoreApplication.translate("Thumbnails", "image missing")
        )
