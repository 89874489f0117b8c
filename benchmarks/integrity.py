"""Start-up at any database size: ``foya sessions list`` on a large database against a 500-message
one, and ``foya --version`` against ``python -c pass`` (goal 2 of the start-up work: ≤ 1.2× and
≤ 1.5×), and the window's start to its sessions listed on both (goal 1's size figure: ≤ 1.1×).
A command, not a test::

    python -m benchmarks.integrity [--large 1000000] [--rounds 7]

Each figure times whole processes, the two commands of a ratio interleaved (A B A B …), and
prints the median with min–max. The large database is built with SQLite's own bulk insert into
the real schema (``open_database`` made it), messages of about 300 characters spread over 200
sessions — the size is what an open that reads every page pays for. Both databases were closed
cleanly by ``foya`` before timing (the everyday case: ``store/integrity.py``); the full check's
own cost is printed once for scale (``foya doctor``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.startup import time_to_paint
from foya_desktop.store.database import open_database
from foya_desktop.store.schema import SessionRow

SESSIONS = 200
_FILL = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore "


def build(home: Path, messages: int) -> None:
    """A data folder whose database holds ``messages`` messages over 200 sessions, closed cleanly."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / "foya.sqlite3"
    db = open_database(path, home / "backups")
    with db.atomic():
        for s in range(SESSIONS):  # the model's defaults for every other column
            SessionRow.insert(id=f"ses_{s:04d}", title=f"Session {s}", created_at=0, updated_at=0).execute()
    db.close()
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN")
    fill = (_FILL * 3)[:290]
    con.execute(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?) "
        "INSERT INTO message_row (id, session_id, seq, role, speaker, parts, status, turn_id, meta, valid, "
        "created_at) SELECT printf('msg_%09d', i), printf('ses_%04d', i % ?), i / ? + 1, "
        "CASE i % 2 WHEN 0 THEN 'user' ELSE 'assistant' END, 'omni', "
        "'[{\"kind\": \"text\", \"text\": \"' || i || ' ' || ? || '\"}]', 'complete', '', '{}', 1, i "
        "FROM n", (messages, SESSIONS, SESSIONS, fill))
    con.execute("COMMIT")
    con.close()
    open_database(path, home / "backups").close()  # a writing open indexes them for search, as appends do
    _foya(home, "doctor")  # checked in full once: the everyday open after this skips it


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def _foya(home: Path, *args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "foya_desktop", *args], env=_env(home), check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def _cpu_of(command: list[str], env: dict[str, str]) -> float:
    """User + system CPU seconds of one whole child process."""
    before = os.times()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def interleaved(a: list[str], a_env: dict[str, str], b: list[str], b_env: dict[str, str],
                rounds: int) -> tuple[list[float], list[float]]:
    """CPU seconds of A and B, run in turn; one unmeasured run of each first."""
    _cpu_of(a, a_env)
    _cpu_of(b, b_env)
    xs, ys = [], []
    for _ in range(rounds):
        xs.append(_cpu_of(a, a_env))
        ys.append(_cpu_of(b, b_env))
    return xs, ys


def window_starts(large: Path, small: Path, rounds: int) -> tuple[list[float], list[float]]:
    """CPU seconds from the window's process start to its sessions listed (the smoke hook's own
    figure, ``benchmarks.startup``), on each data folder in turn; one unmeasured start of each."""
    command = [sys.executable, "-m", "foya_desktop"]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_SMOKE_QUIT_MS": "0",
           "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    runs: dict[Path, list[float]] = {large: [], small: []}
    for round_ in range(rounds + 1):
        for home, samples in runs.items():
            cpu = time_to_paint(command, {**env, "FOYA_HOME": str(home)})[3]
            if round_:
                samples.append(cpu)
    return runs[large], runs[small]


def _line(label: str, xs: list[float], ys: list[float], goal: float) -> str:
    ratios = sorted(x / y for x, y in zip(xs, ys, strict=True))
    median = statistics.median(ratios)
    return (f"{label}: {median:.2f}× (min {ratios[0]:.2f}, max {ratios[-1]:.2f}; medians "
            f"{statistics.median(xs) * 1000:.0f} vs {statistics.median(ys) * 1000:.0f} ms CPU) — goal "
            f"≤ {goal}×: {'MET' if median <= goal else 'NOT MET'}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", type=int, default=1_000_000, help="messages in the large database")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        small, large = Path(tmp) / "small", Path(tmp) / "large"
        build(small, 500)
        started = time.perf_counter()
        build(large, args.large)
        size = (large / "foya.sqlite3").stat().st_size / 1e6
        print(f"built {args.large:,} messages ({size:,.0f} MB) in {time.perf_counter() - started:.0f} s")
        listing = [sys.executable, "-m", "foya_desktop", "sessions", "list"]
        xs, ys = interleaved(listing, _env(large), listing, _env(small), args.rounds)
        print(_line(f"foya sessions list, {args.large:,} vs 500 messages", xs, ys, 1.2))
        xs, ys = window_starts(large, small, args.rounds)
        print(_line(f"window start → sessions listed, {args.large:,} vs 500 messages (offscreen)", xs, ys,
                    1.1))
        print(f"for scale, the full check on demand (foya doctor) of the large one: "
              f"{_foya(large, 'doctor'):.1f} s wall")
    version = [sys.executable, "-m", "foya_desktop", "--version"]
    xs, ys = interleaved(version, dict(os.environ), [sys.executable, "-c", "pass"], dict(os.environ),
                         args.rounds)
    print(_line("foya --version vs python -c pass", xs, ys, 1.5))


if __name__ == "__main__":
    main()
