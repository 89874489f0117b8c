"""Session operations at 500 vs 50,000 messages: branch and delete, through the kernel.

A command, not a test::

    python -m benchmarks.operations [--rounds 1]

Each round builds one session of each size (the store's batch import), then times the kernel's
``branch`` after the last reply and ``delete_session`` of the source. Sizes alternate within
each round and the medians are compared. Goals (issue 14): branch ≤ 2× (copy-on-write history;
not done: it needs a schema change this session could not make, so the figure shows today's
copy); delete has no written goal: ≤ 2× is the size-independence bar the issue uses elsewhere.
Search latency has its own benchmark (``benchmarks.search``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home

SIZES = (500, 50_000)
GOAL = 2.0


async def _session(kernel: Kernel, count: int) -> tuple[str, str]:
    """A session of ``count`` alternating user/assistant messages; its id and its last reply's id."""
    session = await kernel.sessions.create_session(title=f"bench {count}")
    messages = [Message(new_id("msg"), session.id, "user" if i % 2 == 0 else "assistant",
                        (TextPart(f"message {i} about the parser and step {i}"),), created_at=now_ms())
                for i in range(count)]
    for start in range(0, count, 5000):
        await kernel.store.import_messages(session.id, messages[start:start + 5000])
    return session.id, messages[-1].id


async def _timed(coro: object) -> tuple[float, object]:
    started = time.perf_counter()
    result = await coro  # type: ignore[misc]
    return time.perf_counter() - started, result


async def measure(root: Path, rounds: int) -> dict[str, dict[int, list[float]]]:
    """Seconds per operation and size, every round."""
    kernel = build_kernel(Home(root))
    samples: dict[str, dict[int, list[float]]] = {k: {n: [] for n in SIZES}
                                                  for k in ("branch", "delete")}
    try:
        for _ in range(rounds):
            for n in SIZES:
                sid, last = await _session(kernel, n)
                spent, branched = await _timed(kernel.lifecycle.branch(sid, last))
                samples["branch"][n].append(spent)
                await kernel.lifecycle.delete_session(branched.id)  # type: ignore[attr-defined]
                spent, _ = await _timed(kernel.lifecycle.delete_session(sid))
                samples["delete"][n].append(spent)
    finally:
        await kernel.close()
    return samples


def main(argv: list[str] | None = None) -> None:
    """Print each operation's medians and ratio next to its goal."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.operations")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="foya-bench-ops-") as tmp:
        samples = asyncio.run(measure(Path(tmp), args.rounds))
    notes = {"branch": " (copy-on-write not done: needs a schema change)",
             "delete": " (no goal written in the issue)"}
    for name, by_size in samples.items():
        small, large = (statistics.median(by_size[n]) for n in SIZES)
        ratio = large / small
        print(f"{name} of a 50,000-message session vs a 500-message one: {large * 1000:.0f} ms vs "
              f"{small * 1000:.0f} ms (medians of {args.rounds}) -> {ratio:.1f}x (goal <= {GOAL:g}x) "
              f"{'MET' if ratio <= GOAL else 'NOT MET'}{notes[name]}", flush=True)


if __name__ == "__main__":
    main()
