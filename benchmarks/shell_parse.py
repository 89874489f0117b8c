"""Command-policy parser costs: the first command classified in a fresh interpreter (importing
the parser, tree-sitter-bash, on that call) and the cost of one more classification, each against
a baseline from the same run. A command, not a test::

    python -m benchmarks.shell_parse [--runs 7]

The parser is not on the window's start-up path (``tests/tools/test_shell_policy.py`` proves no
parser module loads with the window's modules); this measures what the first command pays.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tools.tool_vectors import ALLOWED_COMMANDS, NOT_ALLOWED_COMMANDS

_FIRST = """
import sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from foya_desktop.tools.shell_policy import classify_command
t = time.perf_counter()
{call}
print((time.perf_counter() - t) * 1000)
"""


def first_call_ms(call: str, runs: int) -> float:
    """Median wall time of ``call`` as the first thing after importing the policy module."""
    root = str(Path(__file__).resolve().parents[1])
    times = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _FIRST.format(root=root, call=call)],
                              capture_output=True, text=True, check=True)
        times.append(float(done.stdout))
    return statistics.median(times)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        call = f"classify_command('ls -la', Path({tmp!r}))"
        first = first_call_ms(call, args.runs)
        again = first_call_ms(f"{call}; t = time.perf_counter(); {call}", args.runs)
        print(f"first command classified (parser import included): {first:.1f} ms median of {args.runs}")
        print(f"  vs a second 'ls -la' in that process: {first / max(again, 1e-3):.0f}x")
        commands = ALLOWED_COMMANDS + [c for c, _ in NOT_ALLOWED_COMMANDS]
        from foya_desktop.tools.shell_policy import classify_command
        from foya_desktop.tools.shell_tree import parse
        classify_command("ls", Path(tmp))
        start = time.perf_counter()
        for command in commands:
            parse(command.encode())
        parse_us = (time.perf_counter() - start) / len(commands) * 1e6
        start = time.perf_counter()
        for command in commands:
            classify_command(command, Path(tmp))
        classify_us = (time.perf_counter() - start) / len(commands) * 1e6
        print(f"per command over the {len(commands)} vector commands: parse {parse_us:.1f} us, "
              f"classify {classify_us:.1f} us (parse is {parse_us / classify_us:.0%} of it)")


if __name__ == "__main__":
    main(sys.argv[1:])
