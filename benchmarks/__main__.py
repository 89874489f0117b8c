"""``python -m benchmarks``: every benchmark in one run, each figure printed as a ratio against
its goal, both sides measured in the same run. Figures, not tests.

Covered so far: store append vs raw sqlite3 (``benchmarks.store``), timeline open at 500 vs
50,000 messages and streaming CPU with the window vs none (``benchmarks.timeline``). Start-up,
scroll/paging, branch/fork/merge, rewind, delete, search and memory are not measured yet.
"""

from __future__ import annotations

import subprocess
import sys

from benchmarks import store

if __name__ == "__main__":
    print("== store ==", flush=True)
    store.main([])
    print("== timeline ==", flush=True)
    sys.exit(subprocess.run([sys.executable, "-m", "benchmarks.timeline", "--stream-seconds", "3"],
                            check=False).returncode)
