"""The Work Center façade: make, read and decide on WorkItems; advance one action at a time.

Everything here is a short store transaction or one action's run; the durable loop that
calls :meth:`WorkCenter.advance` and :meth:`WorkCenter.run_action` in turn is the DBOS
workflow in ``executor.py``. A person's decision (accept, send back, cancel) is written
here at once, in the WorkItem's row; the workflow is only woken to look again, so a
decision is never lost with a process and never applied twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.engine.work import graph
from foya_desktop.engine.work.errors import WorkFolderMissing, WorkUnknownVP
from foya_desktop.engine.work.model import (
    FINAL,
    VP_KINDS,
    Action,
    ActionKind,
    ActionState,
    Budgets,
    Contract,
    Criterion,
    ItemState,
    Run,
    WorkItem,
    item_from_record,
    item_record,
    run_from_record,
)
from foya_desktop.engine.work.steps import (
    StepResult,
    refuse_check,
    run_check,
    run_vp_step,
    transcript_session,
)
from foya_desktop.store import work_items as rows
from foya_desktop.store.history import valid_messages
from foya_desktop.store.sessions import get_session
from foya_desktop.store.vp_library import find_vp

log = logging.getLogger(__name__)

TITLE_CHARS = 72
RETRY_BACKOFF_S = 1.0
"""The wait before a failed VP run's second attempt; it doubles for each one after."""


