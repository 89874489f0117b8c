"""A tiny X11 app for the real-drag test: a file "icon" to drag and Foya's composer to drop on.

Run by ``tests/ui/test_real_drag.py`` under Xvfb; it prints the global centres
of the source and the composer, then, once a drop attached something (or after
a timeout), the attachments as JSON, and exits.
"""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import QMimeData, QPoint, Qt, QTimer, QUrl
from PySide6.QtGui import QDrag, QMouseEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QWidget

from foya_desktop.ui.composer.composer import Composer


class FileIcon(QLabel):
    """Starts a real QDrag carrying a file URL when dragged."""

    def __init__(self, path: str) -> None:
        super().__init__(f"  {path.rsplit('/', 1)[-1]}  ")
        self.path = path
        self.setFixedSize(140, 80)
        self.setStyleSheet("background: #ccd; border: 1px solid #88a;")
        self._pressed: QPoint | None = None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._pressed = event.position().toPoint()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pressed is None or (event.position().toPoint() - self._pressed).manhattanLength() < 8:
            return
        data = QMimeData()
        data.setUrls([QUrl.fromLocalFile(self.path)])
        drag = QDrag(self)
        drag.setMimeData(data)
        self._pressed = None
        drag.exec(Qt.DropAction.CopyAction)


def main() -> None:
    app = QApplication(sys.argv[:1])
    window = QWidget()
    row = QHBoxLayout(window)
    icon = FileIcon(sys.argv[1])
    composer = Composer()
    composer.setMinimumSize(420, 160)
    row.addWidget(icon)
    row.addWidget(composer)
    composer.files_chosen.connect(lambda paths: _report(app, paths))
    window.move(0, 0)
    window.show()

    def announce() -> None:
        a = icon.mapToGlobal(icon.rect().center())
        b = composer.mapToGlobal(composer.rect().center())
        print(json.dumps({"source": [a.x(), a.y()], "target": [b.x(), b.y()]}), flush=True)

    QTimer.singleShot(800, announce)
    QTimer.singleShot(20_000, app.quit)
    app.exec()


def _report(app: QApplication, paths: list[str]) -> None:
    print(json.dumps({"dropped": paths}), flush=True)
    QTimer.singleShot(100, app.quit)


if __name__ == "__main__":
    main()
