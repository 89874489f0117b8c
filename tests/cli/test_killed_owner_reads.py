"""What a read says about a session whose owner was killed mid-turn (docs/data.md, "Two processes, one
database"): the phase a dead process left is not repeated — idle, the last turn interrupted —
and nothing is written to say so (the record waits for a writing process to recover it). The
kill is also an unclean shutdown: the next open checks the file in full (``store/integrity.py``).
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

from foya_desktop.store import integrity
from foya_desktop.store.home import Home
from tests.cli.test_cli import foya
from tests.cli.test_two_processes import Held, _rows, held_session  # noqa: F401


def _listed(home: Path, sid: str) -> dict[str, object]:
    out = foya(home, "sessions", "list", "--json")
    assert out.returncode == 0, out.stderr
    (row,) = [s for s in json.loads(out.stdout) if s["id"] == sid]
    assert isinstance(row, dict)
    return row


def test_a_killed_owners_session_reads_as_idle_with_its_last_turn_interrupted(
        held_session: Held) -> None:  # noqa: F811
    home, sid, a, _ = held_session
    live = _listed(home, sid)
    assert (live["phase"], live["last_turn_interrupted"]) == ("turn", False)  # A is running it
    a.send_signal(signal.SIGKILL)
    a.wait()
    assert integrity.why_check(Home(home), home / "foya.sqlite3") is not None  # no clean close
    dead = _listed(home, sid)  # before any other process writes
    assert (dead["phase"], dead["last_turn_interrupted"]) == ("idle", True)
    text = foya(home, "sessions", "list")
    assert "(last turn interrupted)" in text.stdout, text.stdout
    shown = foya(home, "sessions", "show", sid, "--json")
    assert json.loads(shown.stdout)["session"]["phase"] == "idle"
    assert _rows(home, "SELECT phase FROM session_row WHERE id=?", sid) == [("turn",)]  # nothing written
    assert "full consistency check" in (home / "logs" / "foya.log").read_text()
    assert integrity.why_check(Home(home), home / "foya.sqlite3") is None  # that check was recorded
