"""Which images belong to "the same reply" (the viewer shows them; browser.py opens it).

A reply is one VP's share of one turn: its assistant messages and the
results of its tool calls (images a tool returned sit at that tool). The
person's own message is its own gallery. Messages without a turn id (old or
imported ones) are not guessed into a group: they form a gallery alone.

Pure grouping, no widgets: the viewer (``viewer.py``) shows a list of
``GalleryImage`` and ``browser.py`` connects thumbnail clicks to it, so the
import order is gallery ← viewer ← browser, without a circle.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from foya_desktop.core.messages import ImagePart, Message, ToolCallPart, ToolResultPart
from foya_desktop.ui.timeline.model import TimelineModel
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.summaries import summarize_args


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
    return (
        QCoreApplication.translate("Gallery", "Your attachment")
        if message.role == "user"
        else QCoreApplication.translate("Gallery", "Image")
    )
