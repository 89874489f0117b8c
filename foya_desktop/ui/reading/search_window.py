"""Search across sessions: type, filter by project, speaker and date, open a hit at its message.

Queries run as you type (debounced) through the kernel's FTS5 index on the
store's reader thread; a result that arrives after the person typed on is
dropped. Activating a hit asks the window to open the session at that
message (``open_requested``).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import VP, Project
from foya_desktop.store.search import SearchHit
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.aio import Latest, TaskRunner
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi

DEBOUNCE_MS = 200
DAY_MS = 86_400_000

def _periods() -> tuple[tuple[str, int | None], ...]:
    translate = QCoreApplication.translate
    return ((translate("SearchWindow", "Any time"), None), (translate("SearchWindow", "Last 7 days"), 7),
            (translate("SearchWindow", "Last 30 days"), 30), (translate("SearchWindow", "Last year"), 365))
HIT_ROLE = Qt.ItemDataRole.UserRole


class SearchWindow(QDialog):
    """The "Search all sessions" window (non-modal).

    Signals:
        open_requested(str, str): open this session at this message (session id, message id).
        searched(int): a query finished with this many hits (tests wait on it).
    """

    open_requested = Signal(str, str)
    searched = Signal(int)

    def __init__(self, kernel: KernelApi, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Search all sessions"))
        self.resize(760, 520)
        self._kernel = kernel
        self._generation = 0
        self._task = Latest(runner)
        self.query = QLineEdit(
            placeholderText=self.tr("Search every session — words, code identifiers, 中文…")
        )
        self.project = QComboBox()
        self.speaker = QComboBox()
        self.period = QComboBox()
        for label, days in _periods():
            self.period.addItem(label, days)
        self.results = QListWidget()
        self.results.setWordWrap(True)
        self.results.setAlternatingRowColors(True)
        self.status = QLabel(self.tr("Type to search."))
        self.status.setFont(theme.small_font())
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.run_query)
        self.query.textChanged.connect(lambda _t: self._timer.start())
        for combo in (self.project, self.speaker, self.period):
            combo.currentIndexChanged.connect(lambda _i: self._timer.start())
        self.results.itemActivated.connect(self._open)
        self.results.itemClicked.connect(self._open)
        self._layout()

    def _layout(self) -> None:
        filters = QHBoxLayout()
        for label, combo in (
            (self.tr("Project"), self.project),
            (self.tr("Speaker"), self.speaker),
            (self.tr("When"), self.period),
        ):
            filters.addWidget(QLabel(label))
            filters.addWidget(combo, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.query)
        layout.addLayout(filters)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.status)

    def set_choices(self, projects: list[Project], vps: list[VP]) -> None:
        """Fill the project and speaker filters."""
        self.project.clear()
        self.project.addItem(self.tr("All projects"), None)
        for project in projects:
            self.project.addItem(project.name, project.id)
        self.speaker.clear()
        self.speaker.addItem(self.tr("Anyone"), None)
        self.speaker.addItem(self.tr("You"), "user")
        for vp in vps:
            self.speaker.addItem(vp.name, vp.id)

    def run_query(self) -> None:
        """Search now with the current text and filters (newest first)."""
        self._generation += 1
        self._task.cancel()
        text = self.query.text().strip()
        if not text:
            self.results.clear()
            self.status.setText(self.tr("Type to search."))
            return
        self.status.setText(self.tr("Searching…"))
        self._task.start(self._search(text, self._generation), self.tr("Search"))

    async def _search(self, text: str, generation: int) -> None:
        days = self.period.currentData()
        since = int(time.time() * 1000) - int(days) * DAY_MS if days else None
        started = time.perf_counter()
        try:
            hits = await self._kernel.search.find(text, project_id=self.project.currentData(),
                                             speaker=self.speaker.currentData(), since_ms=since, limit=200)
        except FoyaError as error:
            if generation == self._generation:
                self.status.setText(f"⚠ {error_text(error)}")
            return
        if generation != self._generation:
            return
        self._show(hits, time.perf_counter() - started)

    def _show(self, hits: list[SearchHit], seconds: float) -> None:
        self.results.clear()
        for hit in hits:
            when = QLocale().toString(
                QDateTime.fromMSecsSinceEpoch(hit.created_at), QLocale.FormatType.ShortFormat
            )
            who = self.tr("You") if hit.role == "user" else hit.speaker
            item = QListWidgetItem(f"{hit.session_title} · {who} · {when}\n{hit.snippet}")
            item.setData(HIT_ROLE, (hit.session_id, hit.message_id))
            self.results.addItem(item)
        more = self.tr(" (the newest 200)") if len(hits) >= 200 else ""
        shown = self.tr("%n message(s)", "", len(hits)) + more + " · " + self.tr("{ms} ms").format(
            ms=i18n.number(round(seconds * 1000)))
        self.status.setText(shown if hits else self.tr("No messages match."))
        self.searched.emit(len(hits))

    def _open(self, item: QListWidgetItem) -> None:
        session_id, message_id = item.data(HIT_ROLE)
        self.open_requested.emit(session_id, message_id)
