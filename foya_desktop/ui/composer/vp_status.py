"""Per-VP session status while a turn runs (Yeaft seed Y40-Y46).

One block per VP: a title line with the VP's name, its run state and its Stop
(Y40: with one VP as with several — the composer's Stop, at Send's place, stops
the turn and holds the queue's choices; the title line's stops this VP);
below it the provider-reported figures of this turn (input incl. cache,
output, as full numbers or "not provided"), model requests, executions and
failed calls. "failed" expands a per-tool table (executions / failures /
blocked, at most 128 kinds, totals always complete) — or, for figures
recorded by an older Foya without each call's outcome, says the per-tool
detail is not available; "Run details" holds
repeated calls, duplicate results, the latest evidence time and how the
figures are counted. The blocks are live only: a finished turn clears them.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QMargins, Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from foya_desktop.core.events import VPStatus
from foya_desktop.core.figures import NO_TOOL_DETAIL, RunFigures
from foya_desktop.ui import i18n, theme
from foya_desktop.ui.error_text import coded_text
from foya_desktop.ui.speakers import SpeakerDirectory


def _state_text(state: str) -> str:
    translate = QCoreApplication.translate
    return {"running": translate("VPStatusBlock", "Running"), "done": translate("VPStatusBlock", "Done"),
            "stopped": translate("VPStatusBlock", "Stopped"), "error": translate("VPStatusBlock", "Failed"),
            "waiting": translate("VPStatusBlock", "Waiting")}.get(state, state)


class VPStatusBlock(QWidget):
    """One VP's title line, figures and the two expandable sections.

    Signals:
        stop_requested(): the person pressed this VP's Stop.
    """

    stop_requested = Signal()

    MARGINS = QMargins(0, 2, 0, 2)
    LINE_SPACING = 1
    """The block's margins and the space between its lines; the status line's idle lines (the
    phase over an error) use the same, so a one-VP turn does not change its height."""

    def __init__(self, name: str, color: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.speaker = ""
        """Whose block this is (the panel reuses blocks: see ``VPStatusPanel``)."""
        self.name_label = QLabel()
        self.state_label = QLabel()
        self.state_label.setWordWrap(True)  # "Failed — <a long server error>" wraps: it widened the window
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Stop this VP (the others go on)"))
        self.stop_button.setFlat(True)
        # no taller than the line's words (the status line's buttons are a hit size high): the
        # block stands where the idle lines stood, so a turn never resizes the timeline (StatusLine)
        self.stop_button.setStyleSheet("QPushButton { min-height: 0px; padding: 0px 6px; }")
        self.stop_button.setFixedHeight(QFontMetrics(self.stop_button.font()).height())
        self.figures_label = QLabel()
        self.figures_label.setTextFormat(Qt.TextFormat.RichText)
        self.figures_label.setWordWrap(True)  # a narrow window wraps the figures, never clips "0 tool…"
        self.figures_label.linkActivated.connect(self._toggle)
        self.tools_label = QLabel()
        self.tools_label.setWordWrap(True)  # the "detail not available" sentence wraps in a narrow window
        self.details_label = QLabel()
        self.details_label.setWordWrap(True)
        for label in (self.tools_label, self.details_label):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setContentsMargins(16, 0, 0, 0)
            label.hide()
        self.stop_button.clicked.connect(self.stop_requested)
        self._figures = RunFigures()
        self.running = False
        self.waiting = False
        """An approval or a question of this VP waits for the person (it runs, but it does not work)."""
        self._state = ""
        self.set_speaker("", name, color)
        self._layout()

    def _layout(self) -> None:
        title = QHBoxLayout()
        title.setContentsMargins(0, 0, 0, 0)
        title.setSpacing(10)
        title.addWidget(self.name_label)
        title.addWidget(self.state_label)
        title.addWidget(self.stop_button)
        title.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(self.MARGINS)
        box.setSpacing(self.LINE_SPACING)
        box.addLayout(title)
        box.addWidget(self.figures_label)
        box.addWidget(self.tools_label)
        box.addWidget(self.details_label)

    def set_speaker(self, speaker: str, name: str, color: str) -> None:
        """Whose block this is now: a reused block starts as a new one (sections folded)."""
        self.speaker = speaker
        self.name_label.setText(f"<b style='color:{color}'>{_escape(name)}</b>")
        self.tools_label.hide()
        self.details_label.hide()
        self.running = self.waiting = False
        self._state = ""

    def show_status(self, status: VPStatus) -> None:
        """Reflect the latest figures of this VP."""
        self._figures = f = status.figures
        running = status.state == "running"
        state = _state_text(status.state)
        if status.error:
            state += " — " + coded_text(status.error_code, status.error_params, status.error)
        self._state = state
        self.running = running
        self._show_state()
        # the headline counters are the event's own (the engine fills them from the same figures)
        failures = status.tool_failures
        failed = self.tr("%n failed", "", failures)
        if failures or not f.tool_detail:  # without the breakdown, the click says it is not available
            failed = f"<a href='failed'>{_escape(failed)}</a>"
        requests = self.tr("%Ln model request(s)", "", status.requests)  # "1 model request", not "requests"
        runs = self.tr("%Ln tool execution(s)", "", status.tool_runs)
        figures = self.tr("{tokens} · {requests} · {runs}").format(
            tokens=tokens_phrase(f.input_tokens, f.output_tokens, pending=running and f.usage_pending),
            requests=requests, runs=runs)
        details = self.tr("Run details")  # NOTE: lupdate finds no tr() inside an f-string
        self.figures_label.setText(
            f"{_escape(figures)} · {failed} · <a href='details'>{_escape(details)}</a>")
        self.tools_label.setText(_tools_table(f))
        self.details_label.setText(_details(f))

    def set_waiting(self, waiting: bool) -> None:
        """Say "Waiting for you" instead of "Running" while the VP's approval or question is open."""
        self.waiting = waiting
        self._show_state()

    def _show_state(self) -> None:
        waiting = self.running and self.waiting
        self.state_label.setText(self.tr("Waiting for you") if waiting else self._state)
        self.state_label.setStyleSheet(f"color: {theme.warning_color().name()}" if waiting else "")

    def _toggle(self, which: str) -> None:
        label = self.tools_label if which == "failed" else self.details_label
        label.setVisible(not label.isVisible())


