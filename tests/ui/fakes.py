"""A hand-written in-memory kernel for UI tests (fakes over mocks).

It implements the ``KernelApi`` the UI codes against, publishes the same
events the real kernel does, and records every call so a test can assert
"the queue widget asked to move item X to index 0".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from foya_desktop.core.errors import NotFound
from foya_desktop.core.events import (
    ApprovalRequested,
    ApprovalResolved,
    Event,
    MessageAdded,
    PhaseChanged,
    QuestionAnswered,
    QuestionAsked,
    QueueChanged,
    QueueItem,
    SessionChanged,
    TaskChanged,
    TaskRecord,
)
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import VP, ApprovalMode, Connection, Phase, Project, Session
from foya_desktop.engine.bus import EventBus
from foya_desktop.store.search import SearchHit


@dataclass(frozen=True)
class Receipt:
    """Same shape as the engine's SendReceipt."""

    message_id: str | None
    queue_item_id: str | None


@dataclass
class FakeKernel:
    """Sessions, history, queues and connections in dictionaries."""

    bus: EventBus = field(default_factory=EventBus)
    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    sessions: dict[str, Session] = field(default_factory=dict)
    projects: dict[str, Project] = field(default_factory=dict)
    vps: list[VP] = field(default_factory=list)
    history: dict[str, list[Message]] = field(default_factory=dict)
    connections: dict[str, Connection] = field(default_factory=dict)
    phases: dict[str, Phase] = field(default_factory=dict)
    queues: dict[str, list[QueueItem]] = field(default_factory=dict)
    paused: set[str] = field(default_factory=set)
    artifacts: dict[str, bytes] = field(default_factory=dict)
    problem: str | None = None
    page_calls: list[tuple[str, int | None, int]] = field(default_factory=list)
    approvals: list[ApprovalRequested] = field(default_factory=list)
    questions: list[QuestionAsked] = field(default_factory=list)
    tasks: dict[str, TaskRecord] = field(default_factory=dict)
    _seq: int = 0

    # ---- test setup -----------------------------------------------------------------------

    def publish(self, event: Event) -> None:
        """Publish as the engine would (after "commit")."""
        self.bus.publish(event)

    def add_messages(self, session_id: str, messages: Sequence[Message], *, publish: bool = False) -> list[Message]:
        """Store messages with increasing seq numbers (optionally announcing them)."""
        stored = []
        for message in messages:
            self._seq += 1
            m = dataclasses.replace(message, session_id=session_id, seq=self._seq,
                                    created_at=message.created_at or now_ms())
            self.history.setdefault(session_id, []).append(m)
            stored.append(m)
            if publish:
                self.publish(MessageAdded(session_id, m))
        return stored

    def set_phase(self, session_id: str, phase: Phase) -> None:
        """Move a session to a phase and announce it."""
        self.phases[session_id] = phase
        self.publish(PhaseChanged(session_id, str(phase)))

    def _record(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))

    def _queue_changed(self, session_id: str) -> None:
        self.publish(QueueChanged(session_id, tuple(self.queues.get(session_id, []))))

    # ---- KernelApi --------------------------------------------------------------------------

    async def create_session(self, *, title: str = "", workdir: str | None = None, roster: Sequence[str] = (),
                             default_vp: str | None = None, connection: str = "", model: str = "",
                             approval_mode: ApprovalMode = ApprovalMode.ASK) -> Session:
        self._record("create_session", title, workdir, tuple(roster), default_vp)
        project = await self.add_project(workdir) if workdir else None
        roster = tuple(roster) or ("omni",)
        session = Session(id=new_id("ses"), title=title or "New session", project_id=project.id if project else None,
                          workdir=workdir or "", roster=roster, default_vp=default_vp or roster[0],
                          connection=connection, model=model, approval_mode=approval_mode,
                          created_at=now_ms(), updated_at=now_ms())
        self.sessions[session.id] = session
        self.publish(SessionChanged(session.id, session))
        return session

    async def list_sessions(self) -> list[Session]:
        return list(self.sessions.values())

    async def get_session(self, session_id: str) -> Session:
        if session_id not in self.sessions:
            raise NotFound(session_id)
        return self.sessions[session_id]

    async def update_session(self, session_id: str, **changes: Any) -> Session:
        self._record("update_session", session_id, changes)
        session = dataclasses.replace(self.sessions[session_id], **changes, updated_at=now_ms())
        self.sessions[session_id] = session
        self.publish(SessionChanged(session_id, session))
        return session

    async def list_projects(self) -> list[Project]:
        return list(self.projects.values())

    async def add_project(self, path: str, name: str = "") -> Project:
        for project in self.projects.values():
            if project.path == path:
                return project
        project = Project(id=new_id("prj"), name=name or path.rstrip("/").rsplit("/", 1)[-1], path=path)
        self.projects[project.id] = project
        return project

    async def bind_project(self, session_id: str, project_id: str) -> Session:
        self._record("bind_project", session_id, project_id)
        return await self.update_session(session_id, project_id=project_id,
                                         workdir=self.projects[project_id].path)

    async def rename_project(self, project_id: str, name: str) -> Project:
        self.projects[project_id] = dataclasses.replace(self.projects[project_id], name=name)
        return self.projects[project_id]

    async def set_project_instruction(self, project_id: str, instruction: str) -> Project:
        self.projects[project_id] = dataclasses.replace(self.projects[project_id], instruction=instruction)
        return self.projects[project_id]

    async def project_sessions(self, project_id: str) -> list[str]:
        return [s.id for s in self.sessions.values() if s.project_id == project_id]

    async def delete_project(self, project_id: str) -> list[str]:
        self._record("delete_project", project_id)
        gone = await self.project_sessions(project_id)
        self.projects.pop(project_id)
        return gone

    async def relink_project(self, project_id: str, path: str) -> Project:
        self.projects[project_id] = dataclasses.replace(self.projects[project_id], path=path)
        return self.projects[project_id]

    async def missing_projects(self) -> list[str]:
        return []

    async def search(self, text: str, *, project_id: str | None = None, session_id: str | None = None,
                     speaker: str | None = None, since_ms: int | None = None, until_ms: int | None = None,
                     limit: int = 50) -> list[SearchHit]:
        self._record("search", text)
        return []

    async def find_in_session(self, session_id: str, text: str, speaker: str | None = None) -> list[str]:
        return []

    async def message_seq(self, message_id: str) -> int:
        raise NotFound(f"No message {message_id}.")

    async def list_vps(self) -> list[VP]:
        return list(self.vps)

    async def message_count(self, session_id: str) -> int:
        return len(self.history.get(session_id, []))

    async def history_page(self, session_id: str, *, before_seq: int | None = None,
                           limit: int = 200) -> list[Message]:
        self.page_calls.append((session_id, before_seq, limit))
        messages = [m for m in self.history.get(session_id, []) if before_seq is None or m.seq < before_seq]
        return messages[-limit:]

    async def read_artifact(self, sha: str) -> bytes:
        return self.artifacts[sha]

    async def send(self, session_id: str, text: str, *,
                   attachments: Sequence[tuple[str, bytes]] = ()) -> Receipt:
        self._record("send", session_id, text, tuple(attachments))
        if self.phases.get(session_id, Phase.IDLE) != Phase.IDLE:
            item = QueueItem(new_id("que"), text, now_ms())
            self.queues.setdefault(session_id, []).append(item)
            self._queue_changed(session_id)
            return Receipt(None, item.id)
        (message,) = self.add_messages(session_id, [Message("", session_id, "user", (TextPart(text),))],
                                       publish=False)
        message = dataclasses.replace(message, id=new_id("msg"))
        self.history[session_id][-1] = message
        self.publish(MessageAdded(session_id, message))
        return Receipt(message.id, None)

    def phase(self, session_id: str) -> Phase:
        return self.phases.get(session_id, Phase.IDLE)

    async def fork(self, session_id: str, *, from_turn: str | None = None) -> Session:
        self._record("fork", session_id, from_turn)
        src = self.sessions[session_id]
        return await self.create_session(title=f"{src.title} (fork)", workdir=src.workdir or None,
                                         roster=src.roster, default_vp=src.default_vp)

    def fork_in_progress(self, session_id: str) -> bool:
        return False

    def queue(self, session_id: str) -> tuple[QueueItem, ...]:
        return tuple(self.queues.get(session_id, []))

    def queue_move(self, session_id: str, item_id: str, index: int) -> None:
        self._record("queue_move", session_id, item_id, index)
        items = self.queues[session_id]
        item = next(i for i in items if i.id == item_id)
        items.remove(item)
        items.insert(index, item)
        self._queue_changed(session_id)

    def queue_edit(self, session_id: str, item_id: str, text: str) -> None:
        self._record("queue_edit", session_id, item_id, text)
        self.queues[session_id] = [dataclasses.replace(i, text=text) if i.id == item_id else i
                                   for i in self.queues[session_id]]
        self._queue_changed(session_id)

    def queue_remove(self, session_id: str, item_id: str) -> None:
        self._record("queue_remove", session_id, item_id)
        self.queues[session_id] = [i for i in self.queues[session_id] if i.id != item_id]
        self._queue_changed(session_id)

    def queue_paused(self, session_id: str) -> bool:
        return session_id in self.paused

    def resume_queue(self, session_id: str) -> None:
        self._record("resume_queue", session_id)
        self.paused.discard(session_id)

    async def stop(self, session_id: str, *, keep_queue: bool = True) -> None:
        self._record("stop", session_id, keep_queue)
        if not keep_queue:
            self.queues.pop(session_id, None)
        if self.phase(session_id) != Phase.IDLE:
            self.set_phase(session_id, Phase.IDLE)

    async def interrupt(self, session_id: str, dispatch_item_id: str) -> None:
        self._record("interrupt", session_id, dispatch_item_id)

    async def list_connections(self) -> list[Connection]:
        return list(self.connections.values())

    async def add_connection(self, conn: Connection, api_key: str | None = None) -> None:
        self._record("add_connection", conn, api_key)
        self.connections[conn.name] = conn

    async def remove_connection(self, name: str) -> None:
        self._record("remove_connection", name)
        self.connections.pop(name, None)

    def set_interactive(self, interactive: bool) -> None:
        self._record("set_interactive", interactive)

    def answer_approval(self, request_id: str, kind: str, feedback: str = "") -> bool:
        self._record("answer_approval", request_id, kind, feedback)
        found = [a for a in self.approvals if a.request_id == request_id]
        for request in found:
            self.approvals.remove(request)
            self.publish(ApprovalResolved(request.session_id, request_id, kind))
        return bool(found)

    def pending_approvals(self, session_id: str) -> list[ApprovalRequested]:
        return [a for a in self.approvals if a.session_id == session_id]

    async def answer_question(self, question_id: str, answer: str) -> str:
        self._record("answer_question", question_id, answer)
        found = [q for q in self.questions if q.question_id == question_id]
        for question in found:
            self.questions.remove(question)
            self.publish(QuestionAnswered(question.session_id, question_id, answer))
        return "accepted" if found else "expired"

    def pending_questions(self, session_id: str) -> list[QuestionAsked]:
        return [q for q in self.questions if q.session_id == session_id]

    def ask(self, event: ApprovalRequested | QuestionAsked) -> None:
        """Test setup: a turn waits for the person."""
        if isinstance(event, ApprovalRequested):
            self.approvals.append(event)
        else:
            self.questions.append(event)
        self.publish(event)

    def put_task(self, record: TaskRecord) -> None:
        """Test setup: a task record was created or changed (published like the engine does)."""
        self.tasks[record.id] = record
        self.publish(TaskChanged(record.session_id, record))

    async def list_tasks(self, session_id: str) -> list[TaskRecord]:
        return sorted((t for t in self.tasks.values() if t.session_id == session_id),
                      key=lambda t: t.created_at, reverse=True)

    async def inspect_task(self, session_id: str, task_id: str) -> TaskRecord:
        self._record("inspect_task", session_id, task_id)
        return self.tasks[task_id]

    async def cancel_task(self, session_id: str, task_id: str) -> TaskRecord:
        self._record("cancel_task", session_id, task_id)
        record = dataclasses.replace(self.tasks[task_id], state="cancelled")
        self.put_task(record)
        return record

    async def checkpoints(self, session_id: str) -> list[Any]:
        """No compaction in the fake: the real kernel's tests cover markers (test_session_ops)."""
        return []

    def keyring_problem(self) -> str | None:
        return self.problem

    async def close(self) -> None:
        self._record("close")

    def called(self, name: str) -> list[tuple[Any, ...]]:
        """Arguments of every call to ``name``, in order."""
        return [args for n, args in self.calls if n == name]
