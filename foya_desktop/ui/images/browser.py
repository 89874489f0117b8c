"""Opening the image viewer on a clicked thumbnail.

Clicking a thumbnail opens the one viewer of the window on the images of
that reply (reused, so clicking another thumbnail re-targets it instead of
stacking dialogs).
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from foya_desktop.ui.images.gallery import reply_images
from foya_desktop.ui.images.viewer import ArtifactReader, ImageViewer
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.view import TimelineView


class ImageBrowser(QObject):
    """Connects the timeline's thumbnail clicks to the image viewer.

    Signals:
        (none of its own; the viewer's ``shown`` says what is on screen)
    """

    def __init__(self, view: TimelineView, model: TimelineModel, reader: ArtifactReader,
                 window: QWidget) -> None:
        super().__init__(window)
        self._model, self._reader, self._window = model, reader, window
        self.viewer: ImageViewer | None = None
        view.timeline_delegate.image_clicked.connect(self.open_at)

    def open_at(self, row: int, sha: str) -> None:
        """Open the viewer on the thumbnail ``sha`` drawn in timeline row ``row``."""
        if not 0 <= row < self._model.rowCount():
            return
        images = reply_images(self._model, row)
        key = self._model.row_at(row).key
        index = next((i for i, image in enumerate(images) if image.sha == sha and image.row_key == key),
                     next((i for i, image in enumerate(images) if image.sha == sha), 0))
        if self.viewer is None:
            self.viewer = ImageViewer(self._reader, self._window)
        self.viewer.show_images(images, index)
        self.viewer.show()
        self.viewer.raise_()
        self.viewer.activateWindow()
