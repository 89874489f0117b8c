"""Start-up benchmark: process start → first painted main window, Foya vs a bare PySide6 window.

A command, not a test::

    python -m benchmarks.startup [--rounds 5] [--platform offscreen|xcb|both]

Each sample is a fresh interpreter: the time from just before the process is started until it
reports the first paint event of its main window on stdout, and the CPU time (user + system) the
process says it had used at that paint; on a loaded machine wall time punishes the side with more
work far beyond its share, so both are printed. The baseline is a bare PySide6
window (a ``QMainWindow`` holding a splitter with a list and a text edit); Foya is
``python -m foya_desktop`` with the smoke hook (``FOYA_SMOKE_QUIT_MS``, ``app.py``) on a data
folder that has been opened once before (the ordinary launch, not the very first one). Runs are
interleaved (bare, Foya, bare, Foya, …) and the medians compared, so the machine's load hits both
sides alike. Foya's modules are compiled to bytecode first (``compileall``), as an installed
package's are: otherwise an environment with ``PYTHONDONTWRITEBYTECODE`` set would make every
launch compile Foya from source, which no person's launch does (PySide6 and the standard library,
the bare window's side, are compiled already). Goal (issue 14): Foya ≤ 1.5× the bare window,
offscreen and under Xvfb
(``xcb`` runs the whole comparison inside one ``xvfb-run -a`` when no display is set).

Foya's first paint is its start frame (``ui/start_window.py``: the window at its remembered
place, in the person's language and theme, sidebar and timeline empty, "Opening…"); the engine is
attached after it. So that no cost hides behind that paint, a second figure is printed: start →
sessions list filled (engine imported, store opened, recovery run, the real window built with its
sessions listed and the last one selected), against the same bare window's first paint. It has
no goal of its own; it is what a person waits for before they can open a session.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 1.5
PAINTED = "foya: first paint"  # app.SMOKE_PAINTED; not imported: this file must not load Qt itself
CPU = "foya: cpu seconds at first paint:"  # app.SMOKE_CPU
FILLED = "foya: sessions listed"  # app.SMOKE_FILLED
FILLED_CPU = "foya: cpu seconds at sessions listed:"  # app.SMOKE_FILLED_CPU

BARE_WINDOW = f"""
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QListWidget, QMainWindow, QSplitter, QTextEdit

app = QApplication(sys.argv[:1])
window = QMainWindow()
splitter = QSplitter()
splitter.addWidget(QListWidget())
splitter.addWidget(QTextEdit())
window.setCentralWidget(splitter)
window.resize(1200, 800)


class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if watched is window and event.type() == QEvent.Type.Paint:
            window.removeEventFilter(self)
            import os
            cpu = os.times()
            print({PAINTED!r}, flush=True)
            print({CPU!r}, f"{{cpu.user + cpu.system:.3f}}", flush=True)
            QTimer.singleShot(0, app.quit)
        return False


watcher = FirstPaint()
window.installEventFilter(watcher)
window.show()
app.exec()
"""


Sample = tuple[float, float, float, float]
"""Wall and CPU seconds to the first paint, then wall and CPU seconds to the sessions list filled
(the bare window has nothing to fill: the same as its paint)."""


def time_to_paint(command: list[str], env: dict[str, str]) -> Sample:
    """Wall seconds from starting ``command`` until it prints the first-paint line, and the CPU
    seconds (user + system) it reports having used by then; likewise for the sessions-listed lines
    when it prints them (Foya); the process then quits on its own (Foya's smoke hook quits through
    its quit controller)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    elapsed = cpu = filled = filled_cpu = None
    for line in process.stdout:
        if line.strip() == PAINTED:
            elapsed = time.perf_counter() - started
        elif line.strip() == FILLED:
            filled = time.perf_counter() - started
        elif line.startswith(CPU):
            cpu = float(line.removeprefix(CPU))
        elif line.startswith(FILLED_CPU):
            filled_cpu = float(line.removeprefix(FILLED_CPU))
    _, err = process.communicate(timeout=120)
    if elapsed is None or cpu is None:
        raise RuntimeError(f"{command[1:]} never painted (exit {process.returncode}):\n{err[-2000:]}")
    if filled is None or filled_cpu is None:  # the bare window: painted is all it does
        filled, filled_cpu = elapsed, cpu
    return elapsed, cpu, filled, filled_cpu


