"""Token usage from the ledger: per session or all time, by connection/model and day.

The ledger survives session deletion (Foya seed F49). ``input`` counts every
prompt token — the Anthropic adapter adds cache reads and writes to the
vendor's ``input_tokens`` (which excludes them); OpenAI's ``prompt_tokens``
already includes ``cached_tokens``. Cost is shown only where the person set a
price for that connection and model; otherwise it is "no price", never $0.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.figures import Usage, add_usage
from foya_desktop.store.ledger import Price, UsageEntry, prices, set_price, usage_entries
from foya_desktop.store.store import Store


@dataclass(frozen=True, slots=True)
class UsageLine:
    """One (connection, model, day) group."""

    connection: str
    model: str
    day: str
    requests: int
    usage: Usage
    cost: float | None
    """USD, or ``None`` when no price is configured (or no tokens were reported)."""


@dataclass(frozen=True, slots=True)
class UsageReport:
    """Groups plus the grand total."""

    lines: tuple[UsageLine, ...]
    requests: int
    total: Usage
    cost: float | None
    """Sum over priced lines; ``None`` when no line has a price."""
    unpriced_lines: int


async def usage_report(store: Store, session_id: str | None = None) -> UsageReport:
    """All-time usage, or one session's (also after it was deleted)."""
    entries = await store.read(usage_entries, session_id)
    table = await store.read(prices)
    groups: dict[tuple[str, str, str], list[UsageEntry]] = {}
    for e in entries:
        day = datetime.fromtimestamp(e.created_at / 1000).date().isoformat()
        groups.setdefault((e.connection, e.model, day), []).append(e)
    lines = []
    for (conn, model, day), rows in sorted(groups.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
        usage = Usage()
        for r in rows:
            usage = add_usage(usage, r.usage)
        lines.append(UsageLine(conn, model, day, len(rows), usage, cost_of(usage, table.get((conn, model)))))
    total = Usage()
    for line in lines:
        total = add_usage(total, line.usage)
    priced = [line.cost for line in lines if line.cost is not None]
    return UsageReport(tuple(lines), len(entries), total, sum(priced) if priced else None,
                       len(lines) - len(priced))


def cost_of(usage: Usage, price: Price | None) -> float | None:
    """USD for ``usage`` at ``price``; ``None`` without a price or without reported tokens."""
    if price is None or (usage.input_tokens is None and usage.output_tokens is None):
        return None
    read, write = usage.cache_read_tokens or 0, usage.cache_write_tokens or 0
    uncached = max(0, (usage.input_tokens or 0) - read - write)
    base = price.input_per_mtok
    read_rate = price.cache_read_per_mtok if price.cache_read_per_mtok is not None else base
    write_rate = price.cache_write_per_mtok if price.cache_write_per_mtok is not None else base
    dollars = (uncached * price.input_per_mtok + read * read_rate + write * write_rate
               + (usage.output_tokens or 0) * price.output_per_mtok)
    return dollars / 1_000_000


def cost_text(cost: float | None) -> str:
    """``$0.0123`` or "no price"."""
    return "no price" if cost is None else f"${cost:.4f}"


def checked_price(connection: str, model: str, input_per_mtok: float | None, output_per_mtok: float | None,
                  cache_read_per_mtok: float | None = None,
                  cache_write_per_mtok: float | None = None) -> Price:
    """A price as the person gave it (USD per million tokens), refused in words when it is not one.

    The one validation for the terminal (``foya usage price``) and the window's usage view.
    """
    if not connection.strip() or not model.strip():
        raise InvalidOperation("A price is for one connection and one model: name both.")
    if input_per_mtok is None or output_per_mtok is None:
        raise InvalidOperation("A price needs both --input and --output (USD per million tokens).")
    values = [v for v in (input_per_mtok, output_per_mtok, cache_read_per_mtok, cache_write_per_mtok)
              if v is not None]
    if any(v < 0 for v in values):
        raise InvalidOperation("Prices cannot be negative.")
    return Price(connection.strip(), model.strip(), input_per_mtok, output_per_mtok, cache_read_per_mtok,
                 cache_write_per_mtok)


async def save_price(store: Store, price: Price) -> None:
    """Insert or replace the price of one connection and model (costs are computed when read)."""
    await store.write(set_price, price)
