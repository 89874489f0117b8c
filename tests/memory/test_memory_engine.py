"""Scoped memory on the real kernel and real SQLite, the ``memory`` tool over the HTTP fake provider
(Yeaft "Memory 边界"; SEED-CHECKLIST Y18, Y60)."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import ApprovalRequested, MemoryChanged
from foya_desktop.core.memory import PERSON, MemoryScope
from foya_desktop.core.model import VP, ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.memory.context import MEMORY_BUDGET_CHARS, MEMORY_HEADING, memory_text
from foya_desktop.engine.memory.tool import saved_entry
from foya_desktop.engine.permissions.policy import decide
from foya_desktop.store.ops_delete import leftover_rows
from foya_desktop.tools.base import Action
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_for, wait_turns
from tests.lifecycle.conftest import KernelBox


def _save(scope: str, text: str, cid: str) -> ToolCallSpec:
    return ToolCallSpec("memory", {"action": "save", "scope": scope, "text": text}, id=cid)


async def _turn(kernel: Kernel, rec: Recorder, sid: str, text: str, n: int) -> None:
    await kernel.turns.send(sid, text)
    done = await wait_turns(rec, sid, n)
    assert done[-1].status == "completed", done[-1].error


def _last_system(fake: FakeProviderServer) -> str:
    return system_prompt(fake.requests[-1].body)


async def test_a_vp_saves_in_its_scopes_and_each_vp_sees_only_its_own_view(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Y60: user + own VP + own session-VP + session scope; never another VP's scopes; authorship kept."""
    await kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    await kernel.vps.add_vp(VP("", "Martin", "", "You review."))
    s = await kernel.sessions.create_session(title="pair", roster=["Linus", "Martin"], default_vp="Linus")
    await kernel.memory.add_memory(MemoryScope.USER, "The person writes British English.")
    fake.script(Reply(tool_calls=[_save("session", "The API is v2.", "c1"), _save("vp", "Linus tests first.", "c2"),
                                  _save("session-vp", "Linus owns parser.py here.", "c3")]),
                Reply(text="noted"))
    await _turn(kernel, rec, s.id, "remember things", 1)
    saved = await kernel.memory.list_memory(session_id=None)
    mine = {e.text: e for e in saved}
    assert mine["The API is v2."].scope == MemoryScope.SESSION and mine["The API is v2."].session_id == s.id
    assert mine["Linus tests first."].scope == MemoryScope.VP and mine["Linus tests first."].session_id is None
    assert all(mine[t].author == "linus" and mine[t].source_session_id == s.id
               for t in ("The API is v2.", "Linus tests first.", "Linus owns parser.py here."))
    assert mine["The person writes British English."].author == PERSON
    changes = [e for e in rec.events if isinstance(e, MemoryChanged) and e.change == "saved" and e.author == "linus"]
    assert len(changes) == 3
    results = [m.tool_result for m in await kernel.history.messages(s.id) if m.role == "tool"]
    assert all(r is not None and saved_entry(r.content) is not None for r in results)

    fake.script(Reply(text="linus again"))
    await _turn(kernel, rec, s.id, "next", 2)
    linus_view = _last_system(fake)
    for text in ("British English", "The API is v2.", "Linus tests first.", "Linus owns parser.py here."):
        assert text in linus_view
    await kernel.sessions.update_session(s.id, default_vp="Martin")
    fake.script(Reply(text="martin here"))
    await _turn(kernel, rec, s.id, "review please", 3)
    martin_view = _last_system(fake)
    assert "The API is v2." in martin_view and "British English" in martin_view
    assert "Linus tests first." not in martin_view and "parser.py" not in martin_view
    assert [e.text for e in await kernel.memory.memory_view(s.id, "Martin")] == [
        "The person writes British English.", "The API is v2."]
    other = await kernel.sessions.create_session(title="elsewhere", roster=["Linus"])
    assert {e.text for e in await kernel.memory.memory_view(other.id, "Linus")} == {
        "The person writes British English.", "Linus tests first."}


