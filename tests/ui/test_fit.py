"""Nothing the person must read is clipped: placeholders fit their fields, and the data folder's path in
Preferences is shortened in the middle with the whole path on hover (issue 12, look and feel: known
defect — "Why not? (optional: the agent reads it and tries anothe…" and "…t/pytest-988/…/foya-home")."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.preferences import Language, Preferences
from foya_desktop.ui import i18n
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.dialogs.preferences import PreferencesDialog
from tests.fakeprovider import FakeProviderServer
from tests.ui.helpers import settle
from tests.ui.test_dialog_looks import _dialogs


def clipped_placeholders(root: QWidget) -> list[str]:
    """Placeholders wider than the visible part of their field."""
    out = []
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root) or not isinstance(w, (QLineEdit, QPlainTextEdit, QTextEdit)):
            continue
        text = w.placeholderText()
        if not text:
            continue
        if isinstance(w, QLineEdit):
            room = w.width() - 2 * 8 - w.textMargins().left() - w.textMargins().right()
            wide = w.fontMetrics().horizontalAdvance(text)
        else:
            room = w.viewport().width() - 8
            wide = max(w.fontMetrics().horizontalAdvance(line) for line in text.splitlines())
            if w.wordWrapMode() and w.lineWrapMode() != QPlainTextEdit.LineWrapMode.NoWrap:
                continue  # a wrapping editor wraps its placeholder too
        if wide > room:
            out.append(f"{type(w).__name__} {text!r}: {wide} px in {room} px")
    return out


@pytest.mark.parametrize("language", ["en", "zh_CN"])
async def test_dialog_placeholders_fit(language: Language, real_kernel: Kernel, fake_provider: FakeProviderServer,
                                       tmp_path: Path, qapp: QApplication) -> None:
    """Connections (key and key variable), new session (folder), Preferences (model) and the rest, shown
    at their own size in English and Chinese: every placeholder is read whole."""
    i18n.install(language, qapp)
    try:
        runner = TaskRunner()
        session = await real_kernel.sessions.create_session(title="Fit", connection="fake", model="fake-model")
        problems = []
        for name, dialog in (await _dialogs(real_kernel, runner, session.id, tmp_path)).items():
            dialog.show()
            await settle(2)
            problems += [f"{name}: {p}" for p in clipped_placeholders(dialog)]
            dialog.close()
            dialog.deleteLater()
        await runner.drain()
        assert problems == [], "\n".join(problems)
    finally:
        i18n.install("en", qapp)


async def test_the_data_folder_path_is_shortened_in_the_middle_with_the_whole_path_on_hover(
        real_kernel: Kernel, tmp_path: Path, shots: Path) -> None:
    """Preferences → Data folder: a long path keeps its start and its end ("/tmp/…/foya-home"), the
    whole path is the tooltip and what Copy and ``text()`` give; Open folder stays beside it."""
    folder = tmp_path / ("a-rather-long-folder-name-" * 4) / "foya-home"
    dialog = PreferencesDialog(Preferences(), await real_kernel.connections.list_connections(), folder)
    dialog.show()
    await settle(3)
    label = dialog.folder
    shown = label.shown_text()
    assert label.text() == label.toolTip() == str(folder)
    assert "…" in shown and shown.startswith(str(folder)[:4]) and shown.endswith("foya-home")
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
    assert label.geometry().right() < dialog.open_folder.geometry().left()
    dialog.grab().save(str(shots / "preferences_long_data_folder.png"))
    dialog.close()
    dialog.deleteLater()