class WorkCenter:
    """WorkItems of one data folder."""

    def __init__(self, svc: Services, scheduler: Scheduler) -> None:
        self._svc = svc
        self._scheduler = scheduler
        self.store = svc.store
        self.home = svc.store.home
        """The data folder the WorkItems and DBOS's system database live in."""

    # ---- making and reading ---------------------------------------------------------

    async def create(self, source_session: str, goal: str, *, message_id: str = "",
                     criteria: Sequence[Criterion] = (), constraints: Sequence[str] = (),
                     vps: Sequence[str] = (), workdir: str = "", budgets: Budgets | None = None,
                     plan: Sequence[Action] | None = None, max_rework: int = 2) -> WorkItem:
        """A confirmed contract becomes a ``ready`` WorkItem (refused with one sentence otherwise)."""
        session = await self.store.read(get_session, source_session)
        if message_id and not any(m.id == message_id
                                  for m in await self.store.read(valid_messages, source_session)):
            raise NotFound(f"Session {source_session} has no message {message_id}.")
        roster = [await self._vp_id(ref) for ref in (vps or session.roster)]
        folder = await asyncio.to_thread(_folder, workdir or session.workdir)
        for criterion in criteria:
            if criterion.check:
                refuse_check(criterion.check, Path(folder), self.store.home.root)
        contract = Contract(goal=goal, workdir=folder, roster=tuple(roster), criteria=tuple(criteria),
                            constraints=tuple(constraints), budgets=budgets or Budgets(),
                            source_session=session.id, source_message=message_id, max_rework=max_rework)
        actions = tuple(plan) if plan is not None else graph.default_plan(contract)
        actions = tuple([replace(a, vp=await self._vp_id(a.vp)) if a.vp else a for a in actions])
        for a in actions:
            if a.kind == ActionKind.CHECK:
                refuse_check(a.command, Path(folder), self.store.home.root)
        graph.validate(actions, roster)
        now = now_ms()
        title = goal.strip().splitlines()[0][:TITLE_CHARS] if goal.strip() else "WorkItem"
        item = WorkItem(new_id("work"), title, contract, actions, ItemState.READY, created_at=now,
                        updated_at=now)
        await self.store.write(rows.insert_item, item_record(item))
        return item

    async def _vp_id(self, ref: str) -> str:
        try:
            return (await self.store.read(find_vp, ref)).id
        except NotFound:
            raise WorkUnknownVP(f"No VP named {ref!r}: a WorkItem's roster takes VPs from the library "
                                f"(see foya vps list).", vp=ref) from None

    async def get(self, item_id: str) -> WorkItem:
        """One WorkItem."""
        return item_from_record(await self.store.read(rows.get_item, item_id))

    async def items(self) -> list[WorkItem]:
        """Every WorkItem, newest first."""
        return [item_from_record(r) for r in await self.store.read(rows.list_items)]

    async def runs(self, item_id: str) -> list[Run]:
        """Every run of a WorkItem, oldest first."""
        await self.get(item_id)
        return [run_from_record(r) for r in await self.store.read(rows.runs_of, item_id)]

    async def in_flight(self) -> list[WorkItem]:
        """WorkItems an executor is moving on (not waiting for the person, not finished)."""
        return [item_from_record(r) for r in await self.store.read(rows.items_in, (ItemState.RUNNING,))]

    # ---- the person's decisions ---------------------------------------------------

    async def start(self, item_id: str) -> WorkItem:
        """``ready`` → ``running`` (the executor then runs it)."""
        def go(item: WorkItem) -> WorkItem:
            if item.state != ItemState.READY:
                _refuse_final(item, "started")
                raise _state_refusal(item, "only a ready WorkItem starts")
            return replace(item, state=ItemState.RUNNING, wait_reason="")
        return await self._change(item_id, go)

    async def cancel(self, item_id: str) -> WorkItem:
        """Cancel: nothing more starts (a running action finishes its step first)."""
        def stop(item: WorkItem) -> WorkItem:
            _refuse_final(item, "cancelled")
            return replace(item, state=ItemState.CANCELLED, wait_reason="")
        return await self._change(item_id, stop)

    async def accept(self, item_id: str) -> WorkItem:
        """The person accepts a WorkItem whose every action is done."""
        def take(item: WorkItem) -> WorkItem:
            _refuse_final(item, "accepted")
            if item.state != ItemState.REVIEWING:
                raise _state_refusal(item, "it can be accepted once every action is done and it waits "
                                           "for you")
            return replace(item, state=ItemState.ACCEPTED, wait_reason="")
        return await self._change(item_id, take)

    async def answer(self, item_id: str, text: str) -> WorkItem:
        """The person answers the wait action the WorkItem waits at; it runs on."""
        def give(item: WorkItem) -> WorkItem:
            _refuse_final(item, "answered")
            waiting = next((a for a in item.actions if a.kind == ActionKind.WAIT
                            and a.state == ActionState.RUNNING), None)
            if item.state != ItemState.WAITING or waiting is None:
                raise _state_refusal(item, "it is not waiting for an answer")
            done = replace(waiting, state=ActionState.DONE, result=text, verdict="answered")
            return replace(item.with_action(done), state=ItemState.RUNNING, wait_reason="")
        return await self._change(item_id, give)

    async def send_back(self, item_id: str, note: str) -> WorkItem:
        """The person sends a finished WorkItem back: rework, then review and checks again."""
        def reopen(item: WorkItem) -> WorkItem:
            _refuse_final(item, "sent back")
            if item.state != ItemState.REVIEWING:
                raise _state_refusal(item, "only a WorkItem waiting for your acceptance can be sent back")
            return replace(graph.reopen(item, note), state=ItemState.RUNNING, wait_reason="")
        return await self._change(item_id, reopen)

    async def _change(self, item_id: str, change: Callable[[WorkItem], WorkItem]) -> WorkItem:
        """Apply ``change`` to the stored WorkItem in one write transaction (``rows.change_item``)."""
        def apply(record: dict[str, Any]) -> dict[str, Any]:
            return item_record(change(item_from_record(record)))
        return item_from_record(await self.store.write(rows.change_item, item_id, apply))

    # ---- advancing (called by the executor's durable steps) -------------------------

    async def advance(self, item_id: str) -> graph.Next:
        """Decide the next thing and record the state it puts the WorkItem in."""
        decided: list[graph.Next] = []

        def decide(item: WorkItem) -> WorkItem:
            if item.state in FINAL or item.state in (ItemState.READY, ItemState.DRAFT):
                decided.append(graph.Next("end", reason=str(item.state)))
                return item
            nxt = graph.next_step(item)
            starting = nxt.what == "run" and item.action(nxt.action).state == ActionState.PENDING
            over = _over_budget(item) if starting else ""
            if over:
                nxt = graph.Next("failed", nxt.action, over)
            decided.append(nxt)
            if nxt.what == "failed":
                return replace(item, state=ItemState.FAILED, failure=nxt.reason, wait_reason="")
            if nxt.what == "wait" and not nxt.action:
                return replace(item, state=ItemState.REVIEWING, wait_reason=nxt.reason)
            if nxt.what == "wait":
                waiting = replace(item.action(nxt.action), state=ActionState.RUNNING)
                return replace(item.with_action(waiting), state=ItemState.WAITING, wait_reason=nxt.reason)
            action = item.action(nxt.action)
            return replace(item.with_action(replace(action, state=ActionState.RUNNING)),
                           state=ItemState.RUNNING, wait_reason="")
        await self._change(item_id, decide)
        return decided[0]

    async def run_action(self, item_id: str, action_id: str) -> float:
        """Run one action to its end and record its outcome (resumes a run left by a crash).

        Returns the seconds to wait before running it again when its VP's turn failed and the
        contract allows another attempt (0: recorded, go on). The attempt goes on in the same
        run, so the tool calls it recorded are not run again.
        """
        item = await self.get(item_id)
        action = item.action(action_id)
        if action.state != ActionState.RUNNING or item.state != ItemState.RUNNING:
            return 0  # recorded already (the step is being replayed), or cancelled meanwhile
        run = await self._open_run(item, action)
        if action.kind == ActionKind.CHECK:
            result = await run_check(self._svc, item.id, action.command, item.contract.workdir)
        else:
            result = await run_vp_step(self._svc, self._scheduler, run.session_id, action.vp,
                                       _prompt(item, action))
        retry = not result.ok and action.kind != ActionKind.CHECK
        if retry and run.attempts < item.contract.budgets.max_attempts:
            await self.store.write(rows.change_run, run.id, {"attempts": run.attempts + 1,
                                                             "tokens": run.tokens + result.tokens,
                                                             "evidence": result.error})
            log.info("WorkItem %s: %s failed (%s); attempt %d follows", item.id, action.id, result.error,
                     run.attempts + 1)
            return float(RETRY_BACKOFF_S * 2 ** (run.attempts - 1))
        await self._record(item.id, action.id, run, result)
        return 0

    async def fail(self, item_id: str, action_id: str, reason: str) -> None:
        """An action's run crashed inside Foya: the action fails with the reason (nothing retries it)."""
        for run in await self.store.read(rows.runs_of, item_id, action_id):
            if run["state"] == "running":
                await self.store.write(rows.change_run, run["id"], {
                    "state": "failed", "finished_at": now_ms(), "outcome": "failed", "evidence": reason})

        def mark(item: WorkItem) -> WorkItem:
            action = item.action(action_id)
            return replace(item.with_action(replace(action, state=ActionState.FAILED)),
                           failure=f"Action {action_id!r} failed: {reason}")
        await self._change(item_id, mark)

    async def _open_run(self, item: WorkItem, action: Action) -> Run:
        runs = [run_from_record(r) for r in await self.store.read(rows.runs_of, item.id, action.id)]
        open_runs = [r for r in runs if r.state == "running"]
        if open_runs:
            return open_runs[-1]
        run_id = new_id("run")
        transcript = None
        if action.kind in VP_KINDS:
            source = await self.store.read(get_session, item.contract.source_session)
            transcript = transcript_session(source, item.id, run_id, action.vp, f"{item.title} · {action.id}",
                                            item.contract.workdir)
        run = Run(run_id, item.id, action.id, str(action.kind), action.vp,
                  transcript.id if transcript is not None else "", started_at=now_ms())
        await self.store.write(rows.insert_run, _run_record(run), transcript)
        await self._change(item.id, lambda i: replace(i, runs=i.runs + 1))
        return run

    async def _record(self, item_id: str, action_id: str, run: Run, result: StepResult) -> None:
        verdict, note, failure = "", "", ""
        if run.kind == ActionKind.CHECK:  # a failed check sends the work back, like a review
            verdict, note = ("pass", "") if result.ok else ("fail", result.text)
        elif run.kind == ActionKind.REVIEW and result.ok:
            verdict, note = graph.verdict_of(result.text)
            if not verdict:
                failure = (f"The review {action_id!r} ended without a verdict (a last line ACCEPT, or "
                           f"SEND BACK: what to change).")
        elif not result.ok:
            failure = f"Action {action_id!r} failed: {result.error}"
        await self.store.write(rows.change_run, run.id, {
            "state": "failed" if failure else "done", "finished_at": now_ms(),
            "tokens": run.tokens + result.tokens,
            "outcome": verdict or ("failed" if failure else "done"), "evidence": result.text[-4000:]})
        sent_back = verdict in ("send_back", "fail")

        def record(item: WorkItem) -> WorkItem:
            action = item.action(action_id)
            done = replace(action, state=ActionState.FAILED if failure else ActionState.DONE,
                           result=result.text[-4000:], verdict=verdict)
            item = replace(item.with_action(done), tokens=item.tokens + result.tokens)
            if failure:
                return replace(item, failure=failure)
            if not sent_back:
                return item
            if item.reworks >= item.contract.max_rework:
                why = (f"The check {action_id!r} failed: {note.strip()[-300:]}" if verdict == "fail" else
                       f"The review {action_id!r} sent the work back: {note}")
                return replace(item.with_action(replace(done, state=ActionState.FAILED)),
                               failure=f"{why} — and the contract's {item.contract.max_rework} rework(s) are "
                                       f"used up.")
            if verdict == "fail":
                return graph.check_failed(item, action_id, note)
            return graph.send_back(item, action_id, note, f"The review ({action_id})")
        await self._change(item_id, record)


