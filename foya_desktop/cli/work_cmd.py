"""``foya work create | list | show | start | cancel | accept | send-back | answer | runs``: the Work Center
from a terminal (docs/work-center.md "Work Center").

A command that moves WorkItems on (``start``, ``accept``, ``send-back``, ``answer``, ``cancel``) runs the
executor in this process — unless another process runs it already, which is then only woken
— until every WorkItem it runs waits for the person or has ended: WorkItems a killed process
left in flight resume then too. ``dbos`` is imported only here, never for other commands.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import BadInput, FoyaError
from foya_desktop.core.terminal import visible
from foya_desktop.engine.bootstrap import open_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.work.center import WorkCenter
from foya_desktop.engine.work.graph import evidence, ordered
from foya_desktop.engine.work.model import (
    Action,
    ActionKind,
    Budgets,
    Criterion,
    Run,
    WorkItem,
    item_record,
)

READING = ("list", "show", "runs")


class _Criterion(argparse.Action):
    """``--criterion TEXT`` adds a criterion; a following ``--check CMD`` belongs to it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        found: list[Criterion] = list(getattr(namespace, "criteria", None) or [])
        if option_string == "--check":
            if not found or found[-1].check:
                parser.error("--check belongs to the --criterion before it (one check per criterion)")
            found[-1] = Criterion(found[-1].text, str(values))
        else:
            found.append(Criterion(str(values)))
        namespace.criteria = found


def add_work_parser(p: argparse.ArgumentParser) -> None:
    """The ``work`` subcommands."""
    sub = p.add_subparsers(dest="action", required=True)
    make = sub.add_parser("create", help="make a WorkItem from a session (ready to start)")
    make.add_argument("--from-session", required=True, metavar="ID", help="the source session")
    make.add_argument("--message", default="", metavar="ID", help="the source message in that session")
    make.add_argument("--goal", required=True, metavar="TEXT")
    make.add_argument("--criterion", action=_Criterion, dest="criteria", metavar="TEXT",
                      help="an acceptance criterion (repeatable)")
    make.add_argument("--check", action=_Criterion, dest="criteria", metavar="CMD",
                      help="a command for the criterion before it; exit status 0 is its evidence")
    make.add_argument("--constraint", action="append", default=[], metavar="TEXT")
    make.add_argument("--vp", default="", metavar="A,B",
                      help="the roster: the first implements, the second reviews (default: the session's)")
    make.add_argument("--folder", default="", metavar="DIR", help="working folder (default: the session's)")
    make.add_argument("--plan", metavar="FILE", help="the action graph as JSON (default: implement, "
                      "review, checks)")
    make.add_argument("--max-runs", type=int, default=20)
    make.add_argument("--max-tokens", type=int, default=0)
    make.add_argument("--max-rework", type=int, default=2)
    make.add_argument("--max-attempts", type=int, default=3, help="attempts of a VP run whose turn failed")
    make.add_argument("--deadline", metavar="ISO", help="no action starts after this time")
    make.add_argument("--json", action="store_true")
    ls = sub.add_parser("list", help="WorkItems, newest first")
    ls.add_argument("--json", action="store_true")
    for name, text in (("show", "a WorkItem: contract, graph, state and why it waits"),
                       ("start", "start a ready WorkItem (or go on with one in flight) and run it until "
                                 "it waits or ends"),
                       ("cancel", "cancel a WorkItem (a running action finishes its step first)"),
                       ("accept", "accept a WorkItem waiting for your acceptance"),
                       ("runs", "every run of a WorkItem's actions")):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("id")
        cmd.add_argument("--json", action="store_true")
    answer = sub.add_parser("answer", help="answer the question a WorkItem waits at")
    answer.add_argument("id")
    answer.add_argument("--text", required=True, metavar="TEXT")
    answer.add_argument("--json", action="store_true")
    back = sub.add_parser("send-back", help="send a finished WorkItem back with what to change")
    back.add_argument("id")
    back.add_argument("--note", required=True, metavar="TEXT")
    back.add_argument("--json", action="store_true")