class VPStatusPanel(QWidget):
    """The per-VP blocks of the current turn (empty when nothing runs).

    A block is a handful of widgets whose creation and first polish (the window's style sheet)
    took 2–4 ms of GUI time, in the very step that starts a turn and shows the panel (issue 14:
    the first message's longest frame). So blocks are made ahead, between turns (``prepare``,
    a moment after the panel is cleared), and a finished turn's blocks are kept hidden for the
    next one instead of being deleted; a reused block is reset (``VPStatusBlock.set_speaker``)
    and goes to the end, so blocks stand in the order their VPs reported, as new ones would.

    Signals:
        stop_requested(str): the Stop of this speaker's block was pressed.
    """

    stop_requested = Signal(str)

    def __init__(self, speakers: SpeakerDirectory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._speakers = speakers
        self.blocks: dict[str, VPStatusBlock] = {}
        self.spares: list[VPStatusBlock] = []
        """Hidden blocks ready for the next turn's VPs."""
        self._waiting: set[str] = set()
        self._box = QVBoxLayout(self)
        self._box.setContentsMargins(0, 0, 0, 0)  # in the status line's row, beside the settings
        self._box.setSpacing(2)
        self._preparing = QTimer(self, singleShot=True, interval=0)
        self._preparing.timeout.connect(self.prepare)
        self.hide()

    def set_status(self, status: VPStatus) -> None:
        """Create or update the VP's block."""
        block = self.blocks.get(status.speaker)
        if block is None:
            block = self._take_block(status.speaker)
            self.blocks[status.speaker] = block
        block.waiting = status.speaker in self._waiting
        block.show_status(status)
        for each in self.blocks.values():  # name, state and Stop on one title line (Y40)
            each.stop_button.setVisible(each.running)
        self.show()

    def _take_block(self, speaker: str) -> VPStatusBlock:
        name, color = self._speakers.name(speaker), self._speakers.color(speaker).name()
        if self.spares:
            block = self.spares.pop()
            block.set_speaker(speaker, name, color)
            self._box.removeWidget(block)
        else:
            block = self._new_block()
            block.set_speaker(speaker, name, color)
        self._box.addWidget(block)
        block.show()
        return block

    def _new_block(self) -> VPStatusBlock:
        block = VPStatusBlock("", "", self)
        block.stop_requested.connect(lambda: self.stop_requested.emit(block.speaker))
        return block

    def prepare(self) -> None:
        """Have a block ready for the next turn: made and polished now, between turns."""
        if not self.spares:
            block = self._new_block()
            block.hide()
            block.ensurePolished()  # polishes its labels and button too
            self.spares.append(block)

    def set_waiting(self, speakers: set[str]) -> None:
        """The VPs of the session on screen whose approval or question waits for the person."""
        self._waiting = set(speakers)
        for speaker, block in self.blocks.items():
            block.set_waiting(speaker in self._waiting)

    def clear(self) -> None:
        """The turn ended or the session changed: live figures are not kept (the blocks are,
        hidden, for the next turn)."""
        for block in self.blocks.values():
            block.hide()
            self.spares.append(block)
        self.blocks.clear()
        self.hide()
        if not self.spares:
            self._preparing.start()


def tokens_phrase(input_tokens: int | None, output_tokens: int | None, *, pending: bool = False) -> str:
    """The turn's tokens as one phrase; an unreported side says "not provided", never 0 (Y43) —
    or "not reported yet" while a request is still on its way (``pending``): a provider reports
    usage at a request's end, so nothing reported before then says nothing about the service."""
    translate = QCoreApplication.translate
    if input_tokens is None and output_tokens is None:
        return (translate("VPStatusBlock", "tokens: not reported yet") if pending
                else translate("VPStatusBlock", "tokens: not provided by the service"))
    if output_tokens is None:
        text = (translate("VPStatusBlock", "input {input} tokens · output: not reported yet") if pending
                else translate("VPStatusBlock", "input {input} tokens · output: not provided"))
        return text.format(input=i18n.number(input_tokens or 0))
    if input_tokens is None:
        text = (translate("VPStatusBlock", "input: not reported yet · output {output} tokens") if pending
                else translate("VPStatusBlock", "input: not provided · output {output} tokens"))
        return text.format(output=i18n.number(output_tokens))
    return translate("VPStatusBlock", "input {input} · output {output} tokens").format(
        input=i18n.number(input_tokens), output=i18n.number(output_tokens))


def _tools_table(f: RunFigures) -> str:
    translate = QCoreApplication.translate
    missing = ("<i>" + _escape(i18n.core_text(NO_TOOL_DETAIL)) + "</i>") if not f.tool_detail else ""
    if not f.tools:
        return missing or "<i>" + translate("VPStatusBlock", "No tool calls yet.") + "</i>"
    rows = "".join(f"<tr><td>{_escape(t.name)}</td><td align='right'>{i18n.number(t.executions)}</td>"
                   f"<td align='right'>{i18n.number(t.failures)}</td>"
                   f"<td align='right'>{i18n.number(t.blocked)}</td></tr>"
                   for t in f.tools)
    more = ("<br>… " + translate("VPStatusBlock", "%n more tool kind(s), counted in the totals above", "",
                                 f.tools_omitted) if f.tools_omitted else "")
    head = "".join(f"<th{align}>{_escape(text)}</th>" for align, text in (
        (" align='left'", translate("VPStatusBlock", "tool")), ("", translate("VPStatusBlock", "executions")),
        ("", translate("VPStatusBlock", "failures")), ("", translate("VPStatusBlock", "blocked"))))
    note = translate("VPStatusBlock", "Failures include blocked calls (refused before they ran).")
    return (f"<table cellspacing='6'><tr>{head}</tr>{rows}</table>"
            f"<span style='color:{theme.dim_color().name()}'>{_escape(note)}</span>" + more
            + (f"<br>{missing}" if missing else ""))


def _details(f: RunFigures) -> str:
    translate = QCoreApplication.translate
    evidence = (i18n.clock(f.latest_evidence_at) if f.latest_evidence_at
                else translate("VPStatusBlock", "none yet"))
    text = translate(
        "VPStatusBlock", "Input served from the prompt cache (reuse): {cache} · repeated calls: {repeated} · "
        "duplicate results: {duplicates} · latest evidence: {evidence}").format(
        cache=i18n.tokens(f.cache_read_tokens), repeated=i18n.number(f.repeated_calls),
        duplicates=i18n.number(f.duplicate_results), evidence=evidence)
    return (f"{_escape(text)}<br>"
            f"<span style='color:{theme.dim_color().name()}'>{_escape(i18n.how_counted())}</span>")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
