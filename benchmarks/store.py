"""Store benchmarks: single-message append through the store vs raw ``sqlite3``, and the
indexed queries start-up recovery and rewind preview rely on. A command, not a test::

    python -m benchmarks.store [--messages 1000] [--rounds 5]

Both sides of each ratio are measured in the same run on the same machine, so the ratio
means something on a loaded 2-core box where absolute times do not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import Session
from foya_desktop.store import search
from foya_desktop.store.home import Home
from foya_desktop.store.schema import database_proxy
from foya_desktop.store.store import Store


def raw_sqlite_appends(path: Path, count: int) -> float:
    """The floor: one event row + one projection row + a head update per message, one
    transaction each, WAL and synchronous=normal like the store."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=wal")
    con.execute("PRAGMA synchronous=normal")
    con.execute("CREATE TABLE s(id TEXT PRIMARY KEY, head INTEGER)")
    con.execute("CREATE TABLE e(sid TEXT, seq INTEGER, type TEXT, payload TEXT, at INTEGER)")
    con.execute("CREATE UNIQUE INDEX e_seq ON e(sid, seq)")
    con.execute("CREATE TABLE m(id TEXT PRIMARY KEY, sid TEXT, seq INTEGER, role TEXT, parts TEXT, "
                "valid INTEGER, at INTEGER)")
    con.execute("CREATE INDEX m_valid ON m(sid, valid, seq)")
    con.execute("INSERT INTO s VALUES ('s', 0)")
    started = time.perf_counter()
    for i in range(1, count + 1):
        parts = json.dumps([{"kind": "text", "text": f"message {i}"}])
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO e VALUES ('s', ?, 'message_added', ?, ?)", (i, parts, now_ms()))
        con.execute("INSERT INTO m VALUES (?, 's', ?, 'user', ?, 1, ?)", (f"m{i}", i, parts, now_ms()))
        con.execute("UPDATE s SET head=? WHERE id='s'", (i,))
        con.execute("COMMIT")
    elapsed = time.perf_counter() - started
    con.close()
    return elapsed


async def store_appends(root: Path, count: int, *, search_trigger: bool = True) -> float:
    """Seconds for ``count`` single-message appends through the store's async API (one write
    transaction each, on the writer thread). ``search_trigger=False`` drops the FTS5 insert trigger
    first, on this throw-away database only, to measure its share of the cost."""
    store = Store(Home(root))
    if not search_trigger:
        await store.write(lambda: database_proxy.execute_sql(f"DROP TRIGGER IF EXISTS {search.TABLE}_insert"))
    session = await store.create_session(Session(id=new_id("ses"), title="bench", created_at=now_ms(),
                                                 updated_at=now_ms()))
    messages = [Message(new_id("msg"), session.id, "user", (TextPart(f"message {i}"),), created_at=now_ms())
                for i in range(count)]
    started = time.perf_counter()
    for message in messages:
        await store.append_message(message)
    elapsed = time.perf_counter() - started
    await store.close()
    return elapsed


def _run(tmp: Path, kind: str, n: int, count: int) -> float:
    if kind == "raw":
        return raw_sqlite_appends(tmp / f"raw{n}.sqlite3", count)
    return asyncio.run(store_appends(tmp / f"{kind}{n}", count, search_trigger=kind == "store"))


def main(argv: list[str] | None = None) -> None:
    """Print the append figures and their ratio against the goal (rounds interleaved, medians)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.store")
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {"raw": [], "store": [], "no-fts": []}
    with tempfile.TemporaryDirectory(prefix="foya-bench-") as tmp:
        for n in range(args.rounds):  # raw, store, no-fts, raw, store, … so load hits all alike
            for kind, samples in times.items():
                samples.append(_run(Path(tmp), kind, n, args.messages))
    raw, ours, bare = (statistics.median(times[k]) for k in ("raw", "store", "no-fts"))
    ratio = raw / ours
    print(f"append: store {args.messages / ours:,.0f} msg/s, raw sqlite3 {args.messages / raw:,.0f} msg/s "
          f"(medians of {args.rounds} interleaved rounds) -> {ratio:.2f}x of raw (goal >= 0.5x) "
          f"{'MET' if ratio >= 0.5 else 'NOT MET'}")
    print(f"  the FTS5 search trigger's share of a store append: {100 * max(0.0, 1 - bare / ours):.0f} % "
          f"(store without it: {args.messages / bare:,.0f} msg/s; search stays on)")


if __name__ == "__main__":
    main()
