"""The ``foya`` command as a newcomer runs it: a real subprocess, a real data dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec


def foya(home: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",
                **(env or {})}
    full_env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "foya_desktop", *args], capture_output=True, text=True,
                          env=full_env, timeout=timeout, check=False)


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def add_fake(home: Path, server: FakeProviderServer, kind: str = "openai") -> None:
    out = foya(home, "connections", "add", "fake", "--kind", kind, "--base-url", server.base_url,
               "--model", "fake-model")
    assert out.returncode == 0, out.stderr


def test_connections_add_list_remove(home: Path, server: FakeProviderServer) -> None:
    add_fake(home, server)
    listed = foya(home, "connections", "list")
    header, row = listed.stdout.splitlines()
    assert header.split() == ["NAME", "KIND", "MODEL", "KEY", "BASE", "URL"]
    assert row.split()[:3] == ["fake", "openai", "fake-model"] and row.endswith(server.base_url)
    [as_json] = json.loads(foya(home, "connections", "list", "--json").stdout)
    assert as_json["name"] == "fake" and as_json["base_url"] == server.base_url and as_json["kind"] == "openai"
    assert foya(home, "connections", "remove", "fake").returncode == 0
    assert foya(home, "connections", "list", "--json").stdout.strip() == "[]"
    assert "No connections yet" in foya(home, "connections", "list").stdout
    gone = foya(home, "connections", "remove", "fake")
    assert gone.returncode == 1 and gone.stderr.startswith("foya: error:")


@pytest.mark.parametrize("stdin", ["", "\n"], ids=["closed", "empty line"])
def test_ask_key_without_a_key_is_a_sentence(home: Path, server: FakeProviderServer, stdin: str) -> None:
    """Standard input closed (or Ctrl+D) at the key prompt, or an empty key: one sentence, nothing saved."""
    proc = subprocess.run([sys.executable, "-m", "foya_desktop", "connections", "add", "k", "--kind", "openai",
                           "--base-url", server.base_url, "--ask-key"], input=stdin, capture_output=True,
                          text=True, timeout=60, check=False, env={**os.environ, "FOYA_HOME": str(home)})
    assert proc.returncode == 2, proc.stderr
    assert "nothing was saved" in proc.stderr and "internal error" not in proc.stderr
    assert "Traceback" not in proc.stderr
    assert foya(home, "connections", "list", "--json").stdout.strip() == "[]"


def test_storing_a_key_without_keyring_is_refused(home: Path, server: FakeProviderServer) -> None:
    proc = subprocess.run([sys.executable, "-m", "foya_desktop", "connections", "add", "k", "--kind", "openai",
                           "--base-url", server.base_url, "--ask-key"], input="sk-secret\n", capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**os.environ, "FOYA_HOME": str(home),
                               "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"})
    assert proc.returncode == 1
    assert "plain text" in proc.stderr
    assert not any(b"sk-secret" in p.read_bytes() for p in home.rglob("*") if p.is_file())


def test_run_streams_reply_and_sessions_show_it(home: Path, server: FakeProviderServer, tmp_path: Path) -> None:
    add_fake(home, server)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "notes.md").write_text("remember the milk\n")
    server.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "notes.md"})]),
                  Reply(text="The note says: remember the milk."))
    run = foya(home, "run", "--project", str(proj), "What does notes.md say?")
    assert run.returncode == 0, run.stderr
    assert "The note says: remember the milk." in run.stdout
    session_id = run.stderr.split("Session ", 1)[1].split()[0]
    listed = json.loads(foya(home, "sessions", "list", "--json").stdout)
    assert [s["id"] for s in listed] == [session_id]
    shown = json.loads(foya(home, "sessions", "show", session_id, "--json").stdout)
    roles = [(m["role"], m["speaker"]) for m in shown["messages"]]
    assert roles == [("user", None), ("assistant", "omni"), ("tool", "omni"), ("assistant", "omni")]
    text = foya(home, "sessions", "show", session_id).stdout
    assert "[Omni] The note says" in text and "read_file" in text
    server.script(Reply(text="Second answer."))
    again = foya(home, "run", "--session", session_id, "and again?")
    assert again.returncode == 0 and "Second answer." in again.stdout


def test_run_json_emits_one_object_per_event(home: Path, server: FakeProviderServer) -> None:
    add_fake(home, server, kind="anthropic")
    server.script(Reply(text="hello json", reasoning="thinking..."))
    run = foya(home, "run", "--json", "hi")
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    types = [e["type"] for e in events]
    assert "TurnStarted" in types and "PartDelta" in types and "TurnFinished" in types
    assert events[-1] == {"type": "Result", "session_id": events[0]["session_id"], "status": "completed", "error": ""}


def test_run_failure_exits_nonzero_with_one_line(home: Path, server: FakeProviderServer) -> None:
    add_fake(home, server)
    server.script(Reply(fault=Fault.status(401)))
    run = foya(home, "run", "hi")
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("foya: error:") and "key" in last.lower()


def test_run_without_window_denies_asks(home: Path, server: FakeProviderServer, tmp_path: Path) -> None:
    add_fake(home, server)
    proj = tmp_path / "p"
    proj.mkdir()
    server.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "x.txt", "content": "x"})]),
                  Reply(text="I was not allowed."))
    run = foya(home, "run", "--project", str(proj), "--approval", "ask", "write x")
    assert not (proj / "x.txt").exists()
    assert "no window" in foya(home, "sessions", "show", run.stderr.split("Session ", 1)[1].split()[0]).stdout
    server.script(Reply(tool_calls=[ToolCallSpec("write_file", {"path": "x.txt", "content": "x"})]),
                  Reply(text="Written."))
    ok = foya(home, "run", "--project", str(proj), "--approval", "auto_edit", "write x")
    assert ok.returncode == 0 and (proj / "x.txt").read_text() == "x"


def test_nothing_written_outside_foya_home(home: Path, server: FakeProviderServer, tmp_path: Path) -> None:
    add_fake(home, server)
    server.script(Reply(text="ok"))
    fake_home = tmp_path / "user-home"
    fake_home.mkdir()
    run = foya(home, "run", "hi", env={"HOME": str(fake_home), "XDG_DATA_HOME": str(fake_home / "data"),
                                       "XDG_CONFIG_HOME": str(fake_home / "config"),
                                       "XDG_CACHE_HOME": str(fake_home / "cache")})
    assert run.returncode == 0, run.stderr
    assert list(fake_home.rglob("*")) == []
    assert (home / "foya.sqlite3").exists()
