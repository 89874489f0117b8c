"""Rules, skills, agent files and the ``skill`` tool read through the confined reader (docs/mcp-and-project-files.md "Rules,
skills and agent files"): what leads out of the project is refused and reported, what stays inside
still loads, and a cached text is never served for a file that became a link out."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pytest

from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.catalog import ProjectContext, ProjectFiles
from foya_desktop.engine.project_files.locations import locations
from foya_desktop.engine.project_files.problems import Problem
from foya_desktop.engine.project_files.rules import load_rules
from foya_desktop.engine.project_files.session_files import rules_and_refusals
from foya_desktop.engine.project_files.skill_tool import SkillTool
from foya_desktop.tools.base import ToolContext

KNOWN = {"read_file", "grep"}
SKILL = "---\nname: {name}\ndescription: {description}\n---\n{body}\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    (folder / "stolen").mkdir(parents=True)
    (folder / "secret.txt").write_text("OUTSIDE-SECRET\n")
    (folder / "stolen" / "SKILL.md").write_text(SKILL.format(name="stolen", description="OUTSIDE", body="x"))
    return folder


def _reasons(problems: Iterable[Problem]) -> dict[str, str]:
    return {p.path: p.reason for p in problems}


def test_a_refused_rules_file_is_reported_and_not_replaced(repo: Path, user_dir: Path, outside: Path) -> None:
    (repo / "AGENTS.md").unlink()
    (repo / "AGENTS.md").symlink_to(outside / "secret.txt")  # the root's CLAUDE.md must not stand in
    (repo / "pkg" / "AGENTS.md").symlink_to("CLAUDE.md")  # a link inside the project is fine
    os.link(outside / "secret.txt", repo / "pkg" / "app" / "hard.md")
    (repo / "pkg" / "app" / "AGENTS.md").unlink()
    (repo / "pkg" / "app" / "AGENTS.md").symlink_to("hard.md")
    rules = load_rules(locations(user_dir, str(repo), str(repo / "pkg" / "app")), TextCache())
    assert "OUTSIDE-SECRET" not in rules.text and "IGNORED" not in rules.text and "type hints" in rules.text
    reasons = _reasons(rules.problems)
    assert "symbolic link leaving the project" in reasons[str(repo / "AGENTS.md")]
    assert "hard link" in reasons[str(repo / "pkg" / "app" / "AGENTS.md")]
    assert [Path(f.path) for f in rules.files] == [user_dir / "AGENTS.md", repo / "pkg" / "AGENTS.md"]


def test_the_cache_never_serves_a_file_that_became_a_link_out(repo: Path, user_dir: Path,
                                                             outside: Path) -> None:
    files = ProjectFiles()
    assert "make check" in files.load_sync(user_dir, str(repo), str(repo), KNOWN).rules.text
    rules = repo / "AGENTS.md"
    st = rules.stat()
    rules.unlink()
    rules.symlink_to(outside / "secret.txt")
    os.utime(outside / "secret.txt", ns=(st.st_atime_ns, st.st_mtime_ns))
    again = files.load_sync(user_dir, str(repo), str(repo), KNOWN)
    assert "make check" not in again.rules.text and "OUTSIDE-SECRET" not in again.rules.text
    assert any(p.refused and p.path == str(rules) for p in again.problems)


def test_skill_and_agent_folders_leading_out_are_refused(repo: Path, user_dir: Path, outside: Path) -> None:
    (repo / ".claude" / "skills" / "stolen").symlink_to(outside / "stolen")
    (repo / "docs" / ".agents").mkdir()
    (repo / "docs" / ".agents" / "skills").symlink_to(outside)
    (repo / "docs" / ".claude" / "agents").mkdir(parents=True)
    (repo / "docs" / ".claude" / "agents" / "leak.md").symlink_to(outside / "secret.txt")
    (repo / ".agents" / "skills" / "linked").symlink_to("../../.claude/skills/pdf-forms")
    ctx = ProjectFiles().load_sync(user_dir, str(repo), str(repo / "docs"), KNOWN)
    assert "stolen" not in [s.name for s in ctx.skills] and ctx.skill("pdf-forms") is not None
    reasons = _reasons(p for p in ctx.problems if p.refused)
    assert "symbolic link leaving" in reasons[str(repo / ".claude" / "skills" / "stolen")]
    assert "symbolic link leaving" in reasons[str(repo / "docs" / ".agents" / "skills")]
    assert "symbolic link leaving" in reasons[str(repo / "docs" / ".claude" / "agents" / "leak.md")]
    refusals = rules_and_refusals(user_dir, str(repo), str(repo / "docs"), None).other_refusals
    assert {p.kind for p in refusals} == {"skill", "agent"} and all(p.refused for p in refusals)


async def test_the_skill_tool_reads_only_the_skills_own_files(repo: Path, user_dir: Path,
                                                              outside: Path) -> None:
    """Project and user-level skills alike: the model names the file, so the skill's folder is the root."""
    pdf = repo / ".claude" / "skills" / "pdf-forms"
    (pdf / "leak.txt").symlink_to(outside / "secret.txt")
    os.link(outside / "secret.txt", pdf / "hard.txt")
    (pdf / "escape").symlink_to(outside)
    mine = user_dir / "skills" / "mine"
    mine.mkdir(parents=True)
    (mine / "SKILL.md").write_text(SKILL.format(name="mine", description="Mine.", body="my body"))
    (mine / "notes.txt").write_text("my notes\n")
    (mine / "leak.txt").symlink_to(outside / "secret.txt")
    files = ProjectFiles()

    async def locate(session_id: str) -> ProjectContext:
        return files.load_sync(user_dir, str(repo), str(repo), KNOWN)
    tool = SkillTool(locate)
    ctx = ToolContext(session_id="s", workdir=repo, data_dir=user_dir)
    listing = await tool.run({"name": "pdf-forms"}, ctx)
    assert "- scripts/fill.py" in listing.content and "stolen" not in listing.content
    assert "escape/" not in listing.content
    for name, rel, word in (("pdf-forms", "leak.txt", "symbolic link leaving the skill's folder"),
                            ("pdf-forms", "hard.txt", "hard link"),
                            ("pdf-forms", "escape/secret.txt", "symbolic link leaving the skill's folder"),
                            ("pdf-forms", "../pdf-forms/../../../AGENTS.md", "outside the skill's folder"),
                            ("mine", "leak.txt", "symbolic link leaving the skill's folder")):
        out = await tool.run({"name": name, "file": rel}, ctx)
        assert out.is_error and word in out.content and "OUTSIDE-SECRET" not in out.content, (rel, out)
    assert (await tool.run({"name": "mine", "file": "notes.txt"}, ctx)).content == "my notes\n"
    assert "my body" in (await tool.run({"name": "mine"}, ctx)).content


def test_a_dotfiles_repository_around_home_does_not_widen_the_project(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "notes.md").write_text("HOME-SECRET\n")
    proj = home / "proj"
    proj.mkdir()
    (proj / "AGENTS.md").symlink_to("../.ssh/notes.md")
    monkeypatch.setenv("HOME", str(home))
    where = locations(tmp_path / "data", str(proj), str(proj))
    assert where.folders == (proj,)
    rules = load_rules(where, TextCache())
    assert "HOME-SECRET" not in rules.text and rules.problems[0].refused
