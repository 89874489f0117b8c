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
