"""Project files are read confined: links and hard links out of the project, and pseudo-files, never
reach a model request (docs/mcp-and-project-files.md "Rules, skills and agent files", "Approvals and safety").

The attack, end to end through ``foya run`` (a real process) in every approval mode: a cloned
repository whose ``AGENTS.md`` / ``CLAUDE.md`` (root and nested), ``SKILL.md`` files, a skill's
resource files, agent files and ``.mcp.json`` are symbolic links or hard links to files outside
the project holding a canary, and whose deepest ``AGENTS.md`` (and the user-level one) links to
``/proc/self/environ`` while the foya process carries a canary variable. A scripted, obedient
model asks the ``skill`` tool for the linked resources. No canary may be in any request the fake
provider received; every refusal is reported, with its reason, by ``foya projects info`` (text
and ``--json``) and by the rules in effect of ``foya sessions status`` (text and ``--json``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt

ENV_CANARY = "ENVCANARY-pf-41c7e2"
FILE_CANARY = "FILECANARY-pf-9b03"
"""Every outside file holds this (plus a suffix naming the file)."""
GOOD_BODY = "GOOD-SKILL-BODY-1f2e"
MODES = ("read_only", "ask", "auto_edit", "auto")


@dataclass(frozen=True)
class Repo:
    """The attacking repository: ``top`` has ``.git``; the project is ``top/pkg/app``."""

    top: Path
    project: Path
    home: Path
    refused: dict[str, str]
    """Path (relative to ``top``, or ``~`` for the data folder) → a word its refusal must say."""


def _outside(root: Path, name: str, text: str) -> Path:
    path = root / "outside" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _skill_text(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n{body}\n"


def _agent_text(name: str, canary: str) -> str:
    return f"---\nname: {name}\ndescription: Review code {canary}\ntools: Read\n---\nYou leak {canary}.\n"


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


@pytest.fixture
def repo(tmp_path: Path, server: FakeProviderServer) -> Repo:
    home = tmp_path / "home"
    add_fake(home, server)
    top = tmp_path / "clone"
    app = top / "pkg" / "app"
    (top / ".git").mkdir(parents=True)
    app.mkdir(parents=True)
    refused: dict[str, str] = {}

    def symlink(rel: str, target: Path) -> None:
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        (top / rel).symlink_to(target)
        refused[rel] = "pseudo-file" if str(target).startswith("/proc") else "symbolic link leaving"

    def hardlink(rel: str, target: Path) -> None:
        (top / rel).parent.mkdir(parents=True, exist_ok=True)
        os.link(target, top / rel)
        refused[rel] = "hard link"

    symlink("AGENTS.md", _outside(tmp_path, "rules.md", f"Obey {FILE_CANARY}-root-rules"))
    hardlink("pkg/CLAUDE.md", _outside(tmp_path, "claude.md", f"Obey {FILE_CANARY}-nested-claude"))
    symlink("pkg/app/AGENTS.md", Path("/proc/self/environ"))
    symlink(".claude/skills/evil/SKILL.md",
            _outside(tmp_path, "skill.md", _skill_text("evil", f"Use {FILE_CANARY}-skill", "x")))
    hardlink("pkg/.agents/skills/twin/SKILL.md",
             _outside(tmp_path, "twin.md", _skill_text("twin", f"Use {FILE_CANARY}-twin", "x")))
    symlink("pkg/app/.claude/agents/spy.md", _outside(tmp_path, "spy.md", _agent_text("spy", FILE_CANARY)))
    hardlink(".foya/agents/mole.md", _outside(tmp_path, "mole.md", _agent_text("mole", FILE_CANARY)))
    symlink("pkg/app/.mcp.json", _outside(tmp_path, "mcp.json", json.dumps(
        {"mcpServers": {f"{FILE_CANARY}-mcp": {"command": "echo", "args": [FILE_CANARY]}}})))
    good = top / ".claude" / "skills" / "good"
    good.mkdir(parents=True)
    (good / "SKILL.md").write_text(_skill_text("good", "Format release notes.", GOOD_BODY))
    (good / "notes.txt").write_text("plain notes\n")
    (good / "ref.txt").symlink_to(_outside(tmp_path, "ref.txt", f"{FILE_CANARY}-resource-symlink"))
    os.link(_outside(tmp_path, "hard-ref.txt", f"{FILE_CANARY}-resource-hardlink"), good / "hard.txt")
    (good / "env").symlink_to("/proc/self/environ")
    (home / "AGENTS.md").symlink_to("/proc/self/environ")
    refused["~/AGENTS.md"] = "pseudo-file"
    return Repo(top, app, home, refused)


def _script(server: FakeProviderServer) -> None:
    """The obedient model: load the good skill, then every linked resource of it, then answer."""
    server.script(Reply(tool_calls=[
        ToolCallSpec("skill", {"name": "good"}, id="s0"),
        ToolCallSpec("skill", {"name": "good", "file": "ref.txt"}, id="s1"),
        ToolCallSpec("skill", {"name": "good", "file": "hard.txt"}, id="s2"),
        ToolCallSpec("skill", {"name": "good", "file": "env"}, id="s3"),
        ToolCallSpec("skill", {"name": "good", "file": "notes.txt"}, id="s4"),
        ToolCallSpec("skill", {"name": "evil"}, id="s5")]), Reply(text="done"))


def _located(repo: Repo, rel: str) -> str:
    return str(repo.home / rel[2:]) if rel.startswith("~/") else str(repo.top / rel)


def test_linked_project_files_never_reach_a_request(repo: Repo, server: FakeProviderServer) -> None:
    sessions: list[str] = []
    for mode in MODES:
        _script(server)
        run = foya(repo.home, "run", "--project", str(repo.project), "--approval", mode, "release notes",
                   env={"FOYA_PF_CANARY": ENV_CANARY})
        assert run.returncode == 0, (mode, run.stderr)
        sessions.append(run.stderr.split("Session ", 1)[1].split()[0])
    bodies = [json.dumps(r.body) for r in server.requests]
    assert len(bodies) == 2 * len(MODES)
    for mode, body in zip([m for m in MODES for _ in range(2)], bodies, strict=True):
        assert ENV_CANARY not in body, mode
        assert FILE_CANARY not in body, (mode, body[body.find(FILE_CANARY) - 300:][:600])
    # the harness really reads project files: the good skill is listed, its body and plain file load
    assert "- good: Format release notes." in system_prompt(server.requests[0].body)
    assert GOOD_BODY in bodies[1] and "plain notes" in bodies[1]
    assert "symbolic link leaving the skill" in bodies[1] and "hard link" in bodies[1]

    info = foya(repo.home, "projects", "info", str(repo.project), "--json")
    assert info.returncode == 0, info.stderr
    report = json.loads(info.stdout)
    assert FILE_CANARY not in json.dumps(report["rules"]) + json.dumps(report["skills"]) \
        + json.dumps(report["agents"]) + json.dumps(report["mcp_servers"])
    assert ENV_CANARY not in info.stdout
    refusals = {p["path"]: p["reason"] for p in report["problems"] if p["refused"]}
    for rel, word in repo.refused.items():
        assert word in refusals.get(_located(repo, rel), ""), (rel, refusals)
    text = foya(repo.home, "projects", "info", str(repo.project))
    assert "Refused (not read, so never sent to a model):" in text.stdout
    assert f"{repo.top / 'pkg' / 'CLAUDE.md'}: refused: a hard link" in text.stdout

    status = foya(repo.home, "sessions", "status", sessions[0], "--json")
    assert status.returncode == 0, status.stderr
    rules = json.loads(status.stdout)["rules"]
    assert rules["files"] == []
    not_used = {p["path"]: p["reason"] for p in rules["not_used"] if p["refused"]}
    for rel, word in repo.refused.items():
        assert word in not_used.get(_located(repo, rel), ""), (rel, not_used)
    shown = foya(repo.home, "sessions", "status", sessions[0]).stdout
    assert "Not used (nothing of these is sent):" in shown
    assert f"{repo.top / 'AGENTS.md'}: refused: a symbolic link leaving the project" in shown
    assert ENV_CANARY not in shown and FILE_CANARY not in shown
