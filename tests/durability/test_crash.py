"""SIGKILL the engine at random points, restart, and check that nothing broke.

Each cycle starts the driver (``tests/durability/driver.py``) in a child
process on the same data directory and project, waits until it reports the
phase this cycle aims at — streaming, tool execution, branch, rewind or
delete — and kills it a random few milliseconds later. Then, before and after
start-up recovery: ``PRAGMA integrity_check`` is ``ok``; every message the
driver reported as committed is still there with the same status; no
complete reply is partial; every session is idle with every tool call
answered; no marker line (one per executed command) appears twice; and the
operation in flight at the kill is either wholly done or not at all.
"""

from __future__ import annotations

import asyncio
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from tests.durability.crash_model import CrashScript, Ledger, check_kernel, raw_checks
from tests.fakeprovider import FakeProviderServer
from tests.helpers.fake_keyring import MemoryKeyring

REPO = Path(__file__).resolve().parents[2]
TARGETS = ("stream", "tool", "branch", "rewind", "delete")
CYCLES = int(os.environ.get("FOYA_CRASH_CYCLES", "75"))
FIGURES: list[str] = []
"""Printed by ``conftest.pytest_terminal_summary`` (no ``-s`` needed)."""


def _run_and_kill(home: Path, project: Path, base_url: str, seed: int, target: str,
                  errors: Path) -> tuple[list[str], bool]:
    """Run the driver until it reaches ``target`` (or 8 s pass), SIGKILL it; return its lines."""
    cmd = [sys.executable, "-m", "tests.durability.driver", "--home", str(home), "--project",
           str(project), "--base-url", base_url, "--seed", str(seed), "--target", target]
    with errors.open("ab") as err:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=err, text=True)
    lines: list[str] = []
    seen: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_read, args=(proc, lines, seen), daemon=True)
    reader.start()
    hit = _wait_for_phase(seen, target, time.monotonic() + 8)
    if hit:
        time.sleep(random.Random(seed).uniform(0, 0.06 if target in ("stream", "tool") else 0.008))
    proc.send_signal(signal.SIGKILL)
    code = proc.wait()
    reader.join(5)
    if proc.stdout is not None:
        proc.stdout.close()  # the reader has reached its end: no ResourceWarning per cycle
    assert code == -signal.SIGKILL, f"the driver died on its own (exit {code}); see {errors}"
    return lines, hit


def _read(proc: subprocess.Popen[str], lines: list[str], seen: queue.Queue[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        seen.put(lines[-1])


def _wait_for_phase(seen: queue.Queue[str], target: str, deadline: float) -> bool:
    while (left := deadline - time.monotonic()) > 0:
        try:
            if seen.get(timeout=left) == f"PHASE {target}":
                return True
        except queue.Empty:
            return False
    return False


async def _verify(home: Path, ledger: Ledger, project: Path, in_flight: tuple[str, list[str]] | None) -> None:
    kernel = build_kernel(Home(home), keystore=KeyStore(MemoryKeyring()))
    try:
        await check_kernel(kernel, ledger, project, in_flight)
    finally:
        await kernel.close()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_sigkill_at_random_points(tmp_path: Path) -> None:
    home, project, errors = tmp_path / "home", tmp_path / "proj", tmp_path / "driver-stderr.log"
    project.mkdir()
    (project / "a.txt").write_text("before any turn\n")
    ledger, hits = Ledger(), Counter[str]()
    started = time.monotonic()
    with FakeProviderServer() as fake:
        fake.responder = CrashScript()
        for cycle in range(CYCLES):
            target = TARGETS[cycle % len(TARGETS)]
            lines, hit = _run_and_kill(home, project, fake.base_url, cycle, target, errors)
            assert not [x for x in lines if x.startswith("ERROR")], [x for x in lines if x.startswith("ERROR")]
            hits[target if hit else f"{target} (not reached, killed at 8 s)"] += 1
            in_flight = ledger.absorb(lines)
            integrity, journals, open_calls = raw_checks(home / "foya.sqlite3")
            assert integrity == "ok", f"cycle {cycle}: integrity_check says {integrity}"
            ledger.figures["rewind journals rolled forward"] += journals
            ledger.figures["replies with tool calls cut mid-run (closed as interrupted)"] += open_calls
            asyncio.run(_verify(home, ledger, project, in_flight))
    elapsed = time.monotonic() - started
    kills = sum(hits.values())
    FIGURES.append(f"SIGKILL crash test: {kills} kills in {elapsed:.1f} s — by phase: "
                   + ", ".join(f"{k} {v}" for k, v in sorted(hits.items())))
    FIGURES.append(f"  committed messages reported {len(ledger.commits)}, lost 0; partial marked complete 0; "
                   f"integrity_check ok {kills}/{kills}; every session idle; no tool ran twice")
    FIGURES.append("  " + ", ".join(f"{k}: {v}" for k, v in sorted(ledger.figures.items())))
    print("\n".join(FIGURES))
    assert kills >= 50 or "FOYA_CRASH_CYCLES" in os.environ
    assert all(hits[t] for t in TARGETS), hits
    assert os.path.getsize(errors) == 0 or "Traceback" not in errors.read_text(), errors.read_text()[-3000:]
