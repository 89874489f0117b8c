"""The window's first frame, painted before the engine is imported (issue 14: start → first
painted window ≤ 1.5× a bare PySide6 window).

Why a frame of its own: the real :class:`~foya_desktop.ui.main_window.MainWindow` needs the
kernel, and the kernel needs the engine, the HTTP stack, the store and its migration checks —
over a second of imports and work before anything could be shown. This frame needs only Qt and
the preferences file: it comes up where the window was last time (geometry, toolbar, sidebar
width from the preferences), in the person's language and theme, with the sidebar and the
timeline area empty and "Opening…" in the status line. ``app.run_app`` then opens the engine,
builds the real window at this frame's place and size, shows it and closes this one (the same
swap a language change does, ``ui/window_host.py``).

While it is up nothing can act on a session: the menu and toolbar entries that need the engine
are disabled; Quit (and closing the frame) is remembered and honoured as soon as the engine is
open; a second launch's hand-over is queued and delivered to the real window.

Keep this module's imports to Qt and the preferences: everything it imports is paid for before
the first paint (``tests/ui/test_startup_imports.py`` checks the heavy modules stay out). It also
names no enum of PySide's ``Qt`` namespace: the first use of any of them builds all of them (~70 ms
on this machine), so the frame uses Qt's defaults, layouts and one property value instead.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSize, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QSplitter,
    QToolBar,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.store.preferences import PreferencesFile
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.icons import icon
from foya_desktop.ui.prefs import PreferencesState
from foya_desktop.ui.window_state import WindowMemory

TEXT_BESIDE_ICON = 2
"""``Qt.ToolButtonStyle.ToolButtonTextBesideIcon`` (the real toolbar's style), by value: see above."""


def _main_text(text: str) -> str:
    """A text the real window shows in the same place: one translation for both (its context)."""
    return QCoreApplication.translate("MainWindow", text)


class StartWindow(QMainWindow):
    """The frame shown while the engine opens (Quit meanwhile sets :attr:`quitting`, which
    ``app._run`` honours once the engine is open).

    Signals:
        quit_requested(): Quit was asked for (the menu, Ctrl+C, SIGTERM): a storage-fault
            dialog shown over the frame closes with "quit" (a logout must not wait for a click).
    """

    quit_requested = Signal()

    def __init__(self, preferences: PreferencesFile | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefs = PreferencesState(preferences, self)  # read only: the real window saves
        self.quitting = False
        """Quit was asked for; start-up ends once the engine it is opening can be closed."""
        self.launches: list[tuple[str, str]] = []
        """Second launches handed over meanwhile (folder, activation token), for the real window."""
        # no icon of its own: the application's, set after the first paint (app.set_window_icon)
        self.setWindowTitle(_main_text("Foya"))
        self.resize(1200, 800)
        self.sidebar = QTreeView()
        self.sidebar.setObjectName("sessionTree")
        self.sidebar.setHeaderHidden(True)
        self.sidebar.setEnabled(False)
        self.sidebar.setPalette(theme.sidebar_palette(theme.is_dark()))
        self.opening = QLabel()
        self.opening.setEnabled(False)  # the dim "not yet" colour of the palette
        self.splitter = splitter = QSplitter()  # horizontal, as the real window's
        splitter.addWidget(self.sidebar)
        splitter.addWidget(_centred(self.opening))
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 940])
        splitter.setChildrenCollapsible(False)
        splitter.setHandleWidth(1)
        self.setCentralWidget(splitter)
        self._build_menus()
        self.statusBar().setSizeGripEnabled(False)
        self.say_opening()
        WindowMemory(self, splitter, self.prefs).restore()

    def _build_menus(self) -> None:
        """The real window's File menu and toolbar, disabled except Quit and Close."""
        new = QAction(icon("new"), _main_text("New session"), self)
        new.setShortcuts(QKeySequence.StandardKey.New)  # not setShortcut(): its overloads build ``Qt``
        connections = QAction(icon("connections"), _main_text("Connections…"), self)
        vps = QAction(icon("vps"), _main_text("VPs…"), self)
        for action in (new, connections, vps):
            action.setEnabled(False)
        close = QAction(_main_text("Close window"), self)
        close.setShortcuts(QKeySequence.StandardKey.Close)
        close.triggered.connect(self.close)
        quit_ = QAction(_main_text("Quit"), self)
        quit_.setShortcuts(QKeySequence.StandardKey.Quit)
        quit_.triggered.connect(self.request_quit)
        self.quit_action = quit_
        self.disabled_actions = (new, connections, vps)
        menu = self.menuBar().addMenu(_main_text("&File"))
        for action in (new, connections, vps):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(close)
        menu.addAction(quit_)
        toolbar = QToolBar(_main_text("Main"))
        toolbar.setObjectName("mainToolbar")  # the real toolbar's name: its stored state applies
        toolbar.setMovable(False)
        toolbar.setIconSize(QSize(18, 18))
        toolbar.setProperty("toolButtonStyle", TEXT_BESIDE_ICON)
        for action in (new, connections, vps):
            toolbar.addAction(action)
        self.addToolBar(toolbar)

    def say_opening(self) -> None:
        """What the frame says while the engine opens (again, after a storage fault's Try again)."""
        self.opening.setText(self.tr("Opening your sessions…"))
        self.statusBar().showMessage(self.tr("Opening…"))

    def say_cannot_open(self) -> None:
        """What the frame says behind the storage-fault dialog (``ui/storage_fault.py``)."""
        self.opening.setText(self.tr("Foya cannot open its data folder."))
        self.statusBar().clearMessage()

    def request_quit(self) -> None:
        """Quit once the engine being opened can be closed (nothing runs yet: nothing to wait for)."""
        if not self.quitting:
            self.quitting = True
            self.statusBar().showMessage(self.tr("Quitting…"))
            self.quit_requested.emit()

    def handle_launch(self, folder: str = "", activation_token: str = "") -> None:
        """A second launch handed over: come to the front now, its folder opens in the real window."""
        self.launches.append((folder, activation_token))
        if not self.quitting:
            from foya_desktop.ui.lifecycle import bring_to_front  # after the first paint: not on its path

            bring_to_front(self, activation_token)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the frame quits: there is no session running yet that a tray would keep."""
        self.request_quit()
        event.accept()


def _centred(label: QLabel) -> QWidget:
    """``label`` in the middle of the timeline's place (stretches around it: no alignment enum)."""
    area = QWidget()
    column = QVBoxLayout(area)
    row = QHBoxLayout()
    row.addStretch(1)
    row.addWidget(label)
    row.addStretch(1)
    column.addStretch(1)
    column.addLayout(row)
    column.addStretch(1)
    return area


def open_start_window(preferences: PreferencesFile) -> StartWindow:
    """Install the language and theme from ``preferences``, then build the frame (not shown yet).

    The translators and the palette go in first: every widget reads its texts and colours when
    it is built. "Follow the system" is judged by the platform's palette here
    (``theme.platform_palette_is_dark``); the real window then asks the desktop exactly.
    """
    prefs = preferences.load()
    i18n.install(prefs.language)
    theme.apply_theme(prefs.theme, guess=True)
    return StartWindow(preferences)
