"""The command line as people use it, through the real ``foya`` entry point (issue 14)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Reply


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    return env


def _refused(out: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert out.returncode == code, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr
    return out.stderr


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


@pytest.fixture
def bound(tmp_path: Path, server: FakeProviderServer) -> tuple[Path, str, Path]:
    """A session bound to ``proj`` with the default roster: (home, session id, proj)."""
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(text="one"))
    run = foya(home, "run", "--project", str(proj), "hello")
    assert run.returncode == 0, run.stderr
    return home, run.stderr.split("Session ", 1)[1].split()[0], proj


def test_session_with_its_own_project_and_roster_is_accepted(bound: tuple[Path, str, Path],
                                                             server: FakeProviderServer, tmp_path: Path) -> None:
    home, sid, proj = bound
    server.script(Reply(text="two"))
    ok = foya(home, "run", "--session", sid, "--project", str(proj) + "/", "--vp", "Omni", "again")
    assert ok.returncode == 0 and "two" in ok.stdout, ok.stderr
    other = tmp_path / "other"
    other.mkdir()
    err = _refused(foya(home, "run", "--session", sid, "--project", str(other), "x"))
    assert f"is bound to {proj.resolve()}, not {other.resolve()}" in err
    err = _refused(foya(home, "run", "--session", sid, "--vp", "Linus", "x"))
    assert "has the roster Omni" in err


def test_prompts_empty_non_utf8_stdin_and_file(bound: tuple[Path, str, Path], server: FakeProviderServer,
                                               tmp_path: Path) -> None:
    home, sid, _ = bound
    for text in ("", "   \n\t "):
        assert "The message is empty" in _refused(foya(home, "run", "--session", sid, text))
    bad = subprocess.run([sys.executable, "-m", "foya_desktop", "run", "--session", sid, os.fsdecode(b"caf\xe9")],
                         capture_output=True, text=True, env=_env(home), timeout=60, check=False)
    assert "not valid UTF-8" in _refused(bad)
    assert "needs a message" in _refused(foya(home, "run", "--session", sid))
    big = "x" * 300_000 + " end"  # beyond what one OS argument can carry (128 kB)
    server.script(Reply(text="from stdin"))
    piped = subprocess.run([sys.executable, "-m", "foya_desktop", "run", "--session", sid, "-"], input=big.encode(),
                           capture_output=True, env=_env(home), timeout=120, check=False)
    assert piped.returncode == 0 and b"from stdin" in piped.stdout, piped.stderr
    assert server.requests[-1].body["messages"][-1]["content"].endswith(" end")
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_text("read from a file ✓", encoding="utf-8")
    server.script(Reply(text="from file"))
    filed = foya(home, "run", "--session", sid, "--prompt-file", str(prompt_file))
    assert filed.returncode == 0 and "from file" in filed.stdout, filed.stderr
    prompt_file.write_bytes(b"\xff\xfe bad")
    assert "is not valid UTF-8" in _refused(foya(home, "run", "--session", sid, "--prompt-file", str(prompt_file)))
    assert "Cannot read the prompt file" in _refused(foya(home, "run", "--prompt-file", str(tmp_path / "none")))
    piped_bad = subprocess.run([sys.executable, "-m", "foya_desktop", "run", "--session", sid, "-"],
                               input=b"caf\xe9 au lait", capture_output=True, env=_env(home), timeout=60, check=False)
    assert piped_bad.returncode == 2 and b"Traceback" not in piped_bad.stderr
    assert b"read from standard input is not valid UTF-8" in piped_bad.stderr


def test_an_empty_session_id_is_an_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    err = _refused(foya(home, "run", "--session", "", "hello"))
    assert "--session needs a session id" in err
    assert not (home / "foya.sqlite3").exists()  # refused before the database was even opened


@pytest.mark.parametrize(("url", "expected"), [
    ("http://127.0.0.1:99999/v1", "invalid port"),
    ("http://127.0.0.1:-1/v1", "invalid port"),
    ("http://127.0.0.1:0/v1", "invalid port"),
    ("http:///v1", "no host name"),
    ("ftp://example.com/v1", "must start with http"),
    ("https://user:sk-secret@api.example.com/v1", "OS keyring"),
    ("https://user:sk-secret@api.example.com:99999/v1", "OS keyring"),
    ("https://api.example.com/v1 ", "spaces or control"),
    ("https://api.example.com/v1?x=1", "query"),
])
def test_malformed_base_urls_are_refused_when_added(tmp_path: Path, url: str, expected: str) -> None:
    home = tmp_path / "home"
    err = _refused(foya(home, "connections", "add", "c", "--kind", "openai", "--base-url", url))
    assert expected in err
    assert "sk-secret" not in err
    assert foya(home, "connections", "list", "--json").stdout.strip() == "[]"


@pytest.mark.parametrize("name", ["bad\tname", "bad\nname", "esc\x1bape", " padded"])
def test_connection_names_with_control_characters_are_refused(tmp_path: Path, name: str) -> None:
    err = _refused(foya(tmp_path / "home", "connections", "add", name, "--kind", "openai",
                        "--base-url", "http://127.0.0.1:8080/v1"))
    assert "control characters" in err


@pytest.mark.parametrize("window", ["-5", "0"])
def test_a_negative_context_window_is_refused(tmp_path: Path, window: str) -> None:
    err = _refused(foya(tmp_path / "home", "connections", "add", "c", "--kind", "openai", "--base-url",
                        "http://127.0.0.1:8080/v1", "--context-window", window))
    assert "positive number of tokens" in err


@pytest.mark.parametrize(("url", "expected"), [
    ("http://127.0.0.1:99999/v1", "invalid port"),
    ("http:///v1", "no host name"),
    ("ftp://example.com/v1", "must start with http"),
    ("https://user:sk-secret@api.example.com/v1", "OS keyring"),
    ("https://user:sk-secret@api.example.com:99999/v1", "OS keyring"),
])
def test_a_stored_connection_with_a_bad_url_is_a_sentence_at_run_time(
        bound: tuple[Path, str, Path], server: FakeProviderServer, url: str, expected: str) -> None:
    """Issue 14: a base URL that got into the database without the add-time check (an older Foya,
    an edit by hand) ends the turn with a sentence naming the connection and how to fix it, before
    any request — not "internal error (ExceptionGroup …)" (port 99999) or three retries of a URL
    that cannot work."""
    home, sid, _ = bound
    con = sqlite3.connect(home / "foya.sqlite3")
    con.execute("UPDATE connection_row SET base_url = ?", (url,))
    con.commit()
    con.close()
    asked = len(server.requests)
    err = _refused(foya(home, "run", "--session", sid, "again"), code=1)
    assert "The connection 'fake' cannot be used: " in err and expected in err, err
    assert "foya connections add fake" in err and "internal error" not in err and "Retrying" not in err
    assert "sk-secret" not in err
    assert len(server.requests) == asked, "nothing was sent"


def test_a_reader_that_goes_away_ends_output_quietly(tmp_path: Path) -> None:
    """``foya vps list | head -0``: the pipe's reader is gone before anything is written. Foya stops
    with the shell's SIGPIPE status and says nothing (it said "internal error (BrokenPipeError…)")."""
    env = {**os.environ, "FOYA_HOME": str(tmp_path / "home"),
           "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    read, write = os.pipe()
    os.close(read)  # the reader has left before foya starts
    try:
        done = subprocess.run([sys.executable, "-m", "foya_desktop", "vps", "list"], stdout=write,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=60, check=False)
    finally:
        os.close(write)
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""
