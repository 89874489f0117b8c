"""The action graph's rules: which graphs may run, what runs next, what a send-back adds.

A graph is a DAG over ``Action.after``. Going back is never an edge: a review's (or the
person's) send-back *adds* a rework action and a fresh review after it, so the graph
stays acyclic and each rework has its own runs; the number of reworks is bounded by the
contract's ``max_rework``. Any other cycle is refused with the cycle named.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from foya_desktop.engine.work.errors import WorkGraphInvalid
from foya_desktop.engine.work.model import (
    VP_KINDS,
    Action,
    ActionKind,
    ActionState,
    Contract,
    Criterion,
    WorkItem,
)

SEND_BACK = "SEND BACK"
ACCEPT = "ACCEPT"


def validate(actions: Sequence[Action], roster: Iterable[str]) -> None:
    """Refuse a graph that cannot run, with the reason (``WorkGraphInvalid``)."""
    members = set(roster)
    ids = [a.id for a in actions]
    if not actions:
        raise WorkGraphInvalid("The action graph is empty: add at least one action.", action="")
    duplicate = next((i for i in ids if ids.count(i) > 1), None)
    if duplicate is not None:
        raise WorkGraphInvalid(f"Two actions are called {duplicate!r}: every action needs its own id.",
                               action=duplicate)
    for a in actions:
        unknown = [d for d in a.after if d not in ids]
        if unknown:
            raise WorkGraphInvalid(f"Action {a.id!r} waits for {unknown[0]!r}, which is not in the graph.",
                                   action=a.id)
        if a.kind in VP_KINDS and a.vp not in members:
            raise WorkGraphInvalid(f"Action {a.id!r} needs a VP from the roster "
                                   f"({', '.join(sorted(members))}).", action=a.id)
        if a.kind == ActionKind.CHECK and not a.command.strip():
            raise WorkGraphInvalid(f"Check {a.id!r} has no command.", action=a.id)
        if a.kind == ActionKind.WAIT and not a.instruction.strip():
            raise WorkGraphInvalid(f"Wait {a.id!r} has no question for the person (its instruction).",
                                   action=a.id)
    cycle = find_cycle(actions)
    if cycle:
        path = " → ".join(cycle)
        raise WorkGraphInvalid(
            f"The action graph has a cycle ({path}): actions cannot wait for each other. To have "
            f"work done again after a review, let the review send it back (bounded rework).",
            action=cycle[0])


def find_cycle(actions: Sequence[Action]) -> list[str]:
    """One cycle as a closed path of ids (``[]`` when the graph is acyclic)."""
    after = {a.id: a.after for a in actions}
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for dep in after.get(node, ()):
            if state.get(dep) == 1:
                return [*path[path.index(dep):], dep][::-1]
            if dep not in state:
                found = visit(dep)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for a in actions:
        if a.id not in state:
            found = visit(a.id)
            if found:
                return found
    return []


def ordered(actions: Sequence[Action]) -> list[Action]:
    """The actions in an order that runs (each after what it waits for), otherwise as stored."""
    placed: list[Action] = []
    done: set[str] = set()
    todo = list(actions)
    while todo:
        ready = next((a for a in todo if all(d in done for d in a.after)), todo[0])
        todo.remove(ready)
        placed.append(ready)
        done.add(ready.id)
    return placed


def default_plan(contract: Contract) -> tuple[Action, ...]:
    """The plan a contract gets when the person gives none: the first VP implements, the second
    (if any) reviews, then each criterion's check command runs."""
    implementer = contract.roster[0]
    actions = [Action("implement", ActionKind.AGENT, vp=implementer, instruction=contract.goal)]
    if len(contract.roster) > 1:
        actions.append(Action("review", ActionKind.REVIEW, vp=contract.roster[1], after=("implement",),
                              instruction="Review the result against the acceptance criteria."))
    last = actions[-1].id
    for n, criterion in enumerate(contract.criteria, start=1):
        if criterion.check:
            actions.append(Action(f"check-{n}", ActionKind.CHECK, command=criterion.check, after=(last,),
                                  instruction=criterion.text))
    return tuple(actions)


@dataclass(frozen=True, slots=True)
class Next:
    """What the executor does next: run ``action``, wait (``reason``), or finish."""

    what: str
    """``run``, ``wait`` (a wait action or the person's acceptance) or ``failed``."""
    action: str = ""
    reason: str = ""


def next_step(item: WorkItem) -> Next:
    """The next thing to do: an action left running (resume it), the first ready one, a wait."""
    running = next((a for a in item.actions if a.state == ActionState.RUNNING), None)
    if running is not None:
        return _run_or_wait(running)
    failed = next((a for a in item.actions if a.state == ActionState.FAILED), None)
    if failed is not None:
        return Next("failed", failed.id, item.failure or f"Action {failed.id!r} failed.")
    done = {a.id for a in item.actions if a.state == ActionState.DONE}
    for a in item.actions:
        if a.state == ActionState.PENDING and all(d in done for d in a.after):
            return _run_or_wait(a)
    if len(done) == len(item.actions):
        return Next("wait", "", acceptance_reason(item))
    raise WorkGraphInvalid("No action can start: the graph waits for something that never ends.", action="")


def _run_or_wait(action: Action) -> Next:
    if action.kind == ActionKind.WAIT:
        return Next("wait", action.id, f"Waiting for your answer: {action.instruction}")
    return Next("run", action.id)