async def work_command(args: argparse.Namespace) -> int:
    """Run one ``foya work`` command (opens its own kernel)."""
    plan = _read_plan(args.plan) if args.action == "create" and args.plan else None
    kernel = await open_kernel(read_only=args.action in READING)
    center = kernel.work
    runners: list[Any] = []
    """The executor this process runs, once made (launched or not, whatever happens next)."""
    code = 0
    try:
        if args.action == "create":
            item = await _create(center, args, plan)
        elif args.action == "list":
            _print_list(await center.items(), as_json=args.json)
            return 0
        elif args.action == "show":
            _print_item(await center.get(args.id), as_json=args.json)
            return 0
        elif args.action == "runs":
            _print_runs(await center.runs(args.id), as_json=args.json)
            return 0
        else:
            item = await _move(kernel, center, args, runners)
        _print_item(item, as_json=args.json)
        return 0
    except (KeyboardInterrupt, asyncio.CancelledError):
        if not _launched(runners):
            raise
        # Like a kill: nothing is cancelled half-way (a cancelled step would be recorded as done),
        # and the next start resumes every WorkItem in flight from DBOS's records.
        print("foya: interrupted; WorkItems in flight resume at the next foya work start", file=sys.stderr)
        _end_process(130)
        raise
    except FoyaError as exc:
        if not _launched(runners):
            raise
        print(f"foya: error: {visible(str(exc))}", file=sys.stderr)
        code = exc.exit_code
        return code
    finally:
        for runner in runners:
            await runner.close()
        await kernel.close()
        if _launched(runners):
            _end_process(code)


def _launched(runners: list[Any]) -> bool:
    return any(r.launched for r in runners)


async def _create(center: WorkCenter, args: argparse.Namespace, plan: list[Action] | None) -> WorkItem:
    deadline = _deadline(args.deadline) if args.deadline else 0
    return await center.create(
        args.from_session, args.goal, message_id=args.message, criteria=args.criteria or [],
        constraints=args.constraint, vps=[v.strip() for v in args.vp.split(",") if v.strip()],
        workdir=args.folder, plan=plan, max_rework=args.max_rework,
        budgets=Budgets(max_runs=args.max_runs, max_tokens=args.max_tokens, deadline_ms=deadline,
                        max_attempts=args.max_attempts))


async def _move(kernel: Kernel, center: WorkCenter, args: argparse.Namespace, runners: list[Any]) -> WorkItem:
    """Record the decision, then run the executor here (or wake the one running elsewhere)."""
    from foya_desktop.engine.work import executor as work_executor

    home = center.home
    item = await center.get(args.id)
    if args.action == "start":
        if item.state not in ("ready", "running"):
            await center.start(item.id)  # refused: says why
        runner = work_executor.WorkExecutor(center, home)
        runners.append(runner)
        await runner.open()  # refused (exit 10) while another process runs the Work Center
        if item.state == "ready":
            await center.start(item.id)
        await runner.start(item.id)
        await runner.settle()
        return await center.get(item.id)
    never_started = item.state == "ready"
    if args.action == "accept":
        item = await center.accept(item.id)
    elif args.action == "send-back":
        item = await center.send_back(item.id, args.note)
    elif args.action == "answer":
        item = await center.answer(item.id, args.text)
    else:
        item = await center.cancel(item.id)
    if never_started:
        return item  # no workflow to wake
    if work_executor.executor_running(home):
        work_executor.wake_elsewhere(home, item.id)
        return item
    runner = work_executor.WorkExecutor(center, home)
    runners.append(runner)
    await runner.open()
    await runner.wake(item.id)
    await runner.settle()
    return await center.get(item.id)


