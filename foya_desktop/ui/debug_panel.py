"""The optional debug panel: every model step and tool call of the selected turn.

Per step: the request as sent (system prompt, messages, tools offered,
parameters; secrets scrubbed, keys never present), tokens reported, stop
reason, time to first byte, duration, retries. Per tool call: arguments,
result size, timing. The traces live in the session's database rows and go
away with the session. There is no Dream tab or setting anywhere (Yeaft Y39).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.figures import DEBUG_WARNING
from foya_desktop.ui import i18n, theme


def _columns() -> list[str]:
    translate = QCoreApplication.translate
    return [translate("DebugPanel", "kind"), translate("DebugPanel", "speaker"),
            translate("DebugPanel", "model / tool"), translate("DebugPanel", "tokens in / out"),
            translate("DebugPanel", "stop"), translate("DebugPanel", "first byte"),
            translate("DebugPanel", "duration"), translate("DebugPanel", "retries")]


class DebugPanel(QWidget):
    """Turn picker, one row per step or tool call, the selected row's full JSON.

    Signals:
        turn_chosen(str): the person picked another turn (the pane reloads the traces).
    """

    turn_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.warning = QLabel(i18n.core_text(DEBUG_WARNING))
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(f"color: {theme.warning_color().name()}")
        self.turns = QComboBox()
        self.turns.setToolTip(self.tr("The turn whose model requests and tool calls are shown"))
        self.rows = QTreeWidget()
        self.rows.setHeaderLabels(_columns())
        self.rows.setRootIsDecorated(False)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(theme.mono_font())
        self._traces: list[dict[str, Any]] = []
        self._layout()
        self.turns.activated.connect(lambda _i: self._show_turn(self.turns.currentData()))
        self.rows.currentItemChanged.connect(self._show_detail)

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Turn:")))
        top.addWidget(self.turns, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.rows)
        split.addWidget(self.detail)
        split.setSizes([520, 480])
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 4, 12, 4)
        box.addWidget(self.warning)
        box.addLayout(top)
        box.addWidget(split, 1)

    def set_traces(self, traces: list[dict[str, Any]]) -> None:
        """All traces of the session; the newest turn is selected unless another one is."""
        self._traces = traces
        turns = list(dict.fromkeys(t["turn_id"] for t in traces))
        current = self.turns.currentData()
        self.turns.clear()
        for i, turn in enumerate(turns, 1):
            self.turns.addItem(self.tr("Turn {number} · {id}").format(number=i, id=turn), turn)
        if not turns:
            self.turns.addItem(self.tr("No traces yet: send a message"), "")
        chosen = current if current in turns else (turns[-1] if turns else "")
        self.turns.setCurrentIndex(max(0, self.turns.findData(chosen)))
        self._show_turn(chosen)

    def _show_turn(self, turn_id: str) -> None:
        self.rows.clear()
        for t in (t for t in self._traces if t["turn_id"] == turn_id):
            item = QTreeWidgetItem(list(_row(t)))
            item.setData(0, Qt.ItemDataRole.UserRole, json.dumps(t, ensure_ascii=False, indent=1))
            self.rows.addTopLevelItem(item)
        for col in range(self.rows.columnCount()):
            self.rows.resizeColumnToContents(col)
        first = self.rows.topLevelItem(0)
        if first is not None:
            self.rows.setCurrentItem(first)
        else:
            self.detail.clear()

    def _show_detail(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        self.detail.setPlainText(str(item.data(0, Qt.ItemDataRole.UserRole)) if item else "")


def _row(t: dict[str, Any]) -> tuple[str, ...]:
    translate = QCoreApplication.translate

    def ms(value: int) -> str:
        return translate("DebugPanel", "{ms} ms").format(ms=i18n.number(value))

    duration = ms(t["duration_ms"])
    if t["kind"] == "tool":
        outcome = (translate("DebugPanel", "blocked") if t["blocked"] else translate("DebugPanel", "error")
                   if t["is_error"] else translate("DebugPanel", "{count} chars").format(
                       count=i18n.number(t["result_chars"])))
        return (translate("DebugPanel", "tool"), t["speaker"], t["tool"], outcome, "", "", duration, "")
    usage = t["usage"]
    ttfb = ms(t["ttfb_ms"]) if t["ttfb_ms"] is not None else "—"
    tokens = f"{i18n.tokens(usage['input_tokens'])} / {i18n.tokens(usage['output_tokens'])}"
    return (
        translate("DebugPanel", "request"),
        t["speaker"],
        f"{t['connection']}/{t['request']['model']}",
        tokens,
        t["stop_reason"] or (t["error"] or "—"),
        ttfb,
        duration,
        str(t["retries"]),
    )
