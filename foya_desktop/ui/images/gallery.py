"""Which images belong to "the same reply", and opening the viewer on them.

A reply is one VP's share of one turn: its assistant messages and the
results of its tool calls (images a tool returned sit at that tool). The
person's own message is its own gallery. Messages without a turn id (old or
imported ones) are not guessed into a group: they form a gallery alone.

Clicking a thumbnail opens the one viewer of the window on it (reused, so
clicking another thumbnail re-targets it instead of stacking dialogs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from foya_desktop.core.messages import ImagePart, Message, ToolCallPart, ToolResultPart
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.summaries import summarize_args
from foya_desktop.ui.timeline.view import TimelineView

if TYPE_CHECKING:
    from foya_desktop.ui.images.viewer import ArtifactReader, ImageViewer


@dataclass(frozen=True, slots=True)
class GalleryImage:
    """One image of a reply."""

    sha: str
    """Artifact hash of the bytes."""
    caption: str
    """Where it came from: the tool and its argument, or the attachment's name."""
    row_key: str
    """The timeline row it is drawn in (tells apart the same image shown twice)."""


def reply_images(model: TimelineModel, row_index: int) -> list[GalleryImage]:
    """Every image of the reply that row ``row_index`` belongs to."""
    row = model.row_at(row_index)
    if not isinstance(row, MessageRow):
        return []
    message = row.message
    if message.role == "user" or not message.turn_id:
        return row_images(row)
    same = (message.turn_id, message.speaker)
    rows = (model.row_at(i) for i in range(model.rowCount()))
    return [image for r in rows if isinstance(r, MessageRow) and r.message.role != "user"
            and (r.message.turn_id, r.message.speaker) == same for image in row_images(r)]


def row_images(row: MessageRow) -> list[GalleryImage]:
    """The images one row draws, top to bottom."""
    message = row.message
    out: list[GalleryImage] = []
    result = message.tool_result if message.role == "tool" else None
    if result is not None:
        out += _result_images(result, result.name, row.key)
    for part in message.parts:
        if isinstance(part, ImagePart):
            out.append(GalleryImage(part.artifact, part.name or _attachment(message), row.key))
        elif isinstance(part, ToolCallPart):
            found = row.result_for(part.call_id)
            if found is not None:
                out += _result_images(found, _call_caption(part), row.key)
    return out


def _result_images(result: ToolResultPart, caption: str, key: str) -> list[GalleryImage]:
    return [GalleryImage(i.artifact, i.name or caption, key) for i in result.images]


def _call_caption(call: ToolCallPart) -> str:
    args = summarize_args(call.arguments)
    return f"{call.name} · {args}" if args else call.name


def _attachment(message: Message) -> str:
    return "Your attachment" if message.role == "user" else "Image"


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
        from foya_desktop.ui.images.viewer import ImageViewer

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
