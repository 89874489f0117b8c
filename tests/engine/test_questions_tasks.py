"""AskUser questions, background task records and command change tracking."""

from __future__ import annotations

import os
from pathlib import Path

from foya_desktop.core.events import QuestionAnswered, QuestionAsked, QuestionClosed, TaskChanged
from foya_desktop.core.model import ApprovalMode
from foya_desktop.core.records import TaskRecord
from foya_desktop.engine.asks.questions import AnswerStatus
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.home import Home
from foya_desktop.store.schema import FileChangeRow
from foya_desktop.store.tasks import insert_task
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns


def ask(question: str, choices: list[str] | None = None) -> Reply:
    args: dict[str, object] = {"question": question}
    if choices:
        args["choices"] = choices
    return Reply(tool_calls=[ToolCallSpec("ask_user", args)])


async def test_answer_is_accepted_once_and_resend_only_confirms(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    kernel.asks.set_interactive(True)
    fake.script(ask("Which database?", ["SQLite", "Postgres"]), Reply(text="SQLite it is."))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "set up storage")
    await wait_for(lambda: bool(rec.of(QuestionAsked)))
    q = rec.of(QuestionAsked)[0]
    assert q.choices == ("SQLite", "Postgres")  # type: ignore[attr-defined]
    assert q.turn_id and q.call_id  # type: ignore[attr-defined]
    assert kernel.asks.pending_questions(s.id) == [q]
    assert await kernel.asks.answer_question(q.question_id, "SQLite") == AnswerStatus.ACCEPTED  # type: ignore[attr-defined]
    assert await kernel.asks.answer_question(q.question_id, "Postgres") == AnswerStatus.ALREADY_ANSWERED  # type: ignore[attr-defined]
    await wait_turns(rec, s.id, 1)
    answered = rec.of(QuestionAnswered)
    assert len(answered) == 2 and {a.answer for a in answered} == {"SQLite"}  # type: ignore[attr-defined]
    events = await kernel.store.events(s.id)
    assert [p["answer"] for _, t, p in events if t == "question_answered"] == ["SQLite"]
    tool_msg = fake.requests[1].body["messages"][-1]
    assert "SQLite" in tool_msg["content"] and "Postgres" not in tool_msg["content"]


async def test_cancelled_question_cannot_be_answered(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    kernel.asks.set_interactive(True)
    fake.script(ask("Proceed?"))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "go")
    await wait_for(lambda: bool(rec.of(QuestionAsked)))
    q = rec.of(QuestionAsked)[0]
    await kernel.turns.stop(s.id)
    assert [c.reason for c in rec.of(QuestionClosed)] == ["cancelled"]  # type: ignore[attr-defined]
    assert await kernel.asks.answer_question(q.question_id, "yes") == AnswerStatus.EXPIRED  # type: ignore[attr-defined]
    assert kernel.asks.pending_questions(s.id) == []


async def test_expired_question_tells_the_model_nothing_was_answered(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    kernel.asks.set_interactive(True)
    kernel.svc.questions.ttl_s = 0.2
    fake.script(ask("Proceed?"), Reply(text="I will wait for you."))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "go")
    await wait_turns(rec, s.id, 1)
    assert [c.reason for c in rec.of(QuestionClosed)] == ["expired"]  # type: ignore[attr-defined]
    tool_msg = fake.requests[1].body["messages"][-1]
    assert "not answered" in tool_msg["content"]


async def test_headless_question_is_not_invented(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(ask("Proceed?"), Reply(text="Assuming no."))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "go")
    await wait_turns(rec, s.id, 1)
    assert rec.of(QuestionAsked) == []
    assert "Nobody can answer" in fake.requests[1].body["messages"][-1]["content"] or \
        "nobody can answer" in fake.requests[1].body["messages"][-1]["content"]


async def test_background_task_lifecycle(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                         project: Path) -> None:
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    fake.script(Reply(tool_calls=[ToolCallSpec("run_background", {"command": "echo started; sleep 30"})]),
                Reply(text="started it"))
    await kernel.turns.send(s.id, "start the server")
    await wait_turns(rec, s.id, 1)
    (task,) = await kernel.tasks.list_tasks(s.id)
    assert task.state == "running" and task.kind == "shell"
    await wait_for(lambda: "started" in (kernel.svc.tasks._live(task).output_tail))
    cancelled = await kernel.tasks.cancel_task(s.id, task.id)
    assert cancelled.state == "cancelled"
    fake.script(Reply(tool_calls=[ToolCallSpec("task_result", {"task_id": task.id})]), Reply(text="ok"))
    await kernel.turns.send(s.id, "collect it")
    await wait_turns(rec, s.id, 2)
    (after,) = await kernel.tasks.list_tasks(s.id)
    assert after.consumed and "started" in after.output_tail
    assert any(isinstance(e, TaskChanged) for e in rec.events)


async def test_running_task_is_marked_lost_after_restart(home: Home, project: Path) -> None:
    kernel = build_kernel(home)
    s = await kernel.sessions.create_session(workdir=str(project))
    # what a crashed process leaves behind: a record still saying "running"
    await kernel.store.write(insert_task, TaskRecord("task_x", s.id, "shell", "sleep 30", "running"))
    await kernel.close()
    again = build_kernel(home)
    (lost,) = await again.tasks.list_tasks(s.id)
    assert lost.state == "lost"
    await again.close()


async def test_files_changed_by_commands_are_listed(kernel: Kernel, fake: FakeProviderServer,
                                                    rec: Recorder, project: Path) -> None:
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO)
    fake.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": "echo x > made.txt && rm src/app.py"})]),
                Reply(tool_calls=[ToolCallSpec("write_file", {"path": "tool.txt", "content": "t"})]),
                Reply(text="done"))
    await kernel.turns.send(s.id, "go")
    await wait_turns(rec, s.id, 1)
    rows = await kernel.store.read(lambda: [(r.path, r.kind, r.before_sha, r.after_sha)
                                            for r in FileChangeRow.select().order_by(FileChangeRow.id)])
    assert ("made.txt", "command", None, None) in rows and ("src/app.py", "command", None, None) in rows
    tool_rows = [r for r in rows if r[1] == "tool"]
    assert len(tool_rows) == 1 and tool_rows[0][0] == "tool.txt" and tool_rows[0][2] is None and tool_rows[0][3]


async def test_jobs_killed_because_the_app_quits_are_cancelled_not_failed(home: Home, project: Path) -> None:
    """Issue 14: a background job stopped by quitting is recorded ``cancelled``."""
    kernel = build_kernel(home)
    s = await kernel.sessions.create_session(workdir=str(project))
    job = await kernel.svc.tasks.start_shell(s.id, "sleep 30", project, dict(os.environ))
    await kernel.close()
    again = build_kernel(home)
    (record,) = await again.tasks.list_tasks(s.id)
    assert record.id == job.id and record.state == "cancelled"
    await again.close()
