"""``foya sessions status ID``: the figures of the running or last turn.

Read-only: it opens the store alone, not a kernel, so it runs no start-up
recovery and never touches a turn another process is running.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
from dataclasses import asdict
from datetime import datetime
from typing import Any

from foya_desktop.core.figures import HOW_COUNTED, NO_TOOL_DETAIL, RunFigures, tokens_text
from foya_desktop.engine.agents.vps import all_vps
from foya_desktop.engine.project_files.rules import RULES_BUDGET_CHARS, Rules
from foya_desktop.engine.project_files.session_files import rules_in_effect
from foya_desktop.engine.session.status import TurnStatus, turn_status
from foya_desktop.store.home import default_home
from foya_desktop.store.sessions import get_session
from foya_desktop.store.store import Store


def add_status_parser(sub: Any) -> None:
    """Add ``status`` to ``foya sessions``' subparsers."""
    p = sub.add_parser("status", help="tokens, requests and tool calls of the running or last turn, "
                                      "and the rules in effect")
    p.add_argument("id")
    p.add_argument("--json", action="store_true")


async def open_store(*, read_only: bool = True) -> Store:
    """The store in the data directory, opened off the event loop; read-only unless the command
    writes (no lease, never the write lock: it works beside a writer and on a read-only folder)."""
    return await asyncio.to_thread(functools.partial(Store, default_home(), read_only=read_only))


async def status_command(args: argparse.Namespace) -> int:
    """Print the turn's figures per VP."""
    store = await open_store()
    try:
        status = await turn_status(store, args.id)
        names = {vp.id: vp.name for vp in await all_vps(store)}
        rules = await rules_in_effect(store, await store.read(get_session, args.id))
    finally:
        await store.close()
    if args.json:
        print(json.dumps({**status_json(status, names), "rules": rules_json(rules)}, ensure_ascii=False,
                         indent=1))
        return 0
    print(f"Session {args.id} has no turns yet." if status is None else status_text(status, names))
    print("\n" + rules_text(rules))
    return 0


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rules in effect: files, sizes, whether the budget cut them, and the files not used
    (``refused``: confinement refused them, so nothing of them was sent)."""
    return {"budget_chars": RULES_BUDGET_CHARS, "truncated": rules.truncated,
            "files": [{"path": f.path, "scope": f.scope, "chars": f.chars, "sent_chars": f.sent_chars}
                      for f in rules.files],
            "not_used": [{"kind": p.kind, "path": p.path, "reason": p.reason, "refused": p.refused}
                         for p in (*rules.problems, *rules.other_refusals)]}


def rules_text(rules: Rules) -> str:
    """"Rules in effect" lines, as the window's status shows them, then the files not used and why."""
    if not rules.files:
        lines = ["Rules in effect: none (no AGENTS.md or CLAUDE.md found)"]
    else:
        lines = ["Rules in effect" + (f" (truncated to {RULES_BUDGET_CHARS:,} characters)"
                                      if rules.truncated else "") + ":"]
        lines += [f"  {f.path}" + (f"  ({f.sent_chars:,} of {f.chars:,} characters sent)"
                                   if f.truncated else "") for f in rules.files]
    not_used = (*rules.problems, *rules.other_refusals)
    if not_used:
        lines.append("Not used (nothing of these is sent):")
        lines += [f"  {p.path or p.kind}: {p.reason}" for p in not_used]
    return "\n".join(lines)


def status_json(status: TurnStatus | None, names: dict[str, str]) -> dict[str, Any]:
    """The JSON form: ``null`` token fields mean "not provided" — or, while ``requests_open`` is
    above 0, "not reported yet"."""
    if status is None:
        return {"turn_id": None, "running": False, "vps": [], "how_counted": HOW_COUNTED}
    return {"session_id": status.session_id, "turn_id": status.turn_id, "running": status.running,
            "state": turn_state(status),
            "vps": [{"speaker": s, "name": names.get(s, s), **asdict(f)} for s, f in status.vps],
            "how_counted": HOW_COUNTED}


def turn_state(status: TurnStatus) -> str:
    """``running`` (live now), ``interrupted`` (its process stopped mid-turn) or ``finished``."""
    return "running" if status.running else "interrupted" if status.interrupted else "finished"


def status_text(status: TurnStatus, names: dict[str, str]) -> str:
    """Plain lines, one block per VP: the running turn's figures, or the last turn's, said so."""
    heading = {
        "running": f"Running turn {status.turn_id} (figures so far)",
        "finished": f"Last turn {status.turn_id} (finished; these are its final figures, not live)",
        "interrupted": f"Last turn {status.turn_id} (interrupted: the process running it stopped; "
                       "figures as recorded, not live)",
    }[turn_state(status)]
    lines = [heading]
    for speaker, f in status.vps:
        lines += ["", f"{names.get(speaker, speaker)}", *figure_lines(f, status.running)]
    lines += ["", f"How counted: {HOW_COUNTED}"]
    return "\n".join(lines)


def figure_lines(f: RunFigures, running: bool = False) -> list[str]:
    """The figures of one VP as indented lines (``running``: of the turn running now)."""
    cache = f" (cache reads {f.cache_read_tokens:,})" if f.cache_read_tokens else ""
    pending = running and f.usage_pending  # a request on its way has not reported its usage yet (Y43)
    tokens = (f"  input tokens {tokens_text(f.input_tokens, pending=pending)}{cache} · output tokens "
              f"{tokens_text(f.output_tokens, pending=pending)}"
              if f.input_tokens is not None or f.output_tokens is not None
              else "  tokens: not reported yet" if pending else "  tokens: not provided by the service")
    lines = [tokens,
             f"  model requests {f.requests} · tool executions {f.executions} · failed {f.failures} "
             f"(blocked {f.blocked})"]
    for t in f.tools:
        lines.append(f"    {t.name}: {t.executions} executions, {t.failures} failures, {t.blocked} blocked")
    if f.tools_omitted:
        lines.append(f"    … {f.tools_omitted} more tool kinds (counted in the totals)")
    if not f.tool_detail:
        lines.append(f"    {NO_TOOL_DETAIL}")
    evidence = (datetime.fromtimestamp(f.latest_evidence_at / 1000).strftime("%H:%M:%S")
                if f.latest_evidence_at else "none yet")
    lines.append(f"  run details: repeated calls {f.repeated_calls} · duplicate results "
                 f"{f.duplicate_results} · latest evidence {evidence}")
    return lines
