"""First run: on the welcome page, the connections Foya found, each one click away.

The search itself (environment variables, local servers on their usual ports)
is engine-side (engine/connections/discovery.py) and runs asynchronously, so
the window is up at once and the offers appear a moment later. A key found in
the environment is used by reference: the connection records the variable's
name, never the key.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from foya_desktop.engine.connections.discovery import Offer
from foya_desktop.ui import theme


class FirstRunOffers(QWidget):
    """"Found on this computer": one button per offer.

    Signals:
        chosen(object): the :class:`Offer` the person clicked.
    """

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(wordWrap=True)
        self.title.setFont(theme.scaled_font("body", bold=True))
        self.note = QLabel(wordWrap=True)
        self.note.setEnabled(False)  # secondary text colour
        self.buttons: list[QPushButton] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.title)
        self._layout.addWidget(self.note)
        self.searching()

    def searching(self) -> None:
        """The search runs."""
        self._clear()
        self.title.setText(self.tr("Looking for API keys and local model servers…"))
        self.note.hide()
        self.show()

    def set_offers(self, offers: list[Offer]) -> None:
        """What was found (an empty list says what was looked for)."""
        self._clear()
        if not offers:
            self.title.setText(self.tr("Nothing found to set up automatically."))
            self.note.setText(self.tr(
                "Foya looked for OPENAI_API_KEY, ANTHROPIC_API_KEY and other well-known key variables, "
                "and for Ollama, LM Studio, llama.cpp and vLLM on this computer."))
            self.note.show()
            return
        self.title.setText(self.tr("Found on this computer — one click creates the connection:"))
        self.note.setText(self.tr("Keys found in the environment are read from it each time; "
                                  "Foya stores only the variable's name."))
        self.note.setVisible(any(o.source == "env" for o in offers))
        for offer in offers:
            model = offer.connection.model
            text = self.tr("Use {what}").format(what=offer.label)
            if model:
                text += " · " + model
            button = QPushButton(text)
            button.setMinimumHeight(theme.HIT_SIZE)
            button.clicked.connect(lambda _=False, o=offer: self.chosen.emit(o))
            self._layout.addWidget(button)
            self.buttons.append(button)

    def _clear(self) -> None:
        for button in self.buttons:
            self._layout.removeWidget(button)
            button.deleteLater()
        self.buttons = []
