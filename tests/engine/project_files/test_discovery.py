"""Rules, skills and agent definitions found in a fixture repository (F07, Y06)."""

from __future__ import annotations

import os
from pathlib import Path

from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.catalog import ProjectFiles, context_prompt
from foya_desktop.engine.project_files.locations import folders_down, locations
from foya_desktop.engine.project_files.rules import load_rules

KNOWN = {"read_file", "write_file", "edit_file", "glob", "grep", "list_dir", "run_command",
         "task_output", "spawn_agent"}


def test_folders_from_root_down_to_workdir(repo: Path) -> None:
    assert folders_down(str(repo), str(repo / "pkg" / "app")) == [repo, repo / "pkg", repo / "pkg" / "app"]
    assert folders_down(str(repo / "pkg"), str(repo / "docs")) == [repo / "docs"]  # outside: workdir only
    assert folders_down("", "") == []


def test_rules_user_then_root_down_claude_md_only_without_agents_md(repo: Path, user_dir: Path) -> None:
    """Y06: the workdir is the root of project instructions; F07: project-level rules."""
    ctx = ProjectFiles().load_sync(user_dir, str(repo), str(repo / "pkg" / "app"), KNOWN)
    assert [Path(f.path) for f in ctx.rules.files] == [
        user_dir / "AGENTS.md", repo / "AGENTS.md", repo / "pkg" / "CLAUDE.md", repo / "pkg" / "app" / "AGENTS.md"]
    assert [f.scope for f in ctx.rules.files] == ["user", "project", "project", "project"]
    text = ctx.rules.text
    assert text.index("Answer in English") < text.index("make check") < text.index("type hints") \
        < text.index("tabs, not spaces")
    assert "IGNORED" not in text and "NOT IN EFFECT" not in text and not ctx.rules.truncated


def test_rules_over_budget_are_cut_with_a_note(repo: Path, user_dir: Path) -> None:
    where = locations(user_dir, str(repo), str(repo / "pkg" / "app"))
    rules = load_rules(where, TextCache(), budget=120)
    assert rules.truncated and sum(f.sent_chars for f in rules.files) == 120
    assert "truncated to the budget of 120 characters" in rules.text
    assert rules.files[-1].sent_chars == 0 and rules.files[-1].truncated


def test_rules_are_reread_when_they_change(repo: Path, user_dir: Path) -> None:
    files = ProjectFiles()
    first = files.load_sync(user_dir, str(repo), str(repo), KNOWN)
    assert "make check" in first.rules.text
    rules = repo / "AGENTS.md"
    rules.write_text("Always answer in haiku.\n")
    st = rules.stat()
    os.utime(rules, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    second = files.load_sync(user_dir, str(repo), str(repo), KNOWN)
    assert "haiku" in second.rules.text and "make check" not in second.rules.text


def test_skills_load_despite_malformed_neighbours(repo: Path, user_dir: Path) -> None:
    """A broken SKILL.md is reported by path with a reason; the others load."""
    user_skill = user_dir / "skills" / "greeting"
    user_skill.mkdir(parents=True)
    (user_skill / "SKILL.md").write_text("---\nname: greeting\ndescription: Greet people warmly.\n---\nSay hi.\n")
    ctx = ProjectFiles().load_sync(user_dir, str(repo), str(repo), KNOWN)
    assert [(s.name, s.scope) for s in ctx.skills] == [
        ("greeting", "user"), ("pdf-forms", "project"), ("py-style", "project"), ("release-notes", "project")]
    pdf = ctx.skill("PDF-forms")
    assert pdf is not None and pdf.description.startswith("Fill PDF forms. Use when: the user mentions")
    problems = {Path(p.path).parent.name: p.reason for p in ctx.problems if p.kind == "skill"}
    assert set(problems) == {"broken-unclosed", "no-description"}
    assert "no closing ---" in problems["broken-unclosed"] and "no description" in problems["no-description"]


def test_agent_definitions_map_tools_and_report_broken_files(repo: Path, user_dir: Path) -> None:
    ctx = ProjectFiles().load_sync(user_dir, str(repo), str(repo), KNOWN)
    assert [a.name for a in ctx.agents] == ["code-reviewer", "planner"]
    reviewer = ctx.agent("@code-reviewer")
    assert reviewer is not None
    assert reviewer.tools == ("read_file", "grep", "glob", "run_command") and reviewer.unknown_tools == ("WebFetch",)
    assert reviewer.max_turns == 7 and reviewer.model == "haiku"
    vp = reviewer.to_vp()
    assert vp.model_hint == "fast" and vp.max_steps == 7 and vp.soul.startswith("You are a senior code reviewer")
    planner = ctx.agent("planner")
    assert planner is not None and planner.tools == ("read_file", "list_dir")
    assert planner.description == "Plans work in small steps and writes the plan down."
    reasons = {Path(p.path).name: p.reason for p in ctx.problems if p.kind == "agent"}
    assert set(reasons) == {"bad-turns.md", "garbage.md", "code-reviewer.md"}
    assert "maxTurns is a whole number" in reasons["bad-turns.md"]
    assert "not 'key: value'" in reasons["garbage.md"] and "WebFetch" in reasons["code-reviewer.md"]


def test_prompt_section_lists_skills_and_agents_but_not_their_bodies(repo: Path, user_dir: Path) -> None:
    ctx = ProjectFiles().load_sync(user_dir, str(repo), str(repo), KNOWN)
    prompt = context_prompt(ctx)
    assert "- pdf-forms: Fill PDF forms." in prompt and "scripts/fill.py" not in prompt
    assert "- code-reviewer: Expert code review" in prompt and "senior code reviewer" not in prompt
    assert "Sub-agent definitions" not in context_prompt(ctx, subagent=True)


def test_unreadable_rules_file_is_a_problem_not_a_crash(repo: Path, user_dir: Path) -> None:
    (repo / "AGENTS.md").write_bytes(b"\xff\xfe not utf-8 \xff")
    ctx = ProjectFiles().load_sync(user_dir, str(repo), str(repo), KNOWN)
    assert [(p.kind, p.reason) for p in ctx.problems if p.kind == "rules"] == [("rules", "it is not UTF-8 text")]
    assert [Path(f.path) for f in ctx.rules.files] == [user_dir / "AGENTS.md"]
