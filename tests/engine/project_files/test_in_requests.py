"""Rules, skills and agent files in real model requests (real kernel, SQLite, fake provider). F07, Y06, F42."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.history import valid_messages
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_turns


def _tool_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools", [])]


def _touch(path: Path, text: str) -> None:
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))


async def test_rules_reach_the_model_and_refresh_between_requests(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, repo: Path, home: Home) -> None:
    (repo / ".git").mkdir()
    (home.root / "AGENTS.md").write_text("User rule: sign replies with -- F.\n")
    fake.script(Reply(text="one"), Reply(text="two"))
    s = await kernel.sessions.create_session(workdir=str(repo / "pkg" / "app"))
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    first = system_prompt(fake.requests[0].body)
    assert "User rule: sign replies" in first and "make check" in first and "type hints" in first
    assert "tabs, not spaces" in first and "IGNORED" not in first
    assert "- pdf-forms: Fill PDF forms." in first and "skill" in _tool_names(fake.requests[0].body)
    _touch(repo / "pkg" / "app" / "AGENTS.md", "The app folder now uses spaces.\n")
    await kernel.turns.send(s.id, "again")
    await wait_turns(rec, s.id, 2)
    second = system_prompt(fake.requests[1].body)
    assert "now uses spaces" in second and "tabs, not spaces" not in second


async def test_no_skills_no_skill_tool(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                       project: Path) -> None:
    fake.script(Reply(text="ok"))
    s = await kernel.sessions.create_session(workdir=str(project))
    await kernel.turns.send(s.id, "hi")
    await wait_turns(rec, s.id, 1)
    body = fake.requests[0].body
    assert "skill" not in _tool_names(body) and "Skills (call" not in system_prompt(body)


async def test_skill_tool_loads_the_body_and_stays_in_the_skill_folder(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, repo: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("skill", {"name": "pdf-forms"}, id="c1"),
                                  ToolCallSpec("skill", {"name": "pdf-forms", "file": "scripts/fill.py"}, id="c2"),
                                  ToolCallSpec("skill", {"name": "pdf-forms", "file": "../../agents/code-reviewer.md"},
                                               id="c3"),
                                  ToolCallSpec("skill", {"name": "broken-unclosed"}, id="c4")]),
                Reply(text="done"))
    s = await kernel.sessions.create_session(workdir=str(repo), approval_mode=ApprovalMode.READ_ONLY)
    await kernel.turns.send(s.id, "fill the form")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed", done.error
    results = {m.tool_result.call_id: m.tool_result for m in await kernel.store.read(valid_messages, s.id)
               if m.tool_result is not None}
    assert not results["c1"].is_error and "# Filling PDF forms" in results["c1"].content
    assert "- scripts/fill.py" in results["c1"].content and "allowed-tools" not in results["c1"].content
    assert results["c2"].content == 'print("filling")\n'
    assert results["c3"].is_error and "outside the skill's folder" in results["c3"].content
    assert results["c4"].is_error and "No skill named 'broken-unclosed'" in results["c4"].content


async def test_agent_file_starts_a_subagent_with_a_snapshot(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, repo: Path) -> None:
    """F42: the child runs from an immutable snapshot of the agent file's definition — once the
    person added the repository's file to the VP library (docs/mcp-and-project-files.md "Rules, skills and agent files")."""
    await kernel.files.add_agent_vp(str(repo), "code-reviewer")
    def respond(body: dict[str, Any]) -> Reply:
        prompt = system_prompt(body)
        if "senior code reviewer" in prompt:
            return Reply(text="two problems found")
        if body["messages"][-1]["role"] == "tool":
            return Reply(text="reviewed")
        return Reply(tool_calls=[ToolCallSpec("spawn_agent", {"task": "review the diff",
                                                              "agent": "code-reviewer"}, id="sp1")])
    fake.responder = respond
    s = await kernel.sessions.create_session(workdir=str(repo), approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.turns.send(s.id, "get it reviewed")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed", done.error
    (child,) = [c for c in await kernel.sessions.list_sessions() if c.parent_id == s.id]
    snap: dict[str, Any] = child.child_snapshot
    assert snap["agent"]["name"] == "code-reviewer" and snap["max_turns"] == 7
    assert set(snap["tools"]) <= {"read_file", "grep", "glob", "run_command"} and "read_file" in snap["tools"]
    child_prompt = next(system_prompt(r.body) for r in fake.requests if "senior code reviewer" in system_prompt(r.body))
    assert "Sub-agent definitions" not in child_prompt
    _touch(repo / ".claude" / "agents" / "code-reviewer.md", "---\nname: code-reviewer\ndescription: x\n---\nNew.\n")
    again = await kernel.sessions.get_session(child.id)
    assert again.child_snapshot == snap
    result = next(m.tool_result for m in await kernel.store.read(valid_messages, s.id) if m.tool_result is not None)
    assert result is not None and "two problems found" in result.content
