"""``foya vps …`` and ``foya sessions set --roster`` through the real entry point (a subprocess)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from foya_desktop.engine.bootstrap import open_kernel
from tests.cli.inproc import Foya
from tests.cli.test_cli import add_fake, foya, home, server
from tests.fakeprovider import FakeProviderServer, Reply

__all__ = ["home", "server"]


def test_readme_flow_add_a_vp_then_run_with_it(home: Path, server: FakeProviderServer, tmp_path: Path) -> None:
    """The README example `foya run --vp Linus` works after `foya vps add Linus …` (Y07, Y27)."""
    add_fake(home, server)
    soul = tmp_path / "martin.md"
    soul.write_text("You review diffs.\n", encoding="utf-8")
    added = foya(home, "vps", "add", "Linus", "--soul", "You implement.", "--model-hint", "fast",
                 "--tools", "read_file,grep")
    assert added.returncode == 0, added.stderr
    assert "@Linus" in added.stdout
    assert foya(home, "vps", "add", "Martin", "--soul-file", str(soul)).returncode == 0
    listed = json.loads(foya(home, "vps", "list", "--json").stdout)
    assert [(v["id"], v["model_hint"], v["tools"], v["builtin"]) for v in listed] == [
        ("omni", "primary", [], True), ("linus", "fast", ["read_file", "grep"], False),
        ("martin", "primary", [], False)]
    assert listed[2]["soul"] == "You review diffs."
    server.script(Reply(text="Implemented."), Reply(text="Reviewed."))
    run = foya(home, "run", "--vp", "Linus", "--vp", "Martin", "@Linus @Martin implement and review")
    assert run.returncode == 0, run.stderr
    assert "Implemented." in run.stdout and "Reviewed." in run.stdout
    session_id = run.stderr.split("Session ", 1)[1].split()[0]
    shown = json.loads(foya(home, "sessions", "show", session_id, "--json").stdout)
    assert {m["speaker"] for m in shown["messages"] if m["role"] == "assistant"} == {"linus", "martin"}


def test_edit_remove_and_roster_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input gets a sentence; `sessions set --roster/--default-vp`; remove refused unless --force."""
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    foya_ = Foya(capsys)
    assert foya_("vps", "add", "Linus", "--soul", "You implement.")[0] == 0
    assert foya_("vps", "add", "Martin", "--soul", "You review.")[0] == 0
    code, _out, err = foya_("vps", "add", "Two Words", "--soul", "x")
    assert code == 1 and "one word" in err and "Traceback" not in err
    code, _out, err = foya_("vps", "add", "Solo")
    assert code == 2 and "--soul" in err
    assert foya_("vps", "edit", "linus", "--rename", "Linux", "--tools", "read_file")[0] == 0
    assert foya_("vps", "duplicate", "Linux", "Linus")[0] == 0
    sid = _new_session()

    code, out, err = foya_("sessions", "set", sid, "--roster", "Linux,@Martin", "--default-vp", "Martin", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert {k: got[k] for k in ("session_id", "roster", "default_vp")} == {
        "session_id": sid, "roster": ["Linux", "Martin"], "default_vp": "Martin"}
    code, _out, err = foya_("sessions", "set", sid, "--default-vp", "Linus")
    assert code == 1 and "not in the roster" in err
    code, _out, err = foya_("sessions", "set", sid, "--roster", "Ghost")
    assert code == 1 and "foya vps add" in err
    code, _out, err = foya_("vps", "remove", "Martin")
    assert code == 1 and sid in err and "--force" in err
    code, out, _err = foya_("vps", "remove", "Martin", "--force")
    assert code == 0 and sid in out
    code, out, _err = foya_("sessions", "set", sid, "--roster", "Linux", "--json")
    assert json.loads(out)["roster"] == ["Linux"] and json.loads(out)["default_vp"] == "Linux"
    code, _out, err = foya_("vps", "remove", "omni")
    assert code == 1 and "built in" in err


def _new_session() -> str:
    """A session made by a kernel on the same FOYA_HOME (closed again before the CLI runs)."""
    async def make() -> str:
        kernel = await open_kernel()
        try:
            return (await kernel.sessions.create_session(title="pair")).id
        finally:
            await kernel.close()
    return asyncio.run(make())
