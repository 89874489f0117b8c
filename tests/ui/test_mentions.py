"""``@`` completion accepts with Enter or Tab (the popup's key, not a send), and a mention that
matches nobody on the roster is shown as a warning before sending (Y27)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from foya_desktop.ui.composer.composer import Composer


@pytest.mark.parametrize("key", [Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab])
def test_completion_accepts_with_enter_or_tab(qtbot: QtBot, key: Qt.Key) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    composer.set_mentions(["Omni", "Linus", "Martin"], "Omni")
    sends: list[int] = []
    composer.send_requested.connect(lambda: sends.append(1))
    qtbot.keyClicks(composer.input, "ask @Ma")
    popup = composer.input.completer().popup()
    assert popup.isVisible()
    qtbot.keyClick(popup, key)
    QApplication.processEvents()
    assert composer.input.toPlainText() == "ask @Martin "
    assert sends == [] and not popup.isVisible()


def test_unknown_mention_is_a_warning_before_sending(qtbot: QtBot) -> None:
    composer = Composer()
    qtbot.addWidget(composer)
    composer.show()
    composer.set_mentions(["Omni", "Linus"], "Omni")
    qtbot.keyClicks(composer.input, "@linus and @Ghost please")
    assert composer.unknown_mentions() == ["Ghost"]
    assert composer.mention_warning.isVisible()
    assert "@Ghost is not on this session's roster" in composer.mention_warning.text()
    assert "@Omni, @Linus" in composer.mention_warning.text()
    composer.input.setPlainText("@Linus only")
    assert not composer.mention_warning.isVisible()
    composer.input.setPlainText("mail me at a@b.c")  # not a mention
    assert not composer.mention_warning.isVisible()
