"""AskUser cards: in the timeline at the call, "waiting" until the engine confirms, resend, expiry.

End-to-end against the REAL kernel (question broker, SQLite event log); the
card's words are also checked as a pure function of what the window knows.
"""

from __future__ import annotations

import asyncio

import pytest

from foya_desktop.core.events import QuestionAsked
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, ToolCallPart, ToolResultPart, ToolState
from foya_desktop.core.model import Phase
from foya_desktop.engine.kernel import Kernel
from foya_desktop.ui.cards import questions
from foya_desktop.ui.cards.question_card import QuestionCard
from foya_desktop.ui.cards.question_view import Mode, describe
from foya_desktop.ui.cards.questions import QuestionState, Stage
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import Events, open_session, reply, settle, show, wait_until


def _ask(question: str = "Which database should I use?", choices: tuple[str, ...] = ("SQLite", "Postgres")) -> Reply:
    return Reply(tool_calls=[ToolCallSpec("ask_user", {"question": question, "choices": list(choices)})])


async def _question_card(window: MainWindow, mode: Mode = Mode.INPUT, timeout: float = 10) -> QuestionCard:
    def find() -> QuestionCard | None:
        return next((c for c in window.pane.cards.cards.values() if c.view and c.view.mode == mode), None)
    await wait_until(lambda: find() is not None and find().isVisible(), timeout, f"a {mode} card")  # type: ignore[union-attr]
    card = find()
    assert card is not None
    return card


def _choice(card: QuestionCard, text: str) -> None:
    next(b for b in card.choice_buttons if b.text() == text).click()


async def _answers_stored(kernel: Kernel, sid: str) -> list[str]:
    return [p["answer"] for _, kind, p in await kernel.store.events(sid) if kind == "question_answered"]


async def _ask_in_new_session(window: MainWindow, kernel: Kernel, text: str = "set up storage") -> str:
    sid = await open_session(window, kernel, title="Storage")
    window.pane.composer.input.setPlainText(text)
    window.pane.send()
    return sid


