"""``foya sessions export`` / ``import`` through the real entry point (in-process ``main``, a real data dir)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply


def test_export_md_json_and_import_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    foya = Foya(capsys)
    with FakeProviderServer() as server:
        assert foya("connections", "add", "fake", "--kind", "openai", "--base-url", server.base_url,
                    "--model", "fake-model")[0] == 0
        server.script(Reply(text="answer one"))
        code, _out, err = foya("run", "question one")
        assert code == 0, err
    sid = err.split("Session ", 1)[1].split()[0]
    code, md, err = foya("sessions", "export", sid)
    assert code == 0 and "### You · " in md and "answer one" in md
    assert "Warning: This export contains tool output" in err and "may contain secrets" in err
    out = tmp_path / "s.json"
    code, _, err = foya("sessions", "export", sid, "--format", "json", "--out", str(out))
    assert code == 0 and f"to {out}" in err and stat.S_IMODE(out.stat().st_mode) == 0o600
    code, text, err = foya("sessions", "import", str(out))
    assert code == 0, err
    new_id = text.split("as session ", 1)[1].split(":")[0]
    shown = json.loads(foya("sessions", "show", new_id, "--json")[1])
    assert ["".join(p.get("text", "") for p in m["parts"]) for m in shown["messages"]] == [
        "question one", "answer one"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "foya-session", "version": 2}')
    before = foya("sessions", "list", "--json")[1]
    code, _, err = foya("sessions", "import", str(bad))
    assert code != 0 and "export version 2; this Foya reads version 1. Nothing was imported." in err
    assert "Traceback" not in err and foya("sessions", "list", "--json")[1] == before
    code, _, err = foya("sessions", "import", str(tmp_path / "missing.json"))
    assert code != 0 and "there is no such file" in err


def _crafted(folder: str, title: str) -> dict[str, object]:
    return {"format": "foya-session", "version": 1,
            "session": {"id": "ses_x", "title": title, "approval_mode": "auto", "roster": ["omni"]},
            "project": {"name": "p", "path": folder}, "messages": [], "attachments": {}}


def test_import_prints_what_the_file_says_escaped_on_its_own_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A title (and a folder) with terminal escapes and a newline were printed raw: the escape retitled
    the terminal and the newline printed a line of the file's choosing."""
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    foya = Foya(capsys)
    crafted = tmp_path / "crafted.json"
    crafted.write_text(json.dumps(_crafted("/srv/x\nNote: bound to /srv/x in auto mode\x1b[2K",
                                           "Notes\x1b]0;pwned\x07\nNote: nothing to check\x1b[1A")))
    code, out, err = foya("sessions", "import", str(crafted))
    assert code == 0, err
    assert not any(c in out for c in "\x1b\x07\r"), out
    lines = out.splitlines()
    assert lines[0].endswith(": Notes\\x1b]0;pwned\\x07 Note: nothing to check\\x1b[1A"), lines[0]
    assert [ln.split(":", 1)[0].split(" ", 1)[0] for ln in lines] == [
        "Imported", "Bound", "Note", "Note", "To"], lines
    assert "'/srv/x\\nNote: bound to /srv/x in auto mode\\x1b[2K'" in lines[2]


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


@pytest.mark.parametrize(("content", "reason"), [
    ("[" * 200_000 + "]" * 200_000, "its JSON is nested more than 64 levels deep"),
    (json.dumps({**_crafted("", "t"), "session": {"title": "t", "created_at": "yesterday"}}),
     "'created_at' in the session is not a time ('yesterday'"),
    (json.dumps({**_crafted("", "t"), "messages": [{"role": "user", "status": "complete", "created_at": "today",
                                                    "parts": [{"kind": "text", "text": "hi"}]}]}),
     "'created_at' in message 1 is not a time ('today'"),
    (json.dumps({**_crafted("", "t"), "messages": [{"role": "user", "status": "complete", "parts": [7]}]}),
     "part 1 of message 1 is a whole number, not an object"),
    (b"\xff\xfe{}", "it is not UTF-8 text"),
    (None, "it is 200.0 MB and an export may be at most 64 MB"),
])
def test_malformed_input_is_one_sentence_exit_2_and_nothing_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        content: str | bytes | None, reason: str) -> None:
    """These were "internal error" (exit 70), an import of a message whose time is text, or a 200 MB
    file read whole into memory."""
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    foya = Foya(capsys)
    bad = tmp_path / "bad.json"
    if content is None:
        _sparse(bad, 200 * 2**20)
    elif isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content)
    before = foya("sessions", "list", "--json")[1]
    code, out, err = foya("sessions", "import", str(bad))
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("foya: error: Cannot import ") and reason in err, err
    assert err.rstrip().endswith("Nothing was imported.") and out == ""
    assert foya("sessions", "list", "--json")[1] == before
