"""SessionTreeModel: projects, Recents, child sessions, pinned first, precise updates."""

from __future__ import annotations

import dataclasses

from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from foya_desktop.core.model import Phase, Project, Session
from foya_desktop.ui.sessions.nodes import Node
from foya_desktop.ui.sessions.tree_model import NODE_ROLE, SESSION_ID_ROLE, SessionTreeModel
from foya_desktop.ui.sessions.tree_view import SessionTreeView

P1 = Project("prj_1", "alpha", "/work/alpha")
P2 = Project("prj_2", "beta", "/work/beta")


def _session(sid: str, *, project: str | None = None, parent: str | None = None, updated: int = 0,
             pinned: bool = False, title: str = "") -> Session:
    return Session(id=sid, title=title or sid, project_id=project, parent_id=parent, updated_at=updated,
                   pinned=pinned)


def _titles(model: SessionTreeModel, parent=None) -> list[str]:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QModelIndex
    parent = parent or QModelIndex()
    return [model.index(r, 0, parent).data() for r in range(model.rowCount(parent))]


def _build(qtmodeltester: ModelTester) -> SessionTreeModel:
    model = SessionTreeModel()
    qtmodeltester.check(model)
    model.upsert_project(P2)
    model.upsert_project(P1)
    model.upsert_session(_session("a1", project="prj_1", updated=10))
    model.upsert_session(_session("a2", project="prj_1", updated=20))
    model.upsert_session(_session("child", project="prj_1", parent="a1", updated=30))
    model.upsert_session(_session("r1", updated=5))
    model.upsert_session(_session("orphan-child", parent="late-parent", updated=1))
    model.upsert_session(_session("late-parent", updated=2))
    qtmodeltester.check(model)
    return model


def test_structure_projects_recents_children(qtmodeltester: ModelTester) -> None:
    model = _build(qtmodeltester)
    assert _titles(model) == ["alpha", "beta", "Recents"]
    alpha = model.index(0, 0)
    assert _titles(model, alpha) == ["a2", "a1"]  # most recently active first
    assert _titles(model, model.index(1, 0, alpha)) == ["child"]
    recents = model.index(2, 0)
    assert _titles(model, recents) == ["r1", "late-parent"]
    late = model.index(1, 0, recents)
    assert _titles(model, late) == ["orphan-child"]  # adopted once its parent arrived
    assert model.index(0, 0, alpha).data(SESSION_ID_ROLE) == "a2"
    assert model.index(0, 0).data(SESSION_ID_ROLE) is None


def test_updates_move_rows_without_reset(qtmodeltester: ModelTester) -> None:
    model = _build(qtmodeltester)
    resets: list[int] = []
    moves: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.rowsMoved.connect(lambda *a: moves.append(1))
    model.upsert_session(_session("a1", project="prj_1", updated=99))
    assert _titles(model, model.index(0, 0)) == ["a1", "a2"]
    model.upsert_session(_session("a2", project="prj_1", updated=20, pinned=True))
    assert _titles(model, model.index(0, 0)) == ["a2", "a1"]  # pinned first
    model.upsert_session(_session("r1", project="prj_2", updated=5))  # bound by the kernel
    assert _titles(model, model.index(1, 0)) == ["r1"]
    assert resets == [] and len(moves) == 3
    qtmodeltester.check(model)


def test_phase_and_removal(qtmodeltester: ModelTester) -> None:
    model = _build(qtmodeltester)
    changed: list[int] = []
    model.dataChanged.connect(lambda *a: changed.append(1))
    model.set_phase("a1", "turn")
    assert model.phase("a1") == Phase.TURN and changed == [1]
    assert model.running_sessions() == ["a1"]
    model.remove_session("a1")
    assert "child" not in model.session_ids()
    assert _titles(model, model.index(0, 0)) == ["a2"]
    qtmodeltester.check(model)


def test_unknown_project_is_requested(qtmodeltester: ModelTester) -> None:
    model = SessionTreeModel()
    missing: list[str] = []
    model.project_missing.connect(missing.append)
    model.upsert_session(_session("s", project="prj_new"))
    assert missing == ["prj_new"]
    model.upsert_project(Project("prj_new", "gamma", "/g"))
    assert _titles(model) == ["gamma", "Recents"]
    qtmodeltester.check(model)