async def test_card_sits_at_the_call_and_says_waiting_until_the_engine_confirms(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(_ask(), Reply(text="SQLite it is."))
    events = Events(real_kernel)
    sid = await _ask_in_new_session(real_window, real_kernel)
    card = await _question_card(real_window)
    pane = real_window.pane
    assert card.parent() is pane.timeline_view.viewport()
    assert card.view is not None and card.view.question == "Which database should I use?"
    assert [b.text() for b in card.choice_buttons] == ["SQLite", "Postgres"] and card.free.isVisible()
    (call_id,) = [cid for cid, c in pane.cards.cards.items() if c is card]
    row = pane.timeline_model.row_of_call(call_id)
    assert row is not None
    assert pane.timeline_view.visualRect(pane.timeline_model.index(row, 0)).contains(card.geometry())
    _choice(card, "SQLite")
    assert card.view.mode == Mode.WAITING  # submitted is not answered
    assert "waiting for the agent to confirm" in card.status.text() and "✓" not in card.status.text()
    assert not card.free.isVisible() and not any(b.isVisible() for b in card.choice_buttons)
    await _question_card(real_window, Mode.ANSWERED)
    assert card.status.text() == "✓ You answered: SQLite"
    assert (await events.turns(1))[0].status == "completed"
    assert await _answers_stored(real_kernel, sid) == ["SQLite"]
    assert "SQLite" in str(fake_provider.requests[1].body["messages"][-1]["content"])


async def test_free_text_answer(real_window: MainWindow, real_kernel: Kernel,
                                fake_provider: FakeProviderServer) -> None:
    fake_provider.script(_ask("What should the file be called?", ()), Reply(text="Ok."))
    events = Events(real_kernel)
    sid = await _ask_in_new_session(real_window, real_kernel)
    card = await _question_card(real_window)
    assert card.choice_buttons == [] and card.free.isVisible()
    card.free.setText("  notes.md ")
    card.free.returnPressed.emit()
    await events.turns(1)
    assert await _answers_stored(real_kernel, sid) == ["notes.md"]
    assert card.view is not None and card.view.mode == Mode.ANSWERED


async def test_resend_keeps_the_question_id_and_never_answers_twice(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(questions, "RESEND_AFTER_S", 0.2)
    real_answer = real_kernel.asks.answer_question
    sent: list[tuple[str, str]] = []
    returned: list[str] = []

    async def slow_first_delivery(question_id: str, answer: str) -> str:
        sent.append((question_id, answer))
        if len(sent) == 1:
            await asyncio.sleep(1.0)  # the first delivery hangs: no confirmation in time
        status = await real_answer(question_id, answer)
        returned.append(str(status))
        return status

    monkeypatch.setattr(real_kernel.asks, "answer_question", slow_first_delivery)
    fake_provider.script(_ask(), Reply(text="SQLite it is."))
    events = Events(real_kernel)
    sid = await _ask_in_new_session(real_window, real_kernel)
    card = await _question_card(real_window)
    _choice(card, "SQLite")
    assert card.view is not None and card.view.mode == Mode.WAITING and not card.resend.isVisible()
    await _question_card(real_window, Mode.RESEND)
    assert card.resend.isVisible() and "No confirmation" in card.status.text()
    card.resend.click()
    assert card.view.mode == Mode.WAITING
    await _question_card(real_window, Mode.ANSWERED)
    await events.turns(1)
    await wait_until(lambda: len(returned) == 2, what="the slow first delivery returned")
    (qid,) = [q.question_id for q in events.of(QuestionAsked, sid)]
    assert sent == [(qid, "SQLite"), (qid, "SQLite")]
    assert sorted(returned) == ["accepted", "already_answered"]
    assert await _answers_stored(real_kernel, sid) == ["SQLite"]  # one answer, never two
    # the mode changed while awaiting; mypy still holds the narrowing from before
    assert card.view.mode == Mode.ANSWERED and not card.resend.isVisible()  # type: ignore[comparison-overlap]


async def test_expired_question_offers_no_submit_and_asks_the_vp_to_ask_again(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    real_kernel.svc.questions.ttl_s = 0.5
    fake_provider.script(_ask(), Reply(text="I will wait."))
    events = Events(real_kernel)
    sid = await _ask_in_new_session(real_window, real_kernel)
    card = await _question_card(real_window)
    await events.turns(1)
    await _question_card(real_window, Mode.CLOSED)
    assert not card.free.isVisible() and not any(b.isVisible() for b in card.choice_buttons)
    assert not card.resend.isVisible()
    assert "Ask Omni to ask again" in card.status.text()
    assert await _answers_stored(real_kernel, sid) == []


async def test_answer_after_switching_sessions_and_back(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer) -> None:
    fake_provider.script(_ask(), Reply(text="Postgres then."))
    events = Events(real_kernel)
    sid = await _ask_in_new_session(real_window, real_kernel)
    await _question_card(real_window)
    await open_session(real_window, real_kernel, title="Elsewhere")
    assert real_window.pane.cards.cards == {}
    await show(real_window, sid)
    card = await _question_card(real_window)
    _choice(card, "Postgres")
    assert (await events.turns(1, sid))[0].status == "completed"
    assert await _answers_stored(real_kernel, sid) == ["Postgres"]


async def test_expired_reply_from_the_engine_closes_the_card(fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await fake_kernel.sessions.create_session(title="Lost question")
    call = ToolCallPart("call_1", "ask_user", {"question": "Deploy now?", "choices": ["Yes", "No"]}, ToolState.RUNNING)
    fake_kernel.add_messages(session.id, [reply("", parts=[call], turn_id="t1", mid="msg_a1")])
    fake_kernel.phases[session.id] = Phase.TURN
    await settle()
    await show(fake_window, session.id)
    asked = QuestionAsked(session.id, "q1", "omni", "call_1", "Deploy now?", ("Yes", "No"))
    fake_kernel.ask(asked)
    card = await _question_card(fake_window)
    fake_kernel.questions.clear()  # the engine lost it (e.g. the turn was cancelled) without telling us
    _choice(card, "Yes")
    await fake_window.runner.drain()
    await _question_card(fake_window, Mode.CLOSED)
    assert fake_kernel.called("answer_question") == [("q1", "Yes")]
    assert "no longer open" in card.status.text() and not card.free.isVisible()


async def test_question_without_a_timeline_row_is_answerable_above_the_composer(
        fake_window: MainWindow, fake_kernel: FakeKernel) -> None:
    session = await fake_kernel.sessions.create_session(title="Paged away")
    await settle()
    await show(fake_window, session.id)
    fake_kernel.ask(QuestionAsked(session.id, "q1", "omni", "call_elsewhere", "Still there?", ("Yes",)))
    await wait_until(lambda: fake_window.pane.cards.fallback, what="fallback card")
    card = fake_window.pane.cards.fallback["q1"]
    await wait_until(card.isVisible, what="fallback card visible")
    assert card.parent() is fake_window.pane.attention
    _choice(card, "Yes")
    await fake_window.runner.drain()
    await settle()
    assert fake_kernel.called("answer_question") == [("q1", "Yes")]
    assert card.view is not None and card.view.mode == Mode.ANSWERED


async def test_history_questions_after_a_restart_say_ask_again(real_window: MainWindow, real_kernel: Kernel) -> None:
    sid = await open_session(real_window, real_kernel, title="Before the restart")
    lost = ToolCallPart("call_lost", "ask_user", {"question": "Which port?"}, ToolState.RUNNING)
    failed = ToolCallPart("call_failed", "ask_user", {"question": "Which host?"}, ToolState.ERROR)
    done = ToolCallPart("call_done", "ask_user", {"question": "Which user?"}, ToolState.COMPLETED)
    store = real_kernel.store
    for call, result in ((lost, None), (failed, ("The app stopped while this tool was running.", True)),
                         (done, ("The person answered: admin", False))):
        await store.append_message(Message(new_id("msg"), sid, "assistant", (call,), speaker="omni",
                                           turn_id="t_old", created_at=now_ms()))
        if result is not None:
            await store.append_message(Message(new_id("msg"), sid, "tool",
                                               (ToolResultPart(call.call_id, "ask_user", result[0], result[1]),),
                                               speaker="omni", turn_id="t_old", created_at=now_ms()))
    await open_session(real_window, real_kernel, title="Elsewhere")
    await show(real_window, sid)
    cards = real_window.pane.cards.cards
    await wait_until(lambda: len(cards) == 3, what="three cards")
    views = {cid: c.view for cid, c in cards.items()}
    assert all(v is not None for v in views.values())
    assert views["call_lost"].mode == Mode.CLOSED and "no longer open" in views["call_lost"].status  # type: ignore[union-attr]
    assert views["call_failed"].mode == Mode.CLOSED  # type: ignore[union-attr]
    assert views["call_failed"].detail.startswith("The app stopped")  # type: ignore[union-attr]
    assert views["call_done"].mode == Mode.ANSWERED and views["call_done"].answer == "admin"  # type: ignore[union-attr]
    assert not any(c.free.isVisible() for c in cards.values())


def _state(stage: Stage, answer: str = "", detail: str = "") -> QuestionState:
    asked = QuestionAsked("ses_1", "q1", "omni", "c1", "Proceed?", ("Yes", "No"))
    return QuestionState(asked, stage, answer, detail)


@pytest.mark.parametrize(("stage", "mode", "words"), [
    (Stage.OPEN, Mode.INPUT, ""),
    (Stage.SENDING, Mode.WAITING, "waiting for the agent to confirm"),
    (Stage.SLOW, Mode.RESEND, "No confirmation"),
    (Stage.FAILED, Mode.RESEND, "Could not deliver"),
    (Stage.ANSWERED, Mode.ANSWERED, "✓ You answered: Yes"),
    (Stage.CLOSED, Mode.CLOSED, "ask again"),
])
def test_card_words_follow_the_engine_state(stage: Stage, mode: Mode, words: str) -> None:
    view = describe(_state(stage, "Yes" if stage != Stage.OPEN else "", "agent offline."), None, None,
                    running=True, who="Omni")
    assert view.mode == mode and words in view.status
    if stage != Stage.ANSWERED:
        assert "✓" not in view.status  # nothing is shown as answered unless the engine confirmed


def test_a_stored_result_wins_over_live_state() -> None:
    call = ToolCallPart("c1", "ask_user", {"question": "Proceed?"}, ToolState.COMPLETED)
    ok = ToolResultPart("c1", "ask_user", "The person answered: Yes")
    bad = ToolResultPart("c1", "ask_user", "The question was not answered: cancelled.", is_error=True)
    assert describe(_state(Stage.SENDING, "Yes"), call, ok, running=False).mode == Mode.ANSWERED
    assert describe(_state(Stage.SENDING, "Yes"), call, bad, running=False).mode == Mode.CLOSED
    assert describe(None, call, None, running=True).mode == Mode.PENDING
    assert describe(None, call, None, running=False).mode == Mode.CLOSED
    assert describe(None, call, ok, running=False).answer == "Yes"


async def test_agent_unavailable_shows_a_retry_and_the_resend_delivers(fake_window: MainWindow,
                                                                       fake_kernel: FakeKernel) -> None:
    session = await fake_kernel.sessions.create_session(title="Flaky engine")
    call = ToolCallPart("call_1", "ask_user", {"question": "Ship it?", "choices": ["Yes", "No"]}, ToolState.RUNNING)
    fake_kernel.add_messages(session.id, [reply("", parts=[call], turn_id="t1", mid="msg_a1")])
    fake_kernel.phases[session.id] = Phase.TURN
    await settle()
    await show(fake_window, session.id)
    fake_kernel.ask(QuestionAsked(session.id, "q1", "omni", "call_1", "Ship it?", ("Yes", "No")))
    card = await _question_card(fake_window)
    real_answer = fake_kernel.asks.answer_question
    attempts: list[str] = []

    async def unavailable_once(question_id: str, answer: str) -> str:
        attempts.append(question_id)
        if len(attempts) == 1:
            raise ConnectionError("the engine is restarting")
        return await real_answer(question_id, answer)

    fake_kernel.asks.answer_question = unavailable_once  # type: ignore[method-assign]
    _choice(card, "Yes")
    await _question_card(fake_window, Mode.RESEND)
    assert "Could not deliver" in card.status.text() and "the engine is restarting" in card.status.text()
    assert card.resend.isVisible() and "✓" not in card.status.text()
    card.resend.click()
    await _question_card(fake_window, Mode.ANSWERED)
    assert attempts == ["q1", "q1"] and fake_kernel.called("answer_question") == [("q1", "Yes")]
