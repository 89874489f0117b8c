"""Search benchmark: p95 query latency at 100,000 and 1,000,000 messages, per query class.

A command, not a test::

    python -m benchmarks.search [--small 100000] [--large 1000000] [--queries 40]

It builds two databases in a temporary folder with the store's own batch
insert (so the search index is fed exactly as in use), spread over 200
sessions in 5 projects, then times each query class with the store's
``search`` on a read connection and prints p50/p95 per class and the ratio
p95(large)/p95(small). Goals (issue 11): p95 ≤ 50 ms for every class at the
large size, and a ratio ≤ 2.

Query classes: a rare identifier (few hits), a common word (many hits,
newest 50), two words, a project-filtered word, a speaker-filtered word, and a
two-character CJK word (the LIKE fallback below the trigram minimum).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.store import history
from foya_desktop.store.database import open_database
from foya_desktop.store.schema import ProjectRow, SessionRow, database_proxy
from foya_desktop.store.search import SearchQuery, search

WORDS = [
    "parser", "config", "engine", "widget", "timeline", "render", "queue", "approval", "window",
    "session", "project", "folder", "token", "stream", "buffer", "thread", "socket", "schema",
    "index", "migrate", "branch", "rewind", "compact", "memory", "review", "refactor", "deploy",
    "cache", "layout", "paint", "delegate", "signal", "slot", "model", "view",
]
CJK = ["数据", "存储", "会话", "项目", "窗口", "文件", "模型", "工具", "搜索", "索引"]
SESSIONS, PROJECTS = 200, 5


def _text(rng: random.Random, i: int) -> str:
    words = rng.choices(WORDS, k=rng.randint(8, 40))
    if i % 97 == 0:
        words.append(f"rare_ident_{i % 1000:03d}")
    if i % 5 == 0:
        words.append(rng.choice(CJK))
    return " ".join(words)


def build(path: Path, count: int) -> None:
    """A database with ``count`` messages (user/assistant alternating) over 200 sessions."""
    db = open_database(path, path.parent / "backups")
    rng = random.Random(7)
    with db.atomic():
        for p in range(PROJECTS):
            ProjectRow.insert(id=f"prj_{p}", name=f"project{p}", path=f"/tmp/p{p}", created_at=0).execute()
        for s in range(SESSIONS):
            SessionRow.insert(id=f"ses_{s:04d}", title=f"Session {s}", project=f"prj_{s % PROJECTS}",
                              created_at=0, updated_at=0).execute()
    per = count // SESSIONS
    for s in range(SESSIONS):
        msgs = [Message(f"msg_{s:04d}_{i:06d}", f"ses_{s:04d}", "user" if i % 2 == 0 else "assistant",
                        (TextPart(_text(rng, s * per + i)),), speaker="" if i % 2 == 0 else "omni",
                        created_at=s * per + i) for i in range(per)]
        with db.atomic():
            history.append_messages(f"ses_{s:04d}", msgs)
    db.close()


CLASSES = {
    "rare identifier": lambda rng: SearchQuery(f"rare_ident_{rng.randrange(0, 1000, 97) % 1000:03d}"),
    "common word": lambda rng: SearchQuery(rng.choice(WORDS)),
    "two words": lambda rng: SearchQuery(" ".join(rng.sample(WORDS, 2))),
    "project filter": lambda rng: SearchQuery(rng.choice(WORDS), project_id=f"prj_{rng.randrange(PROJECTS)}"),
    "speaker filter": lambda rng: SearchQuery(rng.choice(WORDS), speaker="omni"),
    "CJK 2 chars": lambda rng: SearchQuery(rng.choice(CJK)),
}


def measure(path: Path, queries: int) -> dict[str, tuple[float, float]]:
    """(p50, p95) in ms per query class."""
    db = open_database(path, path.parent / "backups")
    database_proxy.initialize(db)
    out: dict[str, tuple[float, float]] = {}
    for name, make in CLASSES.items():
        rng = random.Random(name)
        search(make(rng))  # warm the page cache
        times = []
        for _ in range(queries):
            query = make(rng)
            started = time.perf_counter()
            search(query)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        out[name] = (statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)])
    db.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument("--large", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        figures = {}
        for size in (args.small, args.large):
            path = Path(tmp) / f"s{size}" / "foya.sqlite3"
            path.parent.mkdir()
            started = time.perf_counter()
            build(path, size)
            print(f"built {size:,} messages in {time.perf_counter() - started:.1f} s "
                  f"({path.stat().st_size / 2**20:.0f} MB with the index)", flush=True)
            figures[size] = measure(path, args.queries)
        print(f"\n{'query class':<18} {'p50 small':>10} {'p95 small':>10} {'p50 large':>10} "
              f"{'p95 large':>10} {'ratio':>7}  goal p95 ≤ 50 ms, ratio ≤ 2")
        for name in CLASSES:
            s50, s95 = figures[args.small][name]
            l50, l95 = figures[args.large][name]
            ok = "ok" if l95 <= 50 and l95 / max(s95, 0.01) <= 2 else "MISSED"
            ratio = l95 / max(s95, 0.01)
            print(f"{name:<18} {s50:>9.1f}  {s95:>9.1f}  {l50:>9.1f}  {l95:>9.1f}  {ratio:>6.2f}  {ok}")


if __name__ == "__main__":
    main()
