"""``foya usage`` and ``foya sessions debug``: read-only views of the ledger and debug traces.

Both open the store alone (no kernel, no start-up recovery), so they are safe
while the window or another ``foya`` runs turns on the same database.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from datetime import datetime
from typing import Any

from foya_desktop.cli.status import open_store
from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.figures import tokens_text
from foya_desktop.engine.connections.usage import (
    UsageReport,
    checked_price,
    cost_text,
    save_price,
    usage_report,
)
from foya_desktop.engine.turn.debug_trace import WARNING, traces
from foya_desktop.store.sessions import get_session


def add_usage_parser(sub: Any) -> None:
    """``foya usage [--session ID] [--json]`` and ``foya usage price CONN MODEL ...``."""
    p = sub.add_parser("usage", help="token usage and cost by connection/model and day")
    p.add_argument("--session", metavar="ID", help="one session (also a deleted one) instead of all time")
    p.add_argument("--json", action="store_true")
    p.add_argument("price", nargs="*", metavar="price CONNECTION MODEL",
                   help="set a price: foya usage price CONN MODEL --input USD --output USD")
    p.add_argument("--input", type=float, metavar="USD", help="USD per million input tokens")
    p.add_argument("--output", type=float, metavar="USD", help="USD per million output tokens")
    p.add_argument("--cache-read", type=float, metavar="USD", help="USD per million cache-read tokens")
    p.add_argument("--cache-write", type=float, metavar="USD", help="USD per million cache-write tokens")


def add_debug_parser(sub: Any) -> None:
    """``foya sessions debug ID [--turn TURN_ID] [--json]``."""
    p = sub.add_parser("debug", help="each model request and tool call of a turn, as sent")
    p.add_argument("id")
    p.add_argument("--turn", metavar="TURN_ID", help="default: every turn of the session")
    p.add_argument("--json", action="store_true")


async def usage_command(args: argparse.Namespace) -> int:
    """Print the report, or store a price."""
    store = await open_store(read_only=not args.price)
    try:
        if args.price:
            return await _set_price(store, args)
        report = await usage_report(store, args.session)
    finally:
        await store.close()
    print(json.dumps(_report_json(report), indent=1) if args.json else _report_text(report))
    return 0


async def _set_price(store: Any, args: argparse.Namespace) -> int:
    if len(args.price) != 3 or args.price[0] != "price":
        raise InvalidOperation("To set a price: foya usage price CONNECTION MODEL --input USD --output USD "
                               "(USD per million tokens).")
    price = checked_price(args.price[1], args.price[2], args.input, args.output, args.cache_read,
                          args.cache_write)
    await save_price(store, price)
    print(f"Price set for {price.connection}/{price.model}: ${price.input_per_mtok} in, "
          f"${price.output_per_mtok} out per million tokens.")
    return 0


def _report_json(report: UsageReport) -> dict[str, Any]:
    return {"lines": [{**asdict(line), "cost_usd": line.cost} for line in report.lines],
            "requests": report.requests, "total": asdict(report.total), "cost_usd": report.cost,
            "unpriced_lines": report.unpriced_lines}


def _report_text(report: UsageReport) -> str:
    if not report.lines:
        return "No model requests recorded yet."
    out = []
    for line in report.lines:
        u = line.usage
        out.append(f"{line.day}  {line.connection or '?'}/{line.model}  {line.requests} requests  "
                   f"input {tokens_text(u.input_tokens)} (cache read {tokens_text(u.cache_read_tokens)}, "
                   f"write {tokens_text(u.cache_write_tokens)})  output {tokens_text(u.output_tokens)}  "
                   f"{cost_text(line.cost)}")
    t = report.total
    cost = cost_text(report.cost) + (f" ({report.unpriced_lines} lines without a price)"
                                     if report.unpriced_lines and report.cost is not None else "")
    out.append(f"Total: {report.requests} requests, input {tokens_text(t.input_tokens)}, "
               f"output {tokens_text(t.output_tokens)}, {cost}")
    return "\n".join(out)


async def debug_command(args: argparse.Namespace) -> int:
    """Print the traces of a session (or one turn)."""
    store = await open_store()
    try:
        await store.read(get_session, args.id)
        found = await store.read(traces, args.id, args.turn)
    finally:
        await store.close()
    if args.json:
        print(json.dumps({"warning": WARNING, "traces": found}, ensure_ascii=False, indent=1))
        return 0
    print(f"Note: {WARNING}\n")
    if not found:
        print("No debug traces for this session" + (f" and turn {args.turn}." if args.turn else "."))
    for t in found:
        print(trace_text(t))
    return 0


def trace_text(t: dict[str, Any]) -> str:
    """One trace as a few lines."""
    when = datetime.fromtimestamp(t["created_at"] / 1000).strftime("%H:%M:%S")
    if t["kind"] == "tool":
        outcome = "blocked" if t["blocked"] else "error" if t["is_error"] else "ok"
        args = json.dumps(t["arguments"], ensure_ascii=False)
        return (f"[{when}] {t['speaker']} tool {t['tool']}({args}) → {t['result_chars']} chars, "
                f"{outcome}, {t['duration_ms']} ms")
    req, usage = t["request"], t["usage"]
    tools = ", ".join(x["name"] for x in req["tools"]) or "none"
    ttfb = f"{t['ttfb_ms']} ms" if t["ttfb_ms"] is not None else "—"
    return (f"[{when}] {t['speaker']} model request to {t['connection']}/{req['model']} "
            f"(turn {t['turn_id']})\n"
            f"  messages {len(req['messages'])} · tools offered: {tools} · parameters {req['parameters']}\n"
            f"  tokens in {tokens_text(usage['input_tokens'])} out {tokens_text(usage['output_tokens'])} · "
            f"stop {t['stop_reason'] or '—'} · first byte {ttfb} · {t['duration_ms']} ms · "
            f"retries {t['retries']}" + (f" · error: {t['error']}" if t["error"] else ""))
