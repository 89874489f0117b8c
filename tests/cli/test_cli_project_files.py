"""``foya projects info`` and the rules line of ``foya sessions status`` on a fixture repository (F07, Y06)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from foya_desktop.engine.bootstrap import open_kernel
from foya_desktop.store.home import Home
from tests.cli.inproc import Foya

FIXTURE = Path(__file__).parents[1] / "fixtures" / "project_files" / "repo"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    target = tmp_path / "repo"
    shutil.copytree(FIXTURE, target)
    return target


def test_projects_info_lists_what_loaded_and_what_failed(home: Home, repo: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    foya = Foya(capsys)
    code, out, err = foya("projects", "info", str(repo), "--json")
    assert code == 0, err
    info = json.loads(out)
    assert [Path(r["path"]).relative_to(repo).as_posix() for r in info["rules"]["files"]] == ["AGENTS.md"]
    assert [s["name"] for s in info["skills"]] == ["pdf-forms", "py-style", "release-notes"]
    assert [a["name"] for a in info["agents"]] == ["code-reviewer", "planner"]
    assert info["agents"][0]["tools"] == ["read_file", "grep", "glob", "run_command"]
    assert [(m["name"], m["transport"]) for m in info["mcp_servers"]] == [
        ("files", "stdio"), ("docs", "http"), ("broken", "stdio")]
    failed = {(p["kind"], Path(p["path"]).name if p["path"] else "") for p in info["problems"]}
    assert failed == {("skill", "SKILL.md"), ("agent", "bad-turns.md"), ("agent", "code-reviewer.md"),
                      ("agent", "garbage.md"), ("mcp", ".mcp.json")}
    assert len([p for p in info["problems"] if p["kind"] == "skill"]) == 2
    code, text, _ = foya("projects", "info", str(repo))
    assert code == 0 and "Failed to load:" in text and "maxTurns is a whole number, not 'lots'" in text
    assert "broken-unclosed/SKILL.md: the frontmatter starts with --- but has no closing --- line" in text


def test_projects_info_on_a_missing_folder_is_a_sentence(home: Home, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = Foya(capsys)("projects", "info", str(tmp_path / "nope"))
    assert code != 0 and "is not a folder" in err and "Traceback" not in err


def test_sessions_status_shows_the_rules_in_effect(home: Home, repo: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    foya = Foya(capsys)
    home.root.mkdir(parents=True, exist_ok=True)
    (home.root / "AGENTS.md").write_text("user rules\n")

    async def make() -> str:
        kernel = await open_kernel(home.root)
        try:
            return (await kernel.sessions.create_session(workdir=str(repo / "pkg"))).id
        finally:
            await kernel.close()
    session_id = asyncio.run(make())
    code, out, err = foya("sessions", "status", session_id)
    assert code == 0, err
    assert "Rules in effect:" in out and str(home.root / "AGENTS.md") in out
    assert str(repo / "pkg" / "CLAUDE.md") in out
    code, out, err = foya("sessions", "status", session_id, "--json")
    rules = json.loads(out)["rules"]
    assert [f["scope"] for f in rules["files"]] == ["user", "project"] and rules["truncated"] is False


def test_agent_file_added_to_the_library_joins_a_roster(home: Home, repo: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    foya = Foya(capsys)
    code, out, err = foya("vps", "add-agent", "code-reviewer", "--from", str(repo))
    assert code == 0, err
    assert "Added VP code-reviewer" in out
    code, out, _ = foya("vps", "list", "--json")
    vp = next(v for v in json.loads(out) if v["name"] == "code-reviewer")
    assert vp["tools"] == ["read_file", "grep", "glob", "run_command"] and vp["model_hint"] == "fast"
    assert vp["soul"].startswith("You are a senior code reviewer")

    async def roster() -> tuple[str, ...]:
        kernel = await open_kernel(home.root)
        try:
            s = await kernel.sessions.create_session(workdir=str(repo))
            return (await kernel.sessions.update_session(s.id, roster=("omni", "code-reviewer"))).roster
        finally:
            await kernel.close()
    assert asyncio.run(roster()) == ("omni", "code-reviewer")
    code, _, err = foya("vps", "add-agent", "nobody", "--from", str(repo))
    assert code != 0 and "No agent definition named 'nobody'" in err and "code-reviewer, planner" in err
