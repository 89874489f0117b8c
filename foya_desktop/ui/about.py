"""Help ▸ About Foya: which Foya this is, in the words ``foya --version`` uses.

The version is ``foya_desktop.__version__``, read from the installed metadata, i.e. the one in
``pyproject.toml``: the window, the command line, the wheel, the bundle and the .deb cannot
disagree. A non-modal box (``open``), so the window's event loop and its tests keep running.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from foya_desktop.ui.icons import app_icon

HOMEPAGE = "https://github.com/foya/foya-desktop"


def _tr(text: str) -> str:
    return QCoreApplication.translate("About", text)


def about_text() -> str:
    """The box's rich text: name and version, what Foya is, licence, where it lives."""
    from foya_desktop import __version__

    return (f"<h3>Foya {__version__}</h3>"
            f"<p>{_tr('A desktop workbench for AI agents.')}</p>"
            f"<p>{_tr('Free software under the MIT licence.')}<br>"
            f'<a href="{HOMEPAGE}">{HOMEPAGE}</a></p>')


def show_about(parent: QWidget) -> QMessageBox:
    """Open the About box over ``parent``; return it (it deletes itself when closed)."""
    box = QMessageBox(parent)
    box.setWindowTitle(_tr("About Foya"))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(about_text())
    box.setIconPixmap(app_icon().pixmap(64, 64))
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
