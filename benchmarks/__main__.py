"""``python -m benchmarks``: the whole suite in one run (a few minutes), each figure printed as a
ratio against a baseline measured in the same run, next to its goal (issue 14), with MET or NOT
MET. Figures, not tests: nothing here fails a build.

Sections: start-up vs a bare PySide6 window, offscreen and under Xvfb (``benchmarks.startup``);
store append vs raw sqlite3, recovery and rewind preview/confirm at 500 vs 50,000 messages
(``benchmarks.store``); branch, fork, merge and delete at 500 vs 50,000 (``benchmarks.operations``); timeline
open, streaming CPU and loop lag with the window vs none, RSS with a 50k session shown, idle
repaints, paging while scrolling up, the top by dragging the scroll bar and the first message
into a 50k session (``benchmarks.timeline``); the first message of a fresh window, before the HTTP
stack was ever used (``benchmarks.first_message``); ``foya sessions list`` on a large database vs a
small one and ``foya --version`` vs ``python -c pass`` (``benchmarks.integrity``); search latency
(``benchmarks.search``, at reduced sizes here).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

SECTIONS = (
    ("start-up", ["-m", "benchmarks.startup", "--rounds", "3"]),
    ("store", ["-m", "benchmarks.store"]),
    ("operations", ["-m", "benchmarks.operations"]),
    ("timeline", ["-m", "benchmarks.timeline", "--stream-seconds", "3"]),
    ("first message of a fresh window", ["-m", "benchmarks.first_message"]),
    ("start-up at any database size (200,000 vs 500 messages; the full 1M: python -m benchmarks.integrity)",
     ["-m", "benchmarks.integrity", "--large", "200000", "--rounds", "5"]),
    ("search (10,000 vs 100,000 messages; the full 100k vs 1M: python -m benchmarks.search)",
     ["-m", "benchmarks.search", "--small", "10000", "--large", "100000", "--queries", "20"]),
)


def main(argv: list[str] | None = None) -> int:
    """Run every section in its own interpreter (Qt and the store's database are per process).

    The arguments are parsed first so that ``--help`` prints what runs instead of starting a
    run of several minutes; ``--only`` picks sections by a word of their title.
    """
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Every benchmark section in one run (a few minutes); each figure is a ratio "
                    "against a baseline measured in the same run, printed beside its goal.",
        epilog="sections: " + "; ".join(f"{title.split(' (')[0]} (python {' '.join(args[:2])})"
                                        for title, args in SECTIONS))
    parser.add_argument("--only", metavar="WORD", action="append", default=[],
                        help="run only the sections whose title contains WORD (repeatable)")
    chosen = parser.parse_args(argv)
    failed = 0
    for title, args in SECTIONS:
        if chosen.only and not any(word.lower() in title.lower() for word in chosen.only):
            continue
        print(f"== {title} ==", flush=True)
        failed += subprocess.run([sys.executable, *args], check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
