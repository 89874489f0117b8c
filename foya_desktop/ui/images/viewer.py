"""The image viewer: one reply's images, fit to the window, browsed with ←/→.

Non-modal (``show()``, never ``exec()``: DESIGN §3): the person can keep
reading the timeline next to it. Full-size bytes are read from artifacts
asynchronously; the view shows "Loading…" meanwhile and never blocks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from PySide6.QtCore import QMargins, QSize, Qt, Signal
from PySide6.QtGui import QImage, QKeyEvent, QPixmap, QResizeEvent
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from foya_desktop.ui.images.gallery import GalleryImage

ArtifactReader = Callable[[str], Awaitable[bytes]]
PADDING = 10
"""Room around the picture so it never touches the window's edge."""
MAX_ENLARGE = 2.0
"""Small images are enlarged to fit, but at most this much (pixel art stays readable, not mush)."""


class ImageViewer(QDialog):
    """Shows one image of a list at a time; ← and → (buttons or keys) move through the list.

    Signals:
        shown(str): the artifact hash now on screen, after its bytes were loaded (or failed).
    """

    shown = Signal(str)

    def __init__(self, reader: ArtifactReader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._reader = reader
        self.images: list[GalleryImage] = []
        self.index = 0
        self._cache: dict[str, QImage] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.setWindowTitle(self.tr("Image — Foya"))
        self.setModal(False)
        self.resize(900, 660)
        self.picture = QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setMinimumSize(QSize(240, 160))
        self.picture.setStyleSheet("background: palette(dark); color: palette(bright-text);")
        self.caption = QLabel(alignment=Qt.AlignmentFlag.AlignCenter)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.prev_button = self._nav("←", self.tr("Previous image (←)"), -1)
        self.next_button = self._nav("→", self.tr("Next image (→)"), 1)
        bar = QHBoxLayout()
        bar.addWidget(self.prev_button)
        bar.addWidget(self.caption, 1)
        bar.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 8)
        layout.addWidget(self.picture, 1)
        layout.addLayout(bar)
        bar.setContentsMargins(10, 0, 10, 0)

    def _nav(self, text: str, tip: str, step: int) -> QPushButton:
        nav = QPushButton(text)
        nav.setToolTip(tip)
        nav.setAutoDefault(False)
        nav.setFixedWidth(56)
        nav.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # arrow keys stay with the viewer
        nav.clicked.connect(lambda: self.go(step))
        return nav

    @property
    def current(self) -> GalleryImage | None:
        """The image on screen."""
        return self.images[self.index] if 0 <= self.index < len(self.images) else None

    def show_images(self, images: list[GalleryImage], index: int = 0) -> None:
        """Browse ``images`` starting at ``index``."""
        self.images = list(images)
        self.index = max(0, min(index, len(images) - 1))
        self._show_current()

    def go(self, step: int) -> None:
        """Move ``step`` images forward (negative: back), staying within the list."""
        target = self.index + step
        if 0 <= target < len(self.images) and target != self.index:
            self.index = target
            self._show_current()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """← / → browse, Home / End jump; Escape closes (QDialog)."""
        moves = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1,
                 Qt.Key.Key_Home: -len(self.images), Qt.Key.Key_End: len(self.images)}
        step = moves.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        self.go(max(-self.index, min(step, len(self.images) - 1 - self.index)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Fit the image to the new size."""
        super().resizeEvent(event)
        self._paint_current()

    def _show_current(self) -> None:
        image = self.current
        count = len(self.images)
        self.prev_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < count - 1)
        self.caption.setText(f"{self.index + 1} / {count}  ·  {image.caption}" if image else "")
        if image is None:
            self.picture.clear()
        elif image.sha in self._cache:
            self._paint_current()
            self.shown.emit(image.sha)
        else:
            self.picture.setPixmap(QPixmap())
            self.picture.setText(self.tr("Loading…"))
            task = asyncio.ensure_future(self._load(image.sha))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _load(self, sha: str) -> None:
        try:
            data = await self._reader(sha)
        except Exception:
            data = b""
        self._cache[sha] = QImage.fromData(data) if data else QImage()
        current = self.current
        if current is not None and current.sha == sha:
            try:
                self._paint_current()
                self.shown.emit(sha)
            except RuntimeError:  # NOTE: the window (and this dialog) was deleted while reading
                return

    def _paint_current(self) -> None:
        current = self.current
        image = self._cache.get(current.sha) if current is not None else None
        if image is None:
            return
        if image.isNull():
            self.picture.setPixmap(QPixmap())
            self.picture.setText(self.tr("This image is missing or cannot be read."))
            return
        box = self.picture.size().shrunkBy(QMargins(PADDING, PADDING, PADDING, PADDING))
        scale = min(box.width() / image.width(), box.height() / image.height(), MAX_ENLARGE)
        size = QSize(max(1, round(image.width() * scale)), max(1, round(image.height() * scale)))
        self.picture.setPixmap(QPixmap.fromImage(image.scaled(
            size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)))

    def displayed_size(self) -> QSize:
        """Size of the picture on screen (tests check the fit)."""
        pixmap = self.picture.pixmap()
        return pixmap.size() if pixmap is not None and not pixmap.isNull() else QSize()

