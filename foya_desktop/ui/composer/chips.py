"""The attachment chips above the composer input: thumbnail or file mark, name, size, remove.

A chip names what will be sent and how big it is, so a person sees at a
glance that the screenshot is there (thumbnail) and which text files go as
their content; ✕ removes one before sending.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from foya_desktop.ui import theme
from foya_desktop.ui.composer.attachments import Attachment

THUMB = 36


class AttachmentChips(QWidget):
    """A row of chips, one per attachment (hidden when there are none).

    Signals:
        remove_requested(int): ✕ on the chip at this position.
    """

    remove_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 2)
        self._row.setSpacing(6)
        self.hide()

    def set_attachments(self, attachments: list[Attachment]) -> None:
        """Show exactly these attachments."""
        while self._row.count():
            item = self._row.takeAt(0)
            if item is not None and (widget := item.widget()) is not None:
                widget.deleteLater()
        for index, att in enumerate(attachments):
            self._row.addWidget(self._chip(index, att))
        self._row.addStretch(1)
        self.setVisible(bool(attachments))

    def chip_texts(self) -> list[str]:
        """Name and size of every chip, in order (tests)."""
        return [label.text() for label in self.findChildren(QLabel, "chipName")
                if not label.isHidden() or not self.isVisible()]

    def _chip(self, index: int, att: Attachment) -> QFrame:
        chip = QFrame()
        chip.setObjectName("attachmentChip")
        chip.setStyleSheet("#attachmentChip { border: 1px solid palette(mid); border-radius: 6px; }")
        row = QHBoxLayout(chip)
        row.setContentsMargins(4, 2, 2, 2)
        row.setSpacing(4)
        mark = QLabel()
        mark.setObjectName("chipThumb" if att.kind == "image" else "chipMark")
        if att.kind == "image" and not (pixmap := _thumbnail(att.data)).isNull():
            mark.setPixmap(pixmap)
        else:
            mark.setText("📄" if theme.has_emoji_font() else "TXT")
            mark.setFont(theme.small_font())
        row.addWidget(mark)
        name = QLabel(f"{att.name} · {att.size_text}")
        name.setObjectName("chipName")
        name.setFont(theme.small_font())
        name.setToolTip(self.tr("Sent to the model as an image") if att.kind == "image"
                        else self.tr("Sent as the file's text inside the message"))
        row.addWidget(name)
        remove = QToolButton()
        remove.setText("✕")
        remove.setAutoRaise(True)
        remove.setToolTip(self.tr("Remove {name}").format(name=att.name))
        remove.setObjectName("chipRemove")
        remove.clicked.connect(lambda _=False, i=index: self.remove_requested.emit(i))
        row.addWidget(remove)
        return chip

    def remove_buttons(self) -> list[QToolButton]:
        """The ✕ buttons in chip order (tests)."""
        return self.findChildren(QToolButton, "chipRemove")

    def thumbnails(self) -> list[QLabel]:
        """The image thumbnails shown (tests)."""
        return [label for label in self.findChildren(QLabel, "chipThumb") if label.pixmap() is not None
                and not label.pixmap().isNull()]


def _thumbnail(data: bytes) -> QPixmap:
    image = QImage.fromData(data)
    if image.isNull():
        return QPixmap()
    return QPixmap.fromImage(image.scaled(THUMB, THUMB, Qt.AspectRatioMode.KeepAspectRatio,
                                          Qt.TransformationMode.SmoothTransformation))
