"""``foya vps …`` and ``foya sessions set --roster`` through the real entry point (a subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_edit_remove_and_roster_flags(home: Path, server: FakeProviderServer) -> None:
    """Bad input gets a sentence; `sessions set --roster/--default-vp`; remove refused unless --force."""
    add_fake(home, server)
    assert foya(home, "vps", "add", "Linus", "--soul", "You implement.").returncode == 0
    assert foya(home, "vps", "add", "Martin", "--soul", "You review.").returncode == 0
    bad = foya(home, "vps", "add", "Two Words", "--soul", "x")
    assert bad.returncode == 1 and "one word" in bad.stderr and "Traceback" not in bad.stderr
    nosoul = foya(home, "vps", "add", "Solo")
    assert nosoul.returncode == 2 and "--soul" in nosoul.stderr
    edited = foya(home, "vps", "edit", "linus", "--rename", "Linux", "--tools", "read_file")
    assert edited.returncode == 0, edited.stderr
    assert foya(home, "vps", "duplicate", "Linux", "Linus").returncode == 0
    server.script(Reply(text="hello"))
    run = foya(home, "run", "hi")
    assert run.returncode == 0, run.stderr
    sid = run.stderr.split("Session ", 1)[1].split()[0]

    out = foya(home, "sessions", "set", sid, "--roster", "Linux,@Martin", "--default-vp", "Martin", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"session_id": sid, "roster": ["Linux", "Martin"], "default_vp": "Martin"}
    bad_default = foya(home, "sessions", "set", sid, "--default-vp", "Linus")
    assert bad_default.returncode == 1 and "not in the roster" in bad_default.stderr
    unknown = foya(home, "sessions", "set", sid, "--roster", "Ghost")
    assert unknown.returncode == 1 and "foya vps add" in unknown.stderr
    refused = foya(home, "vps", "remove", "Martin")
    assert refused.returncode == 1 and sid in refused.stderr and "--force" in refused.stderr
    forced = foya(home, "vps", "remove", "Martin", "--force")
    assert forced.returncode == 0 and sid in forced.stdout
    shown = json.loads(foya(home, "sessions", "set", sid, "--roster", "Linux", "--json").stdout)
    assert shown["roster"] == ["Linux"] and shown["default_vp"] == "Linux"
    omni = foya(home, "vps", "remove", "omni")
    assert omni.returncode == 1 and "built in" in omni.stderr