def compare(platform: str, rounds: int) -> dict[str, tuple[float, ...]]:
    """Median figures of :data:`Sample` for "bare" and "foya" on one Qt platform, interleaved."""
    package = Path(__file__).resolve().parents[1] / "foya_desktop"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True,
                   stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(prefix="foya-bench-start-") as tmp:
        env = {**os.environ, "QT_QPA_PLATFORM": platform, "FOYA_HOME": str(Path(tmp) / "home"),
               "FOYA_SMOKE_QUIT_MS": "0"}
        commands = {"bare": [sys.executable, "-c", BARE_WINDOW],
                    "foya": [sys.executable, "-m", "foya_desktop"]}
        time_to_paint(commands["foya"], env)  # first launch: creates the data folder; warms the file cache
        time_to_paint(commands["bare"], env)
        samples: dict[str, list[Sample]] = {"bare": [], "foya": []}
        for _ in range(rounds):
            for name, command in commands.items():
                samples[name].append(time_to_paint(command, env))
    return {name: tuple(statistics.median(s[i] for s in runs) for i in range(4))
            for name, runs in samples.items()}


def report(platform: str, rounds: int) -> None:
    """Print one platform's figures next to the goal: wall time (the goal's own measure) and CPU
    time to first paint (what a loaded machine distorts least), then the same to the sessions list
    filled, engine attached."""
    figures = compare(platform, rounds)
    label = "offscreen" if platform == "offscreen" else "Xvfb"
    bare_of = {0: 0, 1: 1, 2: 0, 3: 1}  # both Foya figures are compared with the bare window's paint
    for index, kind in ((0, "wall"), (1, "CPU")):
        bare, foya = figures["bare"][bare_of[index]], figures["foya"][index]
        ratio = foya / bare
        print(f"start-up → first painted window ({label}, {kind}; Foya's start frame, excludes engine "
              f"attach; both from bytecode): Foya {foya * 1000:.0f} ms, bare PySide6 window "
              f"{bare * 1000:.0f} ms (medians of {rounds} interleaved pairs) -> {ratio:.2f}x "
              f"(goal <= {GOAL}x) {'MET' if ratio <= GOAL else 'NOT MET'}", flush=True)
    for index, kind in ((2, "wall"), (3, "CPU")):
        bare, foya = figures["bare"][bare_of[index]], figures["foya"][index]
        print(f"start-up → sessions list filled ({label}, {kind}; includes engine import, store open, "
              f"recovery and the real window): Foya {foya * 1000:.0f} ms vs the bare window's first paint "
              f"{bare * 1000:.0f} ms -> {foya / bare:.2f}x (no goal: what the first paint leaves out)",
              flush=True)


def main(argv: list[str] | None = None) -> None:
    """Offscreen, then under Xvfb (re-run inside ``xvfb-run -a`` when there is no display)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--platform", choices=("offscreen", "xcb", "both"), default="both")
    args = parser.parse_args(argv)
    if args.platform in ("offscreen", "both"):
        report("offscreen", args.rounds)
    if args.platform in ("xcb", "both"):
        if os.environ.get("DISPLAY"):
            report("xcb", args.rounds)
        elif shutil.which("xvfb-run"):
            subprocess.run(["xvfb-run", "-a", sys.executable, "-m", "benchmarks.startup", "--platform", "xcb",
                            "--rounds", str(args.rounds)], check=False)
        else:
            print("start-up under Xvfb: not measured (no DISPLAY and no xvfb-run)", flush=True)


if __name__ == "__main__":
    main()