def _end_process(code: int) -> None:
    """End the process now that everything is stored and closed.

    NOTE: a WorkItem waiting for the person is a DBOS workflow parked in ``recv`` on one of
    DBOS's (non-daemon) threads until its timeout; the interpreter's exit would wait for it.
    Its state is durable, so leaving it is what a kill would do — the next executor recovers it.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    logging.shutdown()
    os._exit(code)


def _read_plan(path: str) -> list[Action]:
    """A plan file: a JSON list of actions (``id``, ``kind``, ``vp``, ``instruction``, ``command``,
    ``after``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return [Action(id=str(a["id"]), kind=ActionKind(a["kind"]), vp=str(a.get("vp", "")),
                       instruction=str(a.get("instruction", "")), command=str(a.get("command", "")),
                       after=tuple(str(x) for x in a.get("after", ()))) for a in data]
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"Cannot read the plan file {path}: {exc}.") from exc
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"The plan file {path} is not a JSON list of actions with id and kind "
                       f"(agent, relay, review, check, wait): {exc}.") from exc


def _deadline(text: str) -> int:
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise BadInput(f"--deadline {text!r} is not a date and time like 2026-12-24T18:00.") from None
    if when.tzinfo is None:
        when = when.astimezone()
    return int(when.timestamp() * 1000)


def _item_json(item: WorkItem) -> dict[str, Any]:
    done, total = item.progress
    checklist = [{"text": c.text, "check": c.check, "evidence": _evidence_id(item, c)}
                 for c in item.contract.criteria]
    return {**item_record(item), "progress": {"done": done, "total": total}, "checklist": checklist}


def _evidence_id(item: WorkItem, criterion: Criterion) -> str:
    """The action whose outcome is the criterion's evidence ("": none yet)."""
    found = evidence(item, criterion)
    return found.id if found is not None else ""


def _print_list(items: list[WorkItem], *, as_json: bool) -> None:
    if as_json:
        print(json.dumps([_item_json(i) for i in items], ensure_ascii=False, indent=1))
        return
    if not items:
        print("No WorkItems yet (foya work create --from-session ID --goal TEXT).")
        return
    for i in items:
        done, total = i.progress
        why = f" — {i.wait_reason or i.failure}" if i.wait_reason or i.failure else ""
        print(visible(f"{i.id}  {i.state:<9}  {done}/{total}  {i.title}{why}", one_line=True))


def _print_item(item: WorkItem, *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(_item_json(item), ensure_ascii=False, indent=1))
        return
    c = item.contract
    done, total = item.progress
    why = item.wait_reason or item.failure
    source = f"session {c.source_session}" + (f", message {c.source_message}" if c.source_message else "")
    lines = [f"{item.id} · {item.title}", f"state: {item.state}" + (f" — {why}" if why else ""),
             f"goal: {c.goal}", f"folder: {c.workdir}", f"roster: {', '.join(c.roster)}", f"source: {source}",
             f"runs: {item.runs}  tokens: {item.tokens}  reworks: {item.reworks}/{c.max_rework}"]
    if c.criteria:
        lines.append("criteria:")
        for x in c.criteria:
            proof = _evidence_id(item, x)
            check = f"  (check: {x.check})" if x.check else ""
            shown = f"  — evidence: {proof}" if proof else ""
            lines.append(f"  [{'x' if proof else ' '}] {x.text}{check}{shown}")
    lines.append(f"actions ({done}/{total} done):")
    for a in ordered(item.actions):
        lines.append(f"  {a.id:<12} {a.kind:<7} {a.vp or '-':<10} {a.state:<8} {a.verdict}"
                     + (f"  after {', '.join(a.after)}" if a.after else ""))
    print(visible("\n".join(lines)))


def _print_runs(runs: list[Run], *, as_json: bool) -> None:
    if as_json:
        print(json.dumps([asdict(r) for r in runs], ensure_ascii=False, indent=1))
        return
    if not runs:
        print("No runs yet.")
        return
    for r in runs:
        print(visible(f"{r.id}  {r.action_id:<12} {r.kind:<7} {r.vp or '-':<10} {r.state:<7} "
                      f"{r.outcome:<9} tokens {r.tokens}  {r.session_id}", one_line=True))
