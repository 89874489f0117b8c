"""``foya sessions fork`` through the real entry point (in-process ``main``, a real data dir)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply


def _texts(messages: list[dict[str, object]]) -> list[str]:
    return ["".join(str(p.get("text", "")) for p in m["parts"]) for m in messages]  # type: ignore[attr-defined]


def test_fork_whole_and_from_a_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Y15/Y20 from the CLI: the new id is printed (JSON: {"session_id": …})."""
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    foya = Foya(capsys)
    with FakeProviderServer() as server:
        assert foya("connections", "add", "fake", "--kind", "openai", "--base-url", server.base_url,
                    "--model", "fake-model")[0] == 0
        server.script(Reply(text="a1"), Reply(text="a2"))
        code, _out, err = foya("run", "q1")
        assert code == 0, err
        sid = err.split("Session ", 1)[1].split()[0]
        assert foya("run", "--session", sid, "q2")[0] == 0
    code, out, err = foya("sessions", "fork", sid, "--json")
    assert code == 0, err
    fork_id = json.loads(out)["session_id"]
    shown = json.loads(foya("sessions", "show", fork_id, "--json")[1])
    assert _texts(shown["messages"]) == ["q1", "a1", "q2", "a2"]
    source = json.loads(foya("sessions", "show", sid, "--json")[1])["messages"]
    code, out, err = foya("sessions", "fork", sid, "--from-turn", source[1]["id"])
    assert code == 0 and out.startswith(f"Forked {sid} into ses_"), err
    part_id = out.split(" into ", 1)[1].split()[0]
    assert _texts(json.loads(foya("sessions", "show", part_id, "--json")[1])["messages"]) == ["q1", "a1"]
    code, _out, err = foya("sessions", "fork", sid, "--from-turn", "msg_nope")
    assert code == 1 and "No message msg_nope" in err and "Traceback" not in err


def test_projects_set_instruction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Y57: one instruction per project, editable from the CLI by id, name or folder."""
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    folder = tmp_path / "demo"
    folder.mkdir()
    foya = Foya(capsys)
    import asyncio

    from foya_desktop.engine.bootstrap import open_kernel

    async def make() -> None:
        kernel = await open_kernel()
        try:
            await kernel.projects.add_project(str(folder))
        finally:
            await kernel.close()
    asyncio.run(make())
    code, out, err = foya("projects", "set", str(folder), "--instruction", "Answer in English; run tests.")
    assert code == 0 and "saved" in out, err
    listed = json.loads(foya("projects", "list", "--json")[1])
    assert [(p["name"], p["instruction"]) for p in listed] == [("demo", "Answer in English; run tests.")]
    code, _out, err = foya("projects", "set", "nope", "--instruction", "x")
    assert code == 1 and "No project 'nope'" in err
