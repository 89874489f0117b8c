"""Bad input to ``foya work``: one sentence on stderr, no traceback, and a distinct exit code
(docs/cli/index.md "Errors and exit codes"); nothing is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.work.conftest import Team, foya, ok_json


def _refused(team: Team, code: int, *args: str) -> str:
    out = foya(team.home, "work", *args)
    assert out.returncode == code, (out.returncode, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("foya: error:"), out.stderr
    return lines[0]


def _create(team: Team, *extra: str) -> list[str]:
    return ["create", "--from-session", team.session, "--goal", "Write impl.txt", *extra]


@pytest.mark.slow  # real processes, about 30-60 s on a loaded machine
def test_bad_contracts_are_refused_each_with_its_own_exit_code(team: Team, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps([
        {"id": "build", "kind": "agent", "vp": "Linus", "after": ["review"]},
        {"id": "review", "kind": "review", "vp": "Martin", "after": ["build"]}]))
    cycle = _refused(team, 20, *_create(team, "--vp", "Linus,Martin", "--plan", str(plan)))
    assert "cycle" in cycle and ("build → review → build" in cycle or "review → build → review" in cycle)
    assert "bounded rework" in cycle

    unknown = _refused(team, 21, *_create(team, "--vp", "Linus,Nobody"))
    assert "'Nobody'" in unknown and "foya vps list" in unknown

    missing = _refused(team, 22, *_create(team, "--folder", str(tmp_path / "not-there")))
    assert "not-there does not exist" in missing

    refused = _refused(team, 23, *_create(team, "--criterion", "clean", "--check", "rm -rf ~"))
    assert "'rm -rf ~' is refused by the command policy" in refused

    assert "--check belongs to the --criterion" in foya(team.home, "work", *_create(team, "--check", "true")).stderr
    assert _refused(team, 1, "create", "--from-session", "ses_nope", "--goal", "x").endswith("No session ses_nope.")
    assert _refused(team, 1, *_create(team, "--message", "msg_nope")).endswith(
        f"Session {team.session} has no message msg_nope.")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert "is not a JSON list of actions" in _refused(team, 2, *_create(team, "--plan", str(broken)))
    assert ok_json(team.home, "work", "list") == []  # nothing was stored


@pytest.mark.slow  # real processes, about 30-60 s on a loaded machine
def test_decisions_out_of_turn_are_refused(team: Team) -> None:
    made = ok_json(team.home, "work", "create", "--from-session", team.session, "--goal", "Write impl.txt",
                   "--vp", "Linus")
    early = _refused(team, 1, "accept", made["id"])
    assert f"WorkItem {made['id']} is ready: it can be accepted once every action is done" in early
    assert "only a WorkItem waiting for your acceptance" in _refused(team, 1, "send-back", made["id"],
                                                                     "--note", "x")
    assert ok_json(team.home, "work", "cancel", made["id"])["state"] == "cancelled"
    assert "cancelled already" in _refused(team, 1, "start", made["id"])
    assert _refused(team, 1, "show", "work_nope").endswith("No WorkItem work_nope (see foya work list).")
