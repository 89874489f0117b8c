"""*Help ▸ About Foya* in the real window shows the version ``foya --version`` prints, i.e.
``pyproject.toml``'s (read here from the file, not from the package that computes it)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMenu, QMessageBox

from foya_desktop.engine.kernel import Kernel
from tests.ui.helpers import wait_until
from tests.ui.test_look_keyboard import window_on

ROOT = Path(__file__).resolve().parents[2]


async def test_help_about_shows_pyprojects_version(real_kernel: Kernel) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    async with window_on(real_kernel, real_kernel.store.home.root) as window:
        help_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Help")
        about = next(a for a in help_menu.actions() if a.text() == "About Foya")
        about.trigger()
        await wait_until(lambda: any(isinstance(w, QMessageBox) and w.isVisible()
                                     for w in QApplication.topLevelWidgets()))
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        assert f"<h3>Foya {version}</h3>" in box.text()
        box.close()
