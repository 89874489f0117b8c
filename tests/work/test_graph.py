"""The action graph's rules, without a database: what may run, what runs next, what a send-back adds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from foya_desktop.engine.work import graph
from foya_desktop.engine.work.errors import WorkGraphInvalid
from foya_desktop.engine.work.model import (
    Action,
    ActionKind,
    ActionState,
    Contract,
    Criterion,
    WorkItem,
    item_from_record,
    item_record,
)

A, R, C = ActionKind.AGENT, ActionKind.REVIEW, ActionKind.CHECK


def _item(*actions: Action) -> WorkItem:
    return WorkItem("work_x", "t", Contract("goal", "/tmp", ("linus", "martin")), actions)


def _done(item: WorkItem, *ids: str, verdict: str = "") -> WorkItem:
    for i in ids:
        item = item.with_action(replace(item.action(i), state=ActionState.DONE, verdict=verdict))
    return item


def test_a_cycle_is_refused_with_the_cycle_named() -> None:
    actions = [Action("a", A, vp="linus", after=("c",)), Action("b", A, vp="linus", after=("a",)),
               Action("c", R, vp="martin", after=("b",))]
    with pytest.raises(WorkGraphInvalid) as caught:
        graph.validate(actions, ["linus", "martin"])
    text = str(caught.value)
    assert "cycle" in text and "bounded rework" in text
    path = text[text.index("(") + 1:text.index(")")].split(" → ")
    assert path[0] == path[-1] and set(path) == {"a", "b", "c"}
    assert caught.value.exit_code == 20


def test_a_self_loop_is_a_cycle() -> None:
    with pytest.raises(WorkGraphInvalid, match=r"cycle \(a → a\)"):
        graph.validate([Action("a", A, vp="linus", after=("a",))], ["linus"])


@pytest.mark.parametrize(("actions", "says"), [
    ([], "empty"),
    ([Action("a", A, vp="linus"), Action("a", A, vp="linus")], "Two actions are called 'a'"),
    ([Action("a", A, vp="linus", after=("ghost",))], "waits for 'ghost', which is not in the graph"),
    ([Action("a", A, vp="someone")], "needs a VP from the roster"),
    ([Action("a", C)], "has no command"),
    ([Action("a", ActionKind.WAIT)], "has no question"),
])
def test_graphs_that_cannot_run_are_refused(actions: list[Action], says: str) -> None:
    with pytest.raises(WorkGraphInvalid, match=says):
        graph.validate(actions, ["linus"])


def test_a_diamond_is_fine() -> None:
    graph.validate([Action("a", A, vp="linus"), Action("b", A, vp="linus", after=("a",)),
                    Action("c", A, vp="linus", after=("a",)), Action("d", R, vp="martin", after=("b", "c"))],
                   ["linus", "martin"])


def test_the_default_plan_implements_reviews_and_checks() -> None:
    contract = Contract("g", "/tmp", ("linus", "martin"), (Criterion("tests pass", "pytest -q"), Criterion("docs")))
    plan = graph.default_plan(contract)
    assert [(a.id, a.kind, a.vp, a.after) for a in plan] == [
        ("implement", A, "linus", ()), ("review", R, "martin", ("implement",)),
        ("check-1", C, "", ("review",))]
    graph.validate(plan, contract.roster)


def test_next_step_follows_dependencies_and_waits_for_acceptance_at_the_end() -> None:
    item = _item(*graph.default_plan(Contract("g", "/tmp", ("linus", "martin"))))
    assert graph.next_step(item) == graph.Next("run", "implement")
    item = _done(item, "implement")
    assert graph.next_step(item) == graph.Next("run", "review")
    item = _done(item, "review", verdict="accept")
    last = graph.next_step(item)
    assert last.what == "wait" and last.action == "" and "accept it" in last.reason


def test_a_send_back_adds_a_rework_and_a_fresh_review_and_stays_acyclic() -> None:
    contract = Contract("g", "/tmp", ("linus", "martin"), (Criterion("ok", "true"),))
    item = _done(_item(*graph.default_plan(contract)), "implement")
    item = _done(item, "review", verdict="send_back")
    again = graph.send_back(item, "review", "write fixed", "The review (review)")
    assert [a.id for a in again.actions] == ["implement", "review", "check-1", "rework-1", "review-2"]
    rework, review2 = again.action("rework-1"), again.action("review-2")
    assert rework.vp == "linus" and rework.after == ("review",) and rework.rework_of == "implement"
    assert "sent the work back: write fixed" in rework.instruction
    assert review2.vp == "martin" and review2.after == ("rework-1",) and review2.state == ActionState.PENDING
    assert again.action("check-1").after == ("review-2",)  # the check waits for the new review
    assert again.reworks == 1
    graph.validate(again.actions, contract.roster)
    assert graph.next_step(again) == graph.Next("run", "rework-1")


def test_the_persons_send_back_reopens_rework_review_and_checks() -> None:
    contract = Contract("g", "/tmp", ("linus", "martin"), (Criterion("ok", "true"), Criterion("lint", "ruff")))
    item = _item(*graph.default_plan(contract))
    item = _done(item, "implement", "check-1", "check-2")
    item = _done(item, "review", verdict="accept")
    again = graph.reopen(item, "shorter please")
    added = [(a.id, a.after) for a in again.actions[len(item.actions):]]
    assert added == [("rework-1", ("check-2",)), ("review-2", ("rework-1",)),
                     ("check-1-2", ("review-2",)), ("check-2-2", ("review-2",))]
    graph.validate(again.actions, contract.roster)


@pytest.mark.parametrize(("reply", "verdict", "note"), [
    ("Looks good.\nACCEPT", "accept", ""),
    ("It says draft.\nSEND BACK: write fixed", "send_back", "write fixed"),
    ("send back — tests fail", "send_back", "tests fail"),
    ("I think it is fine", "", ""),
    ("", "", ""),
])
def test_a_reviews_verdict_is_its_last_line(reply: str, verdict: str, note: str) -> None:
    assert graph.verdict_of(reply) == (verdict, note)


def test_the_stored_form_round_trips() -> None:
    contract = Contract("g", "/tmp", ("linus", "martin"), (Criterion("ok", "true"),), ("no new deps",))
    item = _item(*graph.default_plan(contract))
    item = WorkItem(item.id, item.title, contract, item.actions)
    assert item_from_record(item_record(item)) == item


def test_ordered_puts_each_action_after_what_it_waits_for() -> None:
    contract = Contract("g", "/tmp", ("linus", "martin"), (Criterion("ok", "true"),))
    item = _done(_item(*graph.default_plan(contract)), "implement")
    again = graph.send_back(_done(item, "review", verdict="send_back"), "review", "x", "The review")
    assert [a.id for a in graph.ordered(again.actions)] == ["implement", "review", "rework-1", "review-2",
                                                             "check-1"]


def test_a_failed_check_adds_rework_review_and_the_check_again() -> None:
    contract = Contract("g", "/tmp", ("linus", "martin"), (Criterion("ok", "make test"),))
    item = _done(_item(*graph.default_plan(contract)), "implement")
    item = _done(_done(item, "review", verdict="accept"), "check-1", verdict="fail")
    again = graph.check_failed(item, "check-1", "3 failed\n")
    added = [(a.id, a.kind, a.after) for a in again.actions[len(item.actions):]]
    assert added == [("rework-1", A, ("check-1",)), ("review-2", R, ("rework-1",)), ("check-1-2", C, ("review-2",))]
    assert "The check `make test` failed:\n3 failed" in again.action("rework-1").instruction
    graph.validate(again.actions, contract.roster)
    assert graph.evidence(again, contract.criteria[0]) is None
