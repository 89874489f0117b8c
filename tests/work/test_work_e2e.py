"""End to end through ``foya work`` with the real fake provider and a real DBOS system database:
Linus implements, Martin reviews and sends it back once, Linus reworks, the check passes, the
person accepts."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.fakeprovider import Fault, Reply, last_user_text, system_prompt
from tests.work.conftest import LINUS, Team, foya, ok_json, team_responder


def _session_texts(team: Team, session_id: str) -> list[tuple[str, str]]:
    con = sqlite3.connect(f"file:{team.home / 'foya.sqlite3'}?mode=ro", uri=True)
    try:
        return con.execute("SELECT role, parts FROM message_row WHERE session_id=? ORDER BY seq",
                           (session_id,)).fetchall()
    finally:
        con.close()


@pytest.mark.slow  # real processes, about 30-60 s on a loaded machine
def test_relay_review_send_back_rework_check_accept(team: Team) -> None:
    message = ok_json(team.home, "sessions", "show", team.session)["messages"][0]["id"]
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--message", message,
                   "--goal", "Write impl.txt", "--criterion", "impl.txt says fixed", "--check",
                   "grep -q fixed impl.txt", "--vp", "Linus,Martin")
    assert made["state"] == "ready"
    assert (made["contract"]["source_session"], made["contract"]["source_message"]) == (team.session, message)
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

    assert started["checklist"] == [{"text": "impl.txt says fixed", "check": "grep -q fixed impl.txt",
                                     "evidence": "check-1"}]
    shown = foya(team.home, "work", "show", made["id"]).stdout
    assert "[x] impl.txt says fixed  (check: grep -q fixed impl.txt)  — evidence: check-1" in shown
    reopened = ok_json(team.home, "work", "send-back", made["id"], "--note", "add a newline")
    assert reopened["state"] == "reviewing", reopened  # the person's send-back ran rework, review, check
    added = [(a["id"], a["state"], a["verdict"]) for a in reopened["actions"][5:]]
    assert added == [("rework-2", "done", ""), ("review-3", "done", "accept"), ("check-1-3", "done", "pass")]
    assert "The person sent the work back: add a newline" in reopened["actions"][5]["instruction"]
    assert (team.project / "ledger.txt").read_text() == "ran\nran\nran\n"
    accepted = ok_json(team.home, "work", "accept", made["id"])
    assert accepted["state"] == "accepted"
    assert ok_json(team.home, "work", "show", made["id"])["state"] == "accepted"
    again = foya(team.home, "work", "accept", made["id"])
    assert again.returncode == 1 and again.stderr.startswith("foya: error:") and "accepted already" in again.stderr


@pytest.mark.slow  # real processes, about 30 s on a loaded machine
def test_a_wait_for_the_person_parks_the_workflow_until_answered(team: Team, tmp_path: Path) -> None:
    """``start`` ends while the workflow waits in DBOS ``recv``; ``answer`` (another process)
    recovers it, and the answer reaches the next step."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps([
        {"id": "implement", "kind": "agent", "vp": "Linus", "instruction": "Write impl.txt"},
        {"id": "ask", "kind": "wait", "instruction": "Ship the draft?", "after": ["implement"]},
        {"id": "check", "kind": "check", "command": "grep -q draft impl.txt", "after": ["ask"]}]))
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--vp", "Linus", "--plan", str(plan))
    waiting = ok_json(team.home, "work", "start", made["id"])
    assert (waiting["state"], waiting["wait_reason"]) == ("waiting", "Waiting for your answer: Ship the draft?")
    listed = foya(team.home, "work", "list")
    assert "waiting" in listed.stdout and "Ship the draft?" in listed.stdout

    answered = ok_json(team.home, "work", "answer", made["id"], "--text", "yes, ship it")
    assert answered["state"] == "reviewing", answered
    assert {a["id"]: a["result"][:12] for a in answered["actions"]}["ask"] == "yes, ship it"
    assert [(r["action_id"], r["outcome"]) for r in ok_json(team.home, "work", "runs", made["id"])] == [
        ("implement", "done"), ("check", "pass")]


@pytest.mark.slow  # real processes, about 20 s on a loaded machine
def test_a_used_up_budget_fails_the_workitem_with_the_reason(team: Team) -> None:
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--vp", "Linus,Martin", "--max-runs", "1")
    failed = ok_json(team.home, "work", "start", made["id"])
    assert (failed["state"], failed["failure"]) == ("failed", "The budget of 1 runs is used up.")
    assert [a["state"] for a in failed["actions"]] == ["done", "pending"]  # the review never started
    shown = foya(team.home, "work", "show", made["id"])
    assert "state: failed — The budget of 1 runs is used up." in shown.stdout


@pytest.mark.slow  # real processes, about 20 s on a loaded machine
def test_a_failed_turn_is_tried_again_in_the_same_run(team: Team) -> None:
    """The provider refuses Linus's first request: after a durable backoff the same run goes on
    (one run, two attempts, the tool call once)."""
    refused: list[int] = []

    def responder(body: dict[str, Any]) -> Reply:
        if LINUS in system_prompt(body) and "Goal:" in last_user_text(body) and not refused:
            refused.append(1)
            return Reply(fault=Fault.status(400, body={"error": {"type": "invalid_request_error",
                                                                 "message": "try again"}}))
        return team_responder(body)

    team.server.responder = responder
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--vp", "Linus")
    done = ok_json(team.home, "work", "start", made["id"])
    assert done["state"] == "reviewing", done
    [run] = ok_json(team.home, "work", "runs", made["id"])
    assert (run["attempts"], run["state"]) == (2, "done")
    assert (team.project / "ledger.txt").read_text() == "ran\n"


@pytest.mark.slow  # real processes, about 20 s on a loaded machine
def test_a_failed_check_sends_the_work_back_with_its_output(team: Team) -> None:
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--criterion", "impl.txt says fixed", "--check", "grep -c fixed impl.txt",
                   "--vp", "Linus")
    done = ok_json(team.home, "work", "start", made["id"])
    assert done["state"] == "reviewing", done
    runs = ok_json(team.home, "work", "runs", made["id"])
    assert [(r["action_id"], r["outcome"]) for r in runs] == [
        ("implement", "done"), ("check-1", "fail"), ("rework-1", "done"), ("check-1-2", "pass")]
    rework = next(a for a in done["actions"] if a["id"] == "rework-1")
    assert "The check `grep -c fixed impl.txt` failed:\n0\n[exit code: 1]" in rework["instruction"]
    assert (team.project / "impl.txt").read_text() == "fixed"