def test_selection_survives_a_move(qtbot: QtBot, qtmodeltester: ModelTester) -> None:
    model = _build(qtmodeltester)
    view = SessionTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    activated: list[str] = []
    view.session_activated.connect(activated.append)
    view.select_session("a1")
    assert activated == ["a1"]
    model.upsert_session(_session("a1", project="prj_1", updated=1000, title="renamed"))
    node: Node = view.currentIndex().data(NODE_ROLE)
    assert node.key == "a1" and node.title == "renamed"
    assert activated == ["a1"]  # moving is not re-activating


def test_rename_and_bind_are_requests(qtmodeltester: ModelTester) -> None:
    model = _build(qtmodeltester)
    renames: list[tuple[str, str]] = []
    model.rename_requested.connect(lambda sid, t: renames.append((sid, t)))
    index = model.index_of_session("r1")
    assert model.setData(index, "New title") is False
    assert renames == [("r1", "New title")] and index.data() == "r1"
    binds: list[tuple[str, str]] = []
    model.bind_requested.connect(lambda s, p: binds.append((s, p)))
    data = model.mimeData([index])
    model.dropMimeData(data, model.supportedDropActions(), -1, 0, model.index(0, 0))
    assert binds == [("r1", "prj_1")]


def test_dataclass_replace_keeps_identity(qtmodeltester: ModelTester) -> None:
    model = _build(qtmodeltester)
    session = model.session("a2")
    assert session is not None
    model.upsert_session(dataclasses.replace(session, title="A two"))
    assert model.session("a2").title == "A two"  # type: ignore[union-attr]


def test_the_spinner_repaints_only_the_running_row(qtbot: QtBot, qtmodeltester: ModelTester) -> None:
    """Issue 14: a turning spinner repaints its own row, not the whole sidebar, 12.5 times a second."""
    from PySide6.QtCore import QEvent, QObject, QRect
    from PySide6.QtGui import QPaintEvent

    model = _build(qtmodeltester)
    view = SessionTreeView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(300, 400)
    view.show()
    qtbot.waitExposed(view)
    model.set_phase("a1", "turn")
    qtbot.wait(100)  # the phase change itself repaints as it likes
    painted: list[QRect] = []

    class Spy(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if isinstance(event, QPaintEvent):
                painted.append(event.rect())
            return False

    spy = Spy()
    view.viewport().installEventFilter(spy)
    qtbot.wait(300)  # a few spinner ticks
    view.viewport().removeEventFilter(spy)
    row = view.visualRect(model.index_of_session("a1"))
    assert painted and all(rect.height() <= row.height() and rect.intersects(row) for rect in painted)
    model.set_phase("a1", "idle")
    qtbot.wait(100)  # the row repaints once without its spinner
    painted.clear()
    view.viewport().installEventFilter(spy)
    qtbot.wait(200)
    view.viewport().removeEventFilter(spy)
    assert painted == []  # idle: no timer, no repaint (P5)


def test_a_spinner_frame_does_not_repaint_the_window_behind_the_sidebar(qtbot: QtBot,
                                                                         qtmodeltester: ModelTester) -> None:
    """Issue 14: the sidebar's viewport is opaque (it fills its own background), so a spinner
    frame repaints the row and nothing behind it (the window and splitter, 13 times a second)."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtGui import QColor, QPaintEvent
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from foya_desktop.ui import theme

    model = _build(qtmodeltester)
    window = QWidget()
    qtbot.addWidget(window)
    view = SessionTreeView()
    view.setObjectName("sessionTree")
    QVBoxLayout(window).addWidget(view)
    window.setStyleSheet(theme.style_sheet(theme.is_dark()))  # the app's: the sidebar's colour
    view.setModel(model)
    window.resize(300, 400)
    window.show()
    qtbot.waitExposed(window)
    model.set_phase("a1", "turn")
    qtbot.wait(100)
    painted: dict[str, int] = {"window": 0, "frame": 0, "viewport": 0}

    class Spy(QObject):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if isinstance(event, QPaintEvent):
                painted[self.name] += 1
            return False

    spies = {"window": Spy("window"), "frame": Spy("frame"), "viewport": Spy("viewport")}
    for name, widget in (("window", window), ("frame", view), ("viewport", view.viewport())):
        widget.installEventFilter(spies[name])
    qtbot.wait(300)  # a few spinner ticks
    assert painted["viewport"] >= 2 and painted["window"] == painted["frame"] == 0
    image = view.viewport().grab().toImage()
    bottom = image.pixelColor(image.width() // 2, image.height() - 2)  # below the rows
    assert bottom == QColor(theme.colors(theme.is_dark())["sidebar"])
