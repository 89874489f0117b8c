"""How DBOS Transact 3.4 really behaves on this machine's SQLite, in separate processes (DBOS is
one global instance per process).

- Its own SQLite engine defines timestamps with ``unixepoch('subsec')``, which SQLite learned in
  3.42: on an older library every launch fails. Foya's engine (``executor.system_engine``) adds
  that function where it is missing; on a newer library both launch.
- A workflow parked in ``recv`` in a process that ends is recovered by the next launch, its
  finished step is not run again, and a message sent meanwhile reaches it.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

PRELUDE = """
import os, sys
from pathlib import Path
from dbos import DBOS, SetWorkflowID
from foya_desktop.engine.work.executor import system_engine
from foya_desktop.store.home import Home
root = Path(sys.argv[1]); own = sys.argv[2] == "foya"
config = {"name": "probe", "system_database_url": f"sqlite:///{root / 'work.sqlite3'}",
          "application_version": "probe-1", "log_level": "CRITICAL"}
if own:
    config["system_database_engine"] = system_engine(Home(root))
DBOS(config=config)
"""

LAUNCH = PRELUDE + """
try:
    DBOS.launch()
    print("LAUNCHED")
except Exception as exc:
    print("FAILED", type(exc).__name__, exc)
sys.stdout.flush()
os._exit(0)
"""

PARK = PRELUDE + """
@DBOS.step()
def once(mark):
    with open(root / "ran.txt", "a") as f:
        f.write(mark + "\\n")
    return mark

@DBOS.workflow()
def flow():
    once("before")
    got = DBOS.recv("person", timeout_seconds=3600)
    once("after " + str(got))
    return got

DBOS.launch()
if sys.argv[3] == "park":
    with SetWorkflowID("wf-1"):
        DBOS.start_workflow(flow)
    import time
    while not (root / "ran.txt").exists():
        time.sleep(0.05)
    time.sleep(0.5)
else:
    DBOS.send("wf-1", "yes", "person")
    print("RESULT", DBOS.retrieve_workflow("wf-1").get_result())
sys.stdout.flush()
os._exit(0)
"""


def _run(script: str, root: Path, *args: str) -> str:
    env = {**os.environ}
    done = subprocess.run([sys.executable, "-c", script, str(root), *args], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(sqlite3.sqlite_version_info >= (3, 42), reason="this SQLite has unixepoch('subsec')")
def test_dbos_own_sqlite_engine_cannot_launch_before_sqlite_3_42(tmp_path: Path) -> None:
    out = _run(LAUNCH, tmp_path, "dbos")
    assert "FAILED" in out and "application_versions.version_timestamp" in out, out


def test_foyas_engine_launches_dbos(tmp_path: Path) -> None:
    assert "LAUNCHED" in _run(LAUNCH, tmp_path, "foya")


def test_a_parked_recv_is_recovered_by_the_next_process_and_the_done_step_is_not_rerun(tmp_path: Path) -> None:
    _run(PARK, tmp_path, "foya", "park")
    assert "RESULT yes" in _run(PARK, tmp_path, "foya", "send")
    assert (tmp_path / "ran.txt").read_text() == "before\nafter yes\n"
