"""``foya sessions set``: every change validated, refused with a clear sentence (a real subprocess)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def _session(home: Path, server: FakeProviderServer) -> str:
    add_fake(home, server)
    server.script(Reply(text="hi"))
    run = foya(home, "run", "hello")
    assert run.returncode == 0, run.stderr
    return run.stderr.split("Session ", 1)[1].split()[0]


def test_set_changes_every_field_and_prints_json(home: Path, server: FakeProviderServer) -> None:
    sid = _session(home, server)
    out = foya(home, "sessions", "set", sid, "--title", "Renamed", "--announcement", "Be brief.",
               "--connection", "fake", "--model", "m2", "--effort", "high", "--approval", "read_only",
               "--agent-mode", "plan", "--pin", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["title"] == "Renamed" and got["announcement"] == "Be brief." and got["model"] == "m2"
    assert (got["reasoning_effort"], got["approval_mode"], got["agent_mode"], got["pinned"]) == (
        "high", "read_only", "plan", True)
    unpinned = foya(home, "sessions", "set", sid, "--unpin", "--effort", "default")
    assert unpinned.returncode == 0 and "pinned=False" in unpinned.stdout
    listed = json.loads(foya(home, "sessions", "list", "--json").stdout)
    assert listed[0]["title"] == "Renamed"


BAD = [
    (["--approval", "yolo"], "Unknown approval mode 'yolo'"),
    (["--agent-mode", "dream"], "Unknown agent mode 'dream': use one of execute, plan, awaiting_confirmation"),
    (["--effort", "turbo"], "Unknown reasoning effort 'turbo'"),
    (["--connection", "nope"], "No connection named 'nope'"),
    (["--title", " "], "A session title cannot be empty."),
    ([], "Nothing to change"),
]


def test_set_refuses_bad_values_in_words(home: Path, server: FakeProviderServer) -> None:
    sid = _session(home, server)
    for args, words in BAD:
        out = foya(home, "sessions", "set", sid, *args)
        assert out.returncode == 1, args
        assert out.stderr.startswith("foya: error:") and words in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
    shown = json.loads(foya(home, "sessions", "list", "--json").stdout)[0]
    assert shown["title"] != " "


def test_set_on_an_unknown_session_says_so(home: Path, server: FakeProviderServer) -> None:
    add_fake(home, server)
    out = foya(home, "sessions", "set", "ses_missing", "--title", "x")
    assert out.returncode == 1 and "No session ses_missing" in out.stderr
    both = foya(home, "sessions", "set", "ses_missing", "--pin", "--unpin")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def test_status_prints_the_last_turn_figures(home: Path, server: FakeProviderServer, tmp_path: Path) -> None:
    """Y41-Y44 from the terminal: the same figures, from the store, in text and JSON."""
    add_fake(home, server)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "a.md").write_text("alpha\n")
    server.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "a.md"}),
                                    ToolCallSpec("write_file", {"path": "b.md", "content": "b"})],
                        usage=(1234, 56)),
                  Reply(text="done", usage=(2000, 4)))
    run = foya(home, "run", "--project", str(proj), "--approval", "read_only", "go")
    assert run.returncode == 0, run.stderr
    sid = run.stderr.split("Session ", 1)[1].split()[0]
    data = json.loads(foya(home, "sessions", "status", sid, "--json").stdout)
    assert data["running"] is False and data["turn_id"]
    (vp,) = data["vps"]
    assert (vp["name"], vp["input_tokens"], vp["output_tokens"], vp["requests"]) == ("Omni", 3234, 60, 2)
    assert (vp["executions"], vp["failures"], vp["blocked"]) == (1, 1, 1)
    text = foya(home, "sessions", "status", sid).stdout
    assert "input tokens 3,234" in text and "tool executions 1 · failed 1 (blocked 1)" in text
    assert "write_file: 0 executions, 1 failures, 1 blocked" in text
    assert "New evidence does not mean the task is done." in text
    assert data["state"] == "finished" and "(finished; these are its final figures, not live)" in text, (
        "Y46: the last turn's figures are labelled as such, never as running")


def test_status_of_a_turn_from_an_older_foya_says_the_detail_is_not_available(tmp_path: Path) -> None:
    """Y44 "old agents": the schema-1 fixture's turn has tool calls but no recorded outcomes."""
    home = tmp_path / "old"
    shutil.copytree(Path(__file__).resolve().parents[1] / "store" / "fixtures" / "schema-1", home)
    listed = json.loads(foya(home, "sessions", "list", "--json").stdout)
    texts = [foya(home, "sessions", "status", row["id"]) for row in listed]
    with_tools = [t.stdout for t in texts if "tool executions 0 · failed 0" not in t.stdout
                  and "model requests" in t.stdout]
    assert with_tools, [t.stdout + t.stderr for t in texts]
    assert all("Per-tool detail is not available for this run" in t for t in with_tools)
    data = [json.loads(foya(home, "sessions", "status", row["id"], "--json").stdout) for row in listed]
    assert any(vp["tool_detail"] is False for d in data for vp in d["vps"])


def test_usage_and_debug_from_the_terminal(home: Path, server: FakeProviderServer) -> None:
    """`foya usage` (no price → "no price", then a price → cost) and `foya sessions debug`."""
    sid = _session(home, server)
    plain = foya(home, "usage")
    assert plain.returncode == 0 and "fake/fake-model  1 requests  input 10" in plain.stdout
    assert "no price" in plain.stdout and "$0" not in plain.stdout
    bad = foya(home, "usage", "price", "fake", "fake-model", "--input", "2")
    assert bad.returncode == 1 and "needs both --input and --output" in bad.stderr
    assert foya(home, "usage", "price", "fake", "fake-model", "--input", "2", "--output", "10").returncode == 0
    priced = json.loads(foya(home, "usage", "--session", sid, "--json").stdout)
    assert priced["cost_usd"] == pytest.approx((10 * 2 + 5 * 10) / 1_000_000)
    debug = foya(home, "sessions", "debug", sid)
    assert debug.returncode == 0 and "may contain project text and tool output" in debug.stdout
    assert "model request to fake/fake-model" in debug.stdout and "stop stop" in debug.stdout
    data = json.loads(foya(home, "sessions", "debug", sid, "--json").stdout)
    assert [t["kind"] for t in data["traces"]] == ["step"]


def test_debug_of_one_turn_from_the_terminal(home: Path, server: FakeProviderServer) -> None:
    """`foya sessions debug ID --turn TURN_ID`: only that turn's steps; an unknown turn says so."""
    sid = _session(home, server)
    server.script(Reply(text="second"))
    assert foya(home, "run", "--session", sid, "again").returncode == 0
    every = json.loads(foya(home, "sessions", "debug", sid, "--json").stdout)["traces"]
    turns = list(dict.fromkeys(t["turn_id"] for t in every))
    assert len(turns) == 2
    one = json.loads(foya(home, "sessions", "debug", sid, "--turn", turns[1], "--json").stdout)["traces"]
    assert one and {t["turn_id"] for t in one} == {turns[1]}
    missing = foya(home, "sessions", "debug", sid, "--turn", "turn_nope")
    assert missing.returncode == 0 and "No debug traces for this session and turn turn_nope." in missing.stdout
