"""``foya memory``, ``foya projects set --scoped-recall`` and ``foya sessions merge`` through the real
``foya`` entry point (a subprocess on a real data folder; SEED-CHECKLIST Y18, Y22–Y25, Y59, Y60)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli.test_cli import add_fake, foya
from tests.cli.test_two_processes import HOLDER, _env
from tests.fakeprovider import FakeProviderServer, Reply


def _sid(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stderr
    return proc.stderr.split("Session ", 1)[1].split()[0]


def _texts(home: Path, sid: str) -> list[str]:
    shown = json.loads(foya(home, "sessions", "show", sid, "--json").stdout)
    return ["".join(str(p.get("text", "")) for p in m["parts"]) for m in shown["messages"]]


def test_memory_list_add_remove_with_scopes_and_clear_errors(tmp_path: Path) -> None:
    """The person edits every scope from the CLI; bad input is a sentence, never a traceback."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    with FakeProviderServer() as server:
        add_fake(home, server)
        server.script(Reply(text="hi"))
        sid = _sid(foya(home, "run", "--project", str(proj), "hello"))
    added = foya(home, "memory", "add", "Answer in British English.", "--json")
    assert added.returncode == 0, added.stderr
    user = json.loads(added.stdout)
    assert (user["scope"], user["author"], user["session_id"]) == ("user", "person", None)
    vp = json.loads(foya(home, "memory", "add", "Omni keeps it short.", "--scope", "vp", "--vp", "Omni",
                         "--json").stdout)
    assert vp["vp"] == "omni"
    ses = foya(home, "memory", "add", "The API is v2.", "--scope", "session", "--session", sid)
    assert ses.returncode == 0 and ses.stdout.startswith("Saved mem_") and "session memory" in ses.stdout
    svp = json.loads(foya(home, "memory", "add", "Omni read src/", "--scope", "session-vp", "--vp", "omni",
                          "--session", sid, "--json").stdout)
    listed = json.loads(foya(home, "memory", "list", "--json").stdout)
    assert [e["scope"] for e in listed] == ["user", "vp", "session", "session-vp"]
    assert {e["source_session_id"] for e in listed} == {None, sid}
    only = json.loads(foya(home, "memory", "list", "--scope", "session-vp", "--session", sid, "--json").stdout)
    assert [e["id"] for e in only] == [svp["id"]]
    text = foya(home, "memory", "list", "--vp", "omni").stdout
    assert "Omni keeps it short." in text and "by person" in text and "British" not in text
    for args, words in [
        (("add", "x", "--scope", "vp"), "belongs to one VP"),
        (("add", "x", "--scope", "session"), "belongs to one session"),
        (("add", "x", "--scope", "vp", "--vp", "Nobody"), "Unknown VP"),
        (("add", "x", "--scope", "session", "--session", "ses_nope"), "ses_nope"),
        (("add", "  "), "needs some text"),
        (("remove", "mem_nope"), "no memory entry mem_nope"),
    ]:
        bad = foya(home, "memory", *args)
        assert bad.returncode != 0 and words in bad.stderr and "Traceback" not in bad.stderr, (args, bad.stderr)
    assert foya(home, "memory", "add", "x", "--scope", "team").returncode == 2  # argparse names the choices
    removed = foya(home, "memory", "remove", user["id"])
    assert removed.returncode == 0 and "Removed" in removed.stdout
    assert user["id"] not in foya(home, "memory", "list").stdout
    assert foya(home, "sessions", "delete", sid, "--yes").returncode == 0
    left = json.loads(foya(home, "memory", "list", "--json").stdout)
    assert [e["scope"] for e in left] == ["vp"]  # session and session-VP memory went with the session


def test_projects_set_scoped_recall(tmp_path: Path) -> None:
    """Y59: scoped recall is off by default and switched per project, alone or with the instruction."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    with FakeProviderServer() as server:
        add_fake(home, server)
        server.script(Reply(text="hi"))
        _sid(foya(home, "run", "--project", str(proj), "hello"))
    [row] = json.loads(foya(home, "projects", "list", "--json").stdout)
    assert row["scoped_recall"] is False
    on = foya(home, "projects", "set", str(proj), "--scoped-recall", "on")
    assert on.returncode == 0 and "scoped recall on" in on.stdout, on.stderr
    assert json.loads(foya(home, "projects", "list", "--json").stdout)[0]["scoped_recall"] is True
    both = foya(home, "projects", "set", row["id"], "--scoped-recall", "off", "--instruction", "Be brief.")
    assert both.returncode == 0 and "instruction saved" in both.stdout and "scoped recall off" in both.stdout
    [row] = json.loads(foya(home, "projects", "list", "--json").stdout)
    assert (row["scoped_recall"], row["instruction"]) == (False, "Be brief.")
    nothing = foya(home, "projects", "set", row["id"])
    assert nothing.returncode == 1 and "Nothing to change" in nothing.stderr


def test_sessions_merge_end_to_end(tmp_path: Path) -> None:
    """Y22–Y25 through `foya`: --json prints the new id; common turns once, then by send time; a busy
    source refuses; neither source changes."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    with FakeProviderServer() as server:
        add_fake(home, server)
        server.script(Reply(text="a1"), Reply(text="a2"), Reply(text="b2"), Reply(text="a3"))
        a = _sid(foya(home, "run", "--project", str(proj), "q1"))
        fork = foya(home, "sessions", "fork", a, "--json")
        assert fork.returncode == 0, fork.stderr
        b = json.loads(fork.stdout)["session_id"]
        assert foya(home, "run", "--session", a, "qa2").returncode == 0
        assert foya(home, "run", "--session", b, "qb2").returncode == 0
        assert foya(home, "run", "--session", a, "qa3").returncode == 0
    before_a, before_b = _texts(home, a), _texts(home, b)
    merged = foya(home, "sessions", "merge", a, b, "--json")
    assert merged.returncode == 0, merged.stderr
    new_id = json.loads(merged.stdout)["session_id"]
    assert new_id not in (a, b)
    assert _texts(home, new_id) == ["q1", "a1", "qa2", "a2", "qb2", "b2", "qa3", "a3"]
    assert (_texts(home, a), _texts(home, b)) == (before_a, before_b)
    sessions = {s["id"]: s for s in json.loads(foya(home, "sessions", "list", "--json").stdout)}
    assert sessions[new_id]["project_id"] == sessions[a]["project_id"]

    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(home), b], env=_env(home),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        count = len(sessions)
        refused = foya(home, "sessions", "merge", a, b, "--json")
        assert refused.returncode != 0 and refused.stdout == ""
        assert "Traceback" not in refused.stderr and f"pid {holder.pid}" in refused.stderr, refused.stderr
    finally:
        holder.communicate("\n", timeout=60)
    assert len(json.loads(foya(home, "sessions", "list", "--json").stdout)) == count
