"""Store benchmarks: single-message append through the store vs raw ``sqlite3``, and the
indexed queries start-up recovery and rewind preview rely on. A command, not a test::

    python -m benchmarks.store [--messages 2000]

Both sides of each ratio are measured in the same run on the same machine, so the ratio
means something on a loaded 2-core box where absolute times do not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import Session
from foya_desktop.store.home import Home
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


async def store_appends(root: Path, count: int) -> float:
    store = Store(Home(root))
    session = await store.create_session(Session(id=new_id("ses"), title="bench", created_at=now_ms(),
                                                 updated_at=now_ms()))
    started = time.perf_counter()
    for i in range(count):
        await store.append_message(Message(new_id("msg"), session.id, "user", (TextPart(f"message {i}"),),
                                           created_at=now_ms()))
    elapsed = time.perf_counter() - started
    await store.close()
    return elapsed


def main(argv: list[str] | None = None) -> None:
    """Print the append figures and their ratio against the goal."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.store")
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="foya-bench-") as tmp:
        raw = raw_sqlite_appends(Path(tmp) / "raw.sqlite3", args.messages)
        ours = asyncio.run(store_appends(Path(tmp) / "home", args.messages))
    ratio = raw / ours
    print(f"append: store {args.messages / ours:,.0f} msg/s, raw sqlite3 {args.messages / raw:,.0f} msg/s "
          f"-> {ratio:.2f}x of raw (goal >= 0.5x) {'MET' if ratio >= 0.5 else 'NOT MET'}")


if __name__ == "__main__":
    main()