def acceptance_reason(item: WorkItem) -> str:
    """Why a finished graph waits: the person's acceptance, with the evidence counted."""
    checks = [a for a in item.actions if a.kind == ActionKind.CHECK and a.verdict == "pass"]
    return (f"Every action is done ({len(checks)} check(s) passed): accept it, or send it back "
            f"with what to change.")


def evidence(item: WorkItem, criterion: Criterion) -> Action | None:
    """The action whose outcome is the criterion's evidence now: its check's newest run, passed;
    for a criterion without a check, the newest review, accepted."""
    if criterion.check:
        checks = [a for a in item.actions if a.kind == ActionKind.CHECK and a.command == criterion.check
                  and a.state == ActionState.DONE]
        return checks[-1] if checks and checks[-1].verdict == "pass" else None
    reviews = [a for a in item.actions if a.kind == ActionKind.REVIEW and a.state == ActionState.DONE]
    return reviews[-1] if reviews and reviews[-1].verdict == "accept" else None


def verdict_of(reply: str) -> tuple[str, str]:
    """A review's verdict from its last non-empty line: (``accept``|``send_back``|``""``, note)."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    upper = last.upper()
    if upper.startswith(SEND_BACK):
        note = last[len(SEND_BACK):].lstrip(" :—-")
        return "send_back", note or "\n".join(lines[:-1])
    if upper.startswith(ACCEPT):
        return "accept", ""
    return "", ""


def send_back(item: WorkItem, review_id: str, note: str, by: str) -> WorkItem:
    """A review sent its work back: add a rework of what it reviewed and a fresh review after
    it; whatever waited for the old review waits for the new one. Bounded by ``max_rework``."""
    review = item.action(review_id)
    targets = [item.action(d) for d in review.after if item.action(d).kind in VP_KINDS]
    target = targets[-1] if targets else _last_work(item)
    n = item.reworks + 1
    rework = Action(f"rework-{n}", ActionKind.AGENT, vp=target.vp, after=(review.id,),
                    rework_of=target.rework_of or target.id,
                    instruction=f"{_original(item, target).instruction}\n\n{by} sent the work back: {note}")
    again = replace(review, id=f"{_base(review)}-{n + 1}", after=(rework.id,), state=ActionState.PENDING,
                    result="", verdict="", rework_of=_base(review))
    moved = tuple(replace(a, after=tuple(again.id if d == review.id else d for d in a.after))
                  for a in item.actions)
    return replace(item, actions=(*moved, rework, again), reworks=n)


def check_failed(item: WorkItem, check_id: str, output: str) -> WorkItem:
    """A check failed: the last work is done again with the check's output, reviewed again (if
    the graph has a review) and checked again; whatever waited for the check waits for its new
    run. Bounded by ``max_rework`` like a review's send-back."""
    check = item.action(check_id)
    target = _last_work(item)
    n = item.reworks + 1
    rework = Action(f"rework-{n}", ActionKind.AGENT, vp=target.vp, after=(check.id,),
                    rework_of=target.rework_of or target.id,
                    instruction=f"{_original(item, target).instruction}\n\n"
                                f"The check `{check.command}` failed:\n{output.strip()[-2000:]}")
    added = [rework]
    reviews = [a for a in item.actions if a.kind == ActionKind.REVIEW]
    if reviews:
        added.append(replace(reviews[-1], id=f"{_base(reviews[-1])}-{n + 1}", after=(rework.id,),
                             state=ActionState.PENDING, result="", verdict="", rework_of=_base(reviews[-1])))
    again = replace(check, id=f"{_base(check)}-{n + 1}", after=(added[-1].id,), state=ActionState.PENDING,
                    result="", verdict="", rework_of=_base(check))
    moved = tuple(replace(a, after=tuple(again.id if d == check.id else d for d in a.after))
                  for a in item.actions)
    return replace(item, actions=(*moved, *added, again), reworks=n)


def reopen(item: WorkItem, note: str) -> WorkItem:
    """The person sent a finished graph back: rework the last work, then review (if the graph
    has a review) and run its checks again, in the same order as before."""
    target = _last_work(item)
    n = item.reworks + 1
    last_done = item.actions[-1].id
    rework = Action(f"rework-{n}", ActionKind.AGENT, vp=target.vp, after=(last_done,),
                    rework_of=target.rework_of or target.id,
                    instruction=f"{_original(item, target).instruction}\n\n"
                                f"The person sent the work back: {note}")
    added: list[Action] = [rework]
    reviews = [a for a in item.actions if a.kind == ActionKind.REVIEW]
    if reviews:
        added.append(replace(reviews[-1], id=f"{_base(reviews[-1])}-{n + 1}", after=(rework.id,),
                             state=ActionState.PENDING, result="", verdict="", rework_of=_base(reviews[-1])))
    anchor = added[-1].id
    seen: set[str] = set()
    for check in (a for a in item.actions if a.kind == ActionKind.CHECK):
        base = _base(check)
        if base in seen:
            continue
        seen.add(base)
        added.append(replace(check, id=f"{base}-{n + 1}", after=(anchor,),
                             state=ActionState.PENDING, result="", verdict="", rework_of=base))
    return replace(item, actions=(*item.actions, *added), reworks=n)


def _base(action: Action) -> str:
    return action.rework_of or action.id


def _original(item: WorkItem, action: Action) -> Action:
    return item.action(action.rework_of) if action.rework_of else action


def _last_work(item: WorkItem) -> Action:
    work = [a for a in item.actions if a.kind in (ActionKind.AGENT, ActionKind.RELAY)]
    if not work:
        raise WorkGraphInvalid("There is no agent step to send back to.", action="")
    return work[-1]
