"""End to end through ``foya work`` with the real fake provider and a real DBOS system database:
Linus implements, Martin reviews and sends it back once, Linus reworks, the check passes, the
person accepts."""

from __future__ import annotations

import sqlite3

import pytest

from tests.work.conftest import Team, foya, ok_json


def _session_texts(team: Team, session_id: str) -> list[tuple[str, str]]:
    con = sqlite3.connect(f"file:{team.home / 'foya.sqlite3'}?mode=ro", uri=True)
    try:
        return con.execute("SELECT role, parts FROM message_row WHERE session_id=? ORDER BY seq",
                           (session_id,)).fetchall()
    finally:
        con.close()


@pytest.mark.slow  # real processes, about 30-60 s on a loaded machine
def test_relay_review_send_back_rework_check_accept(team: Team) -> None:
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--criterion", "impl.txt says fixed", "--check", "grep -q fixed impl.txt",
                   "--vp", "Linus,Martin")
    assert made["state"] == "ready"
    assert [a["id"] for a in made["actions"]] == ["implement", "review", "check-1"]
    assert made["contract"]["workdir"] == str(team.project.resolve())

    started = ok_json(team.home, "work", "start", made["id"])
    assert started["state"] == "reviewing", started
    assert "accept it" in started["wait_reason"]
    states = {a["id"]: (a["state"], a["verdict"]) for a in started["actions"]}
    assert states == {"implement": ("done", ""), "review": ("done", "send_back"), "check-1": ("done", "pass"),
                      "rework-1": ("done", ""), "review-2": ("done", "accept")}
    assert (team.project / "impl.txt").read_text() == "fixed"
    assert (team.project / "ledger.txt").read_text() == "ran\nran\n"  # each call ran once

    runs = ok_json(team.home, "work", "runs", made["id"])
    assert [(r["action_id"], r["state"], r["outcome"]) for r in runs] == [
        ("implement", "done", "done"), ("review", "done", "send_back"), ("rework-1", "done", "done"),
        ("review-2", "done", "accept"), ("check-1", "done", "pass")]
    transcript = _session_texts(team, runs[0]["session_id"])
    assert [role for role, _ in transcript] == ["user", "assistant", "tool", "assistant"]
    assert "printf draft" in transcript[1][1]

    accepted = ok_json(team.home, "work", "accept", made["id"])
    assert accepted["state"] == "accepted"
    assert ok_json(team.home, "work", "show", made["id"])["state"] == "accepted"
    again = foya(team.home, "work", "accept", made["id"])
    assert again.returncode == 1 and again.stderr.startswith("foya: error:") and "accepted already" in again.stderr
