"""``foya sessions fork`` through the real entry point (a subprocess on a real data dir)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import add_fake, foya, home, server
from tests.fakeprovider import FakeProviderServer, Reply

__all__ = ["home", "server"]


def _texts(messages: list[dict[str, object]]) -> list[str]:
    return ["".join(str(p.get("text", "")) for p in m["parts"]) for m in messages]  # type: ignore[attr-defined]


def test_fork_whole_and_from_a_turn(home: Path, server: FakeProviderServer) -> None:
    """Y15/Y20 from the CLI: the new id is printed (JSON: {"session_id": …})."""
    add_fake(home, server)
    server.script(Reply(text="a1"), Reply(text="a2"))
    first = foya(home, "run", "q1")
    sid = first.stderr.split("Session ", 1)[1].split()[0]
    assert foya(home, "run", "--session", sid, "q2").returncode == 0
    whole = foya(home, "sessions", "fork", sid, "--json")
    assert whole.returncode == 0, whole.stderr
    fork_id = json.loads(whole.stdout)["session_id"]
    shown = json.loads(foya(home, "sessions", "show", fork_id, "--json").stdout)
    assert _texts(shown["messages"]) == ["q1", "a1", "q2", "a2"]
    source = json.loads(foya(home, "sessions", "show", sid, "--json").stdout)["messages"]
    part = foya(home, "sessions", "fork", sid, "--from-turn", source[1]["id"])
    assert part.returncode == 0 and part.stdout.startswith(f"Forked {sid} into ses_"), part.stderr
    part_id = part.stdout.split(" into ", 1)[1].split()[0]
    shown = json.loads(foya(home, "sessions", "show", part_id, "--json").stdout)
    assert _texts(shown["messages"]) == ["q1", "a1"]
    bad = foya(home, "sessions", "fork", sid, "--from-turn", "msg_nope")
    assert bad.returncode == 1 and "No message msg_nope" in bad.stderr and "Traceback" not in bad.stderr
