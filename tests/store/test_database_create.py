"""A new database appears whole: processes that start together on an empty data folder (the
window painting first, ``foya run`` a moment later) each open it, and none sees it half made."""

from __future__ import annotations

import multiprocessing
import sqlite3
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from foya_desktop.store.database import open_database, stored_version
from foya_desktop.store.schema import SCHEMA_VERSION

PROCESSES = 6


def _open(path: str, barrier: Barrier, results: Queue[str]) -> None:
    barrier.wait()
    try:
        open_database(Path(path), Path(path).parent / "backups").close()
    except Exception as exc:  # the sentence a user would see, sent back to the test
        results.put(f"{type(exc).__name__}: {exc}")
    else:
        results.put("ok")


def test_processes_creating_the_database_at_once_all_open_it(tmp_path: Path) -> None:
    path = tmp_path / "foya.sqlite3"
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(PROCESSES)
    results: Queue[str] = ctx.Queue()
    workers = [ctx.Process(target=_open, args=(str(path), barrier, results)) for _ in range(PROCESSES)]
    for worker in workers:
        worker.start()
    outcomes = sorted(results.get(timeout=60) for _ in workers)
    for worker in workers:
        worker.join(30)
    assert outcomes == ["ok"] * PROCESSES
    assert stored_version(path) == SCHEMA_VERSION
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_the_file_is_never_seen_empty_while_it_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The path exists only once the schema is in it: SQLite would show an empty file from
    ``connect`` until its first commit, which a second process refuses as cut short."""
    path = tmp_path / "foya.sqlite3"
    seen: list[int] = []

    def look(_sql: str) -> None:
        seen.append(path.stat().st_size if path.exists() else -1)

    original = sqlite3.connect

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        con = original(*args, **kwargs)  # type: ignore[call-overload]
        con.set_trace_callback(look)
        return con  # type: ignore[no-any-return]

    monkeypatch.setattr(sqlite3, "connect", connect)  # every statement of the open is watched
    open_database(path, tmp_path / "backups").close()
    assert seen and 0 not in seen
