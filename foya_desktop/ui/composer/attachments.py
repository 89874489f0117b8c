"""What may be attached to a message, and how dropped, pasted or picked things become attachments.

One set of rules for every way in (drop on the composer or the timeline,
paste, the attach button):

* Images (PNG, JPEG, GIF, WebP — the type read from the bytes, never the
  name) up to ``MAX_IMAGE_BYTES`` go to the model with the message.
* Text files (valid UTF-8, no NUL bytes) up to ``MAX_TEXT_BYTES`` are sent
  as their content, fenced and named, inside the message text.
* Other files are refused, with the reason. A dropped folder becomes a path
  mention in the text (the agent reads it with its tools), never a file.

Reading files happens off the GUI thread (``read_paths``).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice, QMimeData
from PySide6.QtGui import QImage

from foya_desktop.tools.common import image_mime

MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_TEXT_BYTES = 256 * 1024
MAX_ATTACHMENTS = 10


def limits_text() -> str:
    """The attachment limits in one sentence (the attach button's tooltip)."""
    return QCoreApplication.translate(
        "Attachments", "Images up to {image_mb} MB (PNG, JPEG, GIF, WebP); text files up to {text_kb} KB; "
        "at most {count} per message.").format(
        image_mb=MAX_IMAGE_BYTES // 2**20, text_kb=MAX_TEXT_BYTES // 1024, count=MAX_ATTACHMENTS)


@dataclass(frozen=True, slots=True)
class Attachment:
    """One thing attached to the next message."""

    kind: Literal["image", "text"]
    name: str
    data: bytes

    @property
    def size_text(self) -> str:
        """The size as a person reads it."""
        return human_size(len(self.data))


@dataclass(slots=True)
class Intake:
    """What a drop, paste or pick produced."""

    attachments: list[Attachment] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    """One sentence per refused item."""
    mentions: list[str] = field(default_factory=list)
    """Folders (and non-file URLs) to mention in the text."""

    def extend(self, other: Intake) -> None:
        """Add another intake's findings."""
        self.attachments += other.attachments
        self.refusals += other.refusals
        self.mentions += other.mentions


def human_size(size: int) -> str:
    """``532 B``, ``14 KB``, ``3.2 MB``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size // 1024} KB"
    return f"{size / 2**20:.1f} MB"


def classify(name: str, data: bytes) -> Attachment | str:
    """An attachment, or the sentence saying why ``data`` cannot be attached."""
    if image_mime(data[:16]) is not None:
        if len(data) > MAX_IMAGE_BYTES:
            return QCoreApplication.translate(
                "Attachments", "{name} is {size}; images can be at most {limit} MB.").format(
                name=name, size=human_size(len(data)), limit=MAX_IMAGE_BYTES // 2**20)
        return Attachment("image", name, data)
    if b"\x00" not in data[:8192]:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if len(data) > MAX_TEXT_BYTES:
                return QCoreApplication.translate(
                    "Attachments", "{name} is {size}; text files can be at most {limit} KB. Mention its "
                    "path instead and let the agent read it.").format(
                    name=name, size=human_size(len(data)), limit=MAX_TEXT_BYTES // 1024)
            return Attachment("text", name, data)
    return QCoreApplication.translate(
        "Attachments", "{name} is neither an image (PNG, JPEG, GIF, WebP) nor a UTF-8 text file, so it "
        "cannot be attached. Mention its path instead.").format(name=name)


def read_path(path: str) -> Intake:
    """Classify one dropped or picked path (blocking: run it on a worker thread)."""
    found = Intake()
    target = Path(path)
    if target.is_dir():
        found.mentions.append(path.rstrip(os.sep) + os.sep)
        return found
    try:
        size = target.stat().st_size
        if size > max(MAX_IMAGE_BYTES, MAX_TEXT_BYTES):
            found.refusals.append(QCoreApplication.translate(
                "Attachments", "{name} is {size}; that is too large to attach.").format(
                name=target.name, size=human_size(size)))
            return found
        data = target.read_bytes()
    except OSError as error:
        found.refusals.append(QCoreApplication.translate(
            "Attachments", "{name} could not be read: {reason}.").format(
            name=target.name, reason=error.strerror or error))
        return found
    outcome = classify(target.name, data)
    if isinstance(outcome, str):
        found.refusals.append(outcome)
    else:
        found.attachments.append(outcome)
    return found


async def read_paths(paths: Sequence[str]) -> Intake:
    """Classify several paths off the GUI thread."""
    found = Intake()
    for path in paths:
        found.extend(await asyncio.to_thread(read_path, path))
    return found


def png_bytes(image: QImage) -> bytes:
    """``image`` encoded as PNG.

    NOTE: PySide6 6.12 rejects ``image.save(buffer, b"PNG")`` with a ValueError although its
    signature names ``bytes``; the format must be passed as ``str``.
    """
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes; see NOTE
    buffer.close()
    return bytes(array.data()) if ok else b""


def mime_intake(source: QMimeData, pasted_index: int) -> tuple[list[str], Intake]:
    """Split dropped or pasted data: local files (to read off the GUI thread) and the rest.

    Returns (local paths, intake of what needed no reading: an image, non-file URLs).
    """
    paths: list[str] = []
    found = Intake()
    if source.hasUrls():
        for url in source.urls():
            if url.isLocalFile():
                paths.append(url.toLocalFile())
            elif url.isValid():
                found.mentions.append(url.toString())
    if not paths and source.hasImage():
        image = QImage(source.imageData())
        data = png_bytes(image) if not image.isNull() else b""
        if data:
            outcome = classify(f"pasted-{pasted_index}.png", data)
            if isinstance(outcome, str):
                found.refusals.append(outcome)
            else:
                found.attachments.append(outcome)
        else:
            found.refusals.append(
                QCoreApplication.translate("Attachments", "The pasted image could not be read.")
            )
    return paths, found


def carries_attachments(source: QMimeData) -> bool:
    """Whether a drop or paste is for us (files, URLs, an image), not plain text."""
    return source.hasUrls() or source.hasImage()


def message_text(text: str, attachments: Sequence[Attachment]) -> str:
    """The text sent: the person's words, then every text file, fenced and named."""
    blocks = [text] if text else []
    for att in attachments:
        if att.kind == "text":
            body = att.data.decode("utf-8")
            fence = "````" if "```" in body else "```"
            blocks.append(f"Attached file `{att.name}` ({att.size_text}):\n{fence}\n{body.rstrip()}\n{fence}")
    return "\n\n".join(blocks)


def images_of(attachments: Sequence[Attachment]) -> list[tuple[str, bytes]]:
    """(name, bytes) of the images, as the kernel takes them."""
    return [(a.name, a.data) for a in attachments if a.kind == "image"]