def _folder(path: str) -> str:
    """The working folder, resolved (``WorkFolderMissing`` when it is not a folder)."""
    if not path or not Path(path).is_dir():
        raise WorkFolderMissing(f"The working folder {path or '(none)'} does not exist: choose a folder that "
                                f"does (the source session's folder is the default).", folder=path)
    return str(Path(path).resolve())


def _refuse_final(item: WorkItem, what: str) -> None:
    if item.state in FINAL:
        raise _state_refusal(item, f"it cannot be {what}", already=True)


def _state_refusal(item: WorkItem, why: str, *, already: bool = False) -> InvalidOperation:
    """What the person is told when a WorkItem's state does not allow a decision."""
    return InvalidOperation(f"WorkItem {item.id} is {item.state}{' already' if already else ''}: {why}.",
                            code="work_state", item=item.id, state=str(item.state))


def _over_budget(item: WorkItem) -> str:
    b = item.contract.budgets
    if b.max_runs and item.runs >= b.max_runs:
        return f"The budget of {b.max_runs} runs is used up."
    if b.max_tokens and item.tokens >= b.max_tokens:
        return f"The budget of {b.max_tokens} tokens is used up ({item.tokens} used)."
    if b.deadline_ms and now_ms() >= b.deadline_ms:
        return "The deadline has passed."
    return ""


def _run_record(run: Run) -> dict[str, Any]:
    return asdict(run)


def _prompt(item: WorkItem, action: Action) -> str:
    """What the VP is asked: the contract, its part, and the results it waits for."""
    c = item.contract
    lines = [f"You are working on a WorkItem of the Work Center. Goal: {c.goal}", "",
             f"Your part ({action.id}): {action.instruction}"]
    if c.criteria:
        lines += ["", "Acceptance criteria:", *(f"- {x.text}" + (f" (check: `{x.check}`)" if x.check else "")
                                               for x in c.criteria)]
    if c.constraints:
        lines += ["", "Constraints:", *(f"- {x}" for x in c.constraints)]
    for dep in action.after:
        done = item.action(dep)
        if done.result:
            lines += ["", f"Result of {dep}" + (f" ({done.vp})" if done.vp else "") + ":", done.result]
    if action.kind == ActionKind.REVIEW:
        lines += ["", f"End your reply with one line: {graph.ACCEPT}, or {graph.SEND_BACK}: what to change."]
    return "\n".join(lines)