async def test_user_scope_asks_the_person_in_every_mode_and_is_refused_without_a_window(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """A VP writes the person's own memory only with the person's approval (docs/window/memory.md "Memory"); while the
    session may change nothing (read-only, plan mode) every memory write asks."""
    for mode in ApprovalMode:
        user = decide(Action(kind="memory", summary="x", command="user"), mode, project, set())
        session = decide(Action(kind="memory", summary="x", command="session"), mode, project, set())
        if mode == ApprovalMode.READ_ONLY:
            assert (user.decision, user.code) == (session.decision, session.code) == ("ask", "memory_read_only")
        else:
            assert (user.decision, user.code) == ("ask", "memory_user_scope")
            assert session.decision == "allow"
        for command in ("user", "vp", "session", "forget"):
            planned = decide(Action(kind="memory", summary="x", command=command), mode, project, set(),
                             planning=True)
            assert planned.decision == "ask" and planned.code in ("memory_read_only", "memory_plan_mode")
    s = await kernel.sessions.create_session(title="prefs", workdir=str(project), approval_mode=ApprovalMode.AUTO)
    fake.script(Reply(tool_calls=[_save("user", "Prefers tabs.", "u1")]), Reply(text="could not"))
    await _turn(kernel, rec, s.id, "remember I like tabs", 1)
    assert await kernel.memory.list_memory(MemoryScope.USER) == []
    result = next(m.tool_result for m in await kernel.history.messages(s.id) if m.role == "tool")
    assert result is not None and result.is_error and "needs approval" in result.content
    assert "foya memory add" in result.content and "--approval" not in result.content

    kernel.asks.set_interactive(True)
    fake.script(Reply(tool_calls=[_save("user", "Prefers tabs.", "u2")]), Reply(text="saved"))
    await kernel.turns.send(s.id, "again, I like tabs")
    await wait_for(lambda: any(isinstance(e, ApprovalRequested) for e in rec.events))
    asked = next(e for e in rec.events if isinstance(e, ApprovalRequested))
    assert asked.reason_code == "memory_user_scope" and asked.tool == "memory"
    assert kernel.asks.answer_approval(asked.request_id, "once")
    done = await wait_turns(rec, s.id, 2)
    assert done[-1].status == "completed"
    [entry] = await kernel.memory.list_memory(MemoryScope.USER)
    assert (entry.text, entry.author, entry.source_session_id) == ("Prefers tabs.", "omni", s.id)


async def test_a_vp_forgets_its_own_entries_but_not_the_persons_or_another_vps(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Forget works within the caller's view; user-scope entries are the person's to remove."""
    await kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    s = await kernel.sessions.create_session(title="f")
    own = await kernel.memory.add_memory(MemoryScope.SESSION, "stale fact", session_id=s.id)
    pref = await kernel.memory.add_memory(MemoryScope.USER, "Prefers tea.")
    theirs = await kernel.memory.add_memory(MemoryScope.VP, "Linus's secret", vp="Linus")
    fake.script(Reply(tool_calls=[ToolCallSpec("memory", {"action": "forget", "id": own.id}, id="f1"),
                                  ToolCallSpec("memory", {"action": "forget", "id": pref.id}, id="f2"),
                                  ToolCallSpec("memory", {"action": "forget", "id": theirs.id}, id="f3"),
                                  ToolCallSpec("memory", {"action": "list"}, id="f4")]),
                Reply(text="cleaned"))
    await _turn(kernel, rec, s.id, "clean up", 1)
    assert {e.id for e in await kernel.memory.list_memory()} == {pref.id, theirs.id}
    results = {m.tool_result.call_id: m.tool_result for m in await kernel.history.messages(s.id)
               if m.role == "tool" and m.tool_result is not None}
    assert not results["f1"].is_error and results["f2"].is_error and results["f3"].is_error
    assert "Prefers tea." in results["f4"].content and "Linus's secret" not in results["f4"].content


async def test_memory_survives_a_restart_and_deleting_a_session_keeps_user_and_vp_memory(box: KernelBox) -> None:
    """Entries keep who wrote them across restarts; a deleted session takes its session(-VP) memory."""
    kernel = box.kernel
    await kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    s = await kernel.sessions.create_session(title="doomed", roster=["Linus"])
    for scope in MemoryScope:
        await kernel.memory.add_memory(scope, f"{scope} fact", vp="Linus", session_id=s.id)
    kernel = await box.restart()
    entries = {e.scope: e for e in await kernel.memory.list_memory()}
    assert set(entries) == set(MemoryScope)
    assert all(e.source_session_id == s.id and e.author == PERSON and e.created_at > 0 for e in entries.values())
    await kernel.lifecycle.delete_session(s.id)
    assert {e.scope for e in await kernel.memory.list_memory()} == {MemoryScope.USER, MemoryScope.VP}
    assert leftover_rows(s.id) == {}


async def test_fork_merge_and_branch_never_copy_session_memory(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """Y18: session and session-VP memory stay with their session through fork, branch and merge."""
    a = await kernel.sessions.create_session(title="A")
    fake.script(Reply(text="one"), Reply(text="two"))
    await _turn(kernel, rec, a.id, "first", 1)
    await kernel.memory.add_memory(MemoryScope.SESSION, "A's shared fact", session_id=a.id)
    await kernel.memory.add_memory(MemoryScope.SESSION_VP, "A's omni note", vp="omni", session_id=a.id)
    await kernel.memory.add_memory(MemoryScope.USER, "lasting preference")
    b = await kernel.sessions.create_session(title="B")
    await _turn(kernel, rec, b.id, "second", 1)
    await kernel.memory.add_memory(MemoryScope.SESSION, "B's shared fact", session_id=b.id)
    reply = next(m for m in await kernel.history.messages(a.id) if m.role == "assistant")
    fork = await kernel.lifecycle.fork(a.id)
    branch = await kernel.lifecycle.branch(a.id, reply.id)
    merged = await kernel.lifecycle.merge(a.id, b.id)
    for copy in (fork, branch, merged):
        assert await kernel.memory.list_memory(MemoryScope.SESSION, session_id=copy.id) == []
        assert await kernel.memory.list_memory(MemoryScope.SESSION_VP, session_id=copy.id) == []
        assert [e.text for e in await kernel.memory.memory_view(copy.id, "omni")] == ["lasting preference"]
    assert len(await kernel.memory.list_memory(session_id=a.id)) == 2


async def test_memory_in_the_request_stays_within_its_budget_with_a_note(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    """The stated budget (README): over it, the newest entries win and a note says what was left out."""
    s = await kernel.sessions.create_session(title="full")
    for i in range(120):
        await kernel.memory.add_memory(MemoryScope.SESSION, f"fact number {i:03d} " + "x" * 80, session_id=s.id)
    fake.script(Reply(text="ok"))
    await _turn(kernel, rec, s.id, "hi", 1)
    system = _last_system(fake)
    section = system[system.index(MEMORY_HEADING):]
    section = section[:section.index("more memory entries not shown")]
    assert len(section) <= MEMORY_BUDGET_CHARS
    assert "fact number 119" in system and "fact number 000" not in system
    assert memory_text([]) == ""


async def test_the_person_gets_clear_sentences_for_bad_memory_input(kernel: Kernel) -> None:
    """Missing owners, unknown VPs/sessions/ids and empty text are refused in words."""
    with pytest.raises(InvalidOperation, match="belongs to one VP"):
        await kernel.memory.add_memory(MemoryScope.VP, "x")
    with pytest.raises(InvalidOperation, match="belongs to one session"):
        await kernel.memory.add_memory(MemoryScope.SESSION, "x")
    with pytest.raises(InvalidOperation, match="Unknown VP"):
        await kernel.memory.add_memory(MemoryScope.VP, "x", vp="Nobody")
    with pytest.raises(InvalidOperation, match="needs some text"):
        await kernel.memory.add_memory(MemoryScope.USER, "   ")
    with pytest.raises(Exception, match="no memory entry"):
        await kernel.memory.remove_memory("mem_missing")
