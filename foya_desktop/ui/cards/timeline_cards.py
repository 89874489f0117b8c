"""AskUser cards placed in the timeline, at the position of the ``ask_user`` call.

The timeline is a painted tree view (DESIGN §4), so a card is a real widget
laid over the room the renderer leaves for it: the renderer asks
``card_height`` while it measures a row (``CardSlots``), the delegate's
height cache includes the card, and after every layout pass or scroll the
cards are moved to their slots. A state change that alters a card's height
re-measures just that row.

Questions whose call is not in the timeline window (history paged far up,
or a call the window never stored) are handed to the composer area instead
(``fallback_changed``), so an open question can always be answered.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QRect, QTimer, Signal

from foya_desktop.core.events import Event, MemoryChanged
from foya_desktop.core.memory import MEMORY_TOOL, saved_entry
from foya_desktop.core.messages import ToolCallPart, ToolState
from foya_desktop.core.model import Phase
from foya_desktop.ui.aio import TaskRunner
from foya_desktop.ui.cards.memory_card import MemorySaveCard
from foya_desktop.ui.cards.question_card import QuestionCard
from foya_desktop.ui.cards.question_view import CardView, describe
from foya_desktop.ui.cards.questions import QuestionBook, QuestionState
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.speakers import SpeakerDirectory
from foya_desktop.ui.timeline.canvas import Canvas
from foya_desktop.ui.timeline.model import HEADER_ROLE, TimelineModel
from foya_desktop.ui.timeline.rows import MessageRow
from foya_desktop.ui.timeline.view import TimelineView

ASK_USER = "ask_user"
MAX_CARD_WIDTH = 760
"""Wider cards are harder to read; the rest of the column stays empty."""


class TimelineCards(QObject):
    """Owns the question cards of the session on screen.

    Signals:
        fallback_changed(list): the ``QuestionCard`` widgets to show above the composer.
    """

    fallback_changed = Signal(list)

    def __init__(self, view: TimelineView, model: TimelineModel, kernel: KernelApi, runner: TaskRunner,
                 speakers: SpeakerDirectory, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.book = QuestionBook(kernel, runner, self)
        """Where every question stands (all sessions); feed it the engine's question events."""
        self._view, self._model, self._book, self._kernel = view, model, self.book, kernel
        self._speakers = speakers
        self.cards: dict[str, QuestionCard] = {}
        """Cards in the timeline by tool call id."""
        self.memory_cards: dict[str, MemorySaveCard] = {}
        """A VP's memory saves, with their undo, by tool call id."""
        self._runner = runner
        self.fallback: dict[str, QuestionCard] = {}
        """Cards above the composer by question id."""
        self._sync_timer = QTimer(self, singleShot=True, interval=0)
        self._sync_timer.timeout.connect(self.sync)
        view.timeline_delegate.renderer.cards = self
        view.rows_moved.connect(self.schedule_sync)
        model.modelReset.connect(self._reset)
        for signal in (model.rowsInserted, model.rowsRemoved, model.dataChanged, model.layoutChanged,
                       model.loading_changed):
            signal.connect(self.schedule_sync)
        self.book.changed.connect(self.refresh)
        unsubscribe = kernel.bus.subscribe(self._on_event)
        self.destroyed.connect(lambda *_: unsubscribe())

    # ---- CardSlots (asked by the renderer while measuring and painting) --------------------

    def card_height(self, row: MessageRow, call: ToolCallPart, width: int) -> int | None:
        """Room for the card of an ``ask_user`` call or a ``memory`` save; other calls draw as tool rows."""
        if call.name == MEMORY_TOOL:
            return self._memory_height(row, call, width)
        if call.name != ASK_USER:
            return None
        card = self.cards.get(call.call_id)
        if card is None:
            card = self.cards[call.call_id] = self._new_card(in_timeline=True)
        card.set_view(self._describe(row, call))
        return card.height_for(min(width, MAX_CARD_WIDTH))

    def _memory_height(self, row: MessageRow, call: ToolCallPart, width: int) -> int | None:
        """A successful save gets its card (with *Undo*); lists, forgets and failures stay tool rows."""
        result = row.result_for(call.call_id)
        saved = saved_entry(result.content) if result is not None and not result.is_error else None
        if saved is None:
            return None
        card = self.memory_cards.get(call.call_id)
        if card is None:
            card = MemorySaveCard(self._kernel, self._runner, saved[0], self._view.viewport())
            card.hide()
            card.changed.connect(lambda cid=call.call_id: self._model.refresh_call(cid))
            self.memory_cards[call.call_id] = card
            self._runner.spawn(card.check(), card.tr("Memory"))
        speaker = row.message.speaker or ""
        who = self._speakers.name(speaker)
        card.describe(who, saved[1], who, str(call.arguments.get("text", "")))
        return card.height_for(min(width, MAX_CARD_WIDTH))

    def _on_event(self, event: Event) -> None:
        """An entry removed elsewhere (the Memory window, the CLI) loses its undo here too."""
        if isinstance(event, MemoryChanged) and event.change == "removed":
            for card in self.memory_cards.values():
                if card.entry_id == event.entry_id and card.state == "saved":
                    card.set_state("gone")

    def _describe(self, row: MessageRow, call: ToolCallPart) -> CardView:
        state = self._book.for_call(call.call_id)
        result = row.result_for(call.call_id)
        unresolved = state is None and result is None and call.state in (ToolState.PENDING, ToolState.RUNNING)
        running = unresolved and self._kernel.turns.phase(row.message.session_id) != Phase.IDLE \
            and self._is_latest(row, call.call_id)
        who = self._speakers.name(row.message.speaker or "")
        return describe(state, call, result, running=running, who=who)

    def _is_latest(self, row: MessageRow, call_id: str) -> bool:
        """Could this call still be waiting for its question? Not once the person or this VP moved on."""
        i = self._model.row_of_call(call_id)
        if i is None:
            return False
        for j in range(i + 1, self._model.rowCount()):
            later = self._model.row_at(j)
            if isinstance(later, MessageRow) and (later.message.role == "user" or (
                    later.message.role == "assistant" and later.message.speaker == row.message.speaker)):
                return False
        return True

    def _new_card(self, *, in_timeline: bool) -> QuestionCard:
        card = QuestionCard(self._view.viewport() if in_timeline else None)
        card.hide()
        card.submitted.connect(self._book.submit)
        card.resend_requested.connect(self._book.resend)
        return card

    # ---- following the engine and the model ------------------------------------------------

    def schedule_sync(self, *_args: object) -> None:
        """Place the cards once the current burst of model and view changes is over.

        NOTE: never restart a running zero timer: every restart kills and re-registers a Qt timer.
        """
        if not self._sync_timer.isActive():
            self._sync_timer.start()

    def refresh(self, question_id: str = "") -> None:
        """A question's state changed (or, without an id, the session's run state did)."""
        state = self._book.state(question_id) if question_id else None
        calls = [state.asked.call_id] if state is not None else list(self.cards)
        for call_id in calls:
            self._refresh_call(call_id)
        self.schedule_sync()

    def _refresh_call(self, call_id: str) -> None:
        card, i = self.cards.get(call_id), self._model.row_of_call(call_id)
        if card is None or i is None:
            return
        row = self._model.row_at(i)
        call = next((c for c in row.message.tool_calls if c.call_id == call_id), None) \
            if isinstance(row, MessageRow) else None
        if isinstance(row, MessageRow) and call is not None and card.set_view(self._describe(row, call)):
            self._model.refresh_call(call_id)  # the height may have changed: re-measure this row

    def _reset(self) -> None:
        """Another session (or a reload): new cards, and the questions its engine still waits on."""
        for card in [*self.cards.values(), *self.memory_cards.values()]:
            card.deleteLater()
        self.cards.clear()
        self.memory_cards.clear()
        if self._model.session_id is not None:
            self.book.seed(self._kernel.asks.pending_questions(self._model.session_id))
        self.schedule_sync()

    def sync(self) -> None:
        """Move every card to its slot (hide it off screen, drop it when its row left)."""
        for cards in (self.cards, self.memory_cards):
            for call_id in list(cards):
                i = self._model.row_of_call(call_id)
                if i is None:
                    cards.pop(call_id).deleteLater()
                else:
                    self._place(cards[call_id], i, call_id)
        self._sync_fallback()

    def _place(self, card: QuestionCard | MemorySaveCard, i: int, call_id: str) -> None:
        index = self._model.index(i, 0)
        rect = self._view.visualRect(index)
        slot = self._slot(i, call_id)
        if slot is None or not rect.isValid() or not rect.intersects(self._view.viewport().rect()):
            card.hide()
            return
        width = min(slot.width(), MAX_CARD_WIDTH)
        card.setGeometry(QRect(rect.left() + slot.x(), rect.top() + slot.y(), width, slot.height()))
        card.show()

    def _slot(self, i: int, call_id: str) -> QRect | None:
        row = self._model.row_at(i)
        if not isinstance(row, MessageRow):
            return None
        canvas = Canvas(None, 0, 0, self._view.timeline_delegate.width())
        header = bool(self._model.index(i, 0).data(HEADER_ROLE))
        self._view.timeline_delegate.renderer.walk(canvas, row, header)
        return next((rect for rect, cid in canvas.slots if cid == call_id), None)

    # ---- questions without a row in the window -------------------------------------------

    def _sync_fallback(self) -> None:
        if self._model.loading:  # rows are on their way; a card shown now would only flicker
            return
        sid = self._model.session_id
        states = self._book.of_session(sid) if sid else []
        wanted = {s.asked.question_id: s for s in states if self._needs_fallback(s)}
        changed = False
        for qid in [q for q in self.fallback if q not in wanted]:
            self.fallback.pop(qid).deleteLater()
            changed = True
        for qid, state in wanted.items():
            card = self.fallback.get(qid)
            if card is None:
                card = self.fallback[qid] = self._new_card(in_timeline=False)
                changed = True
            who = self._speakers.name(state.asked.speaker)
            changed |= card.set_view(describe(state, None, None, running=True, who=who))
        if changed:
            self.fallback_changed.emit(list(self.fallback.values()))

    def _needs_fallback(self, state: QuestionState) -> bool:
        if self._model.row_of_call(state.asked.call_id) is not None:
            return False
        return not state.final or state.asked.question_id in self.fallback
