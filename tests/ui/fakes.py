"""A hand-written in-memory kernel for UI tests (fakes over mocks).

It implements the ``KernelApi`` the UI codes against (``tests/typing_checks.py``
proves it statically), publishes the same events the real kernel does, and
records every call so a test can assert "the queue widget asked to move item X
to index 0".

Where it may be used (the audit of issue 7): only for tests of how the window
*renders* a given engine state — scripted events (streams, approval and
question cards, checkpoints, tasks), the timeline model and delegate, screenshots
of set-up states — and for wiring checks of the bridge. Every *flow*, where the
kernel's rules decide the outcome (sending, queueing, stop/interrupt, quit,
approvals answered, branch/rewind/delete/compact, fork/merge, projects,
connections and keys, settings), runs on the real kernel with the HTTP fake
model: ``test_end_to_end``, ``test_queue_and_quit_flows``, ``test_approvals``
(second half), ``test_first_run``, ``test_session_ops``, ``test_picker_flows``,
``test_projects``, ``test_fork_ui``, ``test_session_settings`` and the rest use
``real_window``. A new flow test on this fake is a review finding.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.events import (
    ApprovalRequested,
    ApprovalResolved,
    CompactionCheckpoint,
    Event,
    HistoryRewound,
    MessageAdded,
    PhaseChanged,
    QuestionAnswered,
    QuestionAsked,
    QueueChanged,
    SessionBranched,
    SessionChanged,
    SessionDeletedEvent,
    TaskChanged,
)
from foya_desktop.core.figures import Usage
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.memory import MemoryEntry, MemoryScope
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import VP, AgentMode, ApprovalMode, Connection, Phase, Project, Session
from foya_desktop.core.records import Checkpoint, QueueItem, TaskRecord
from foya_desktop.engine.asks.approvals import AnswerKind
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.connections.discovery import Offer
from foya_desktop.engine.connections.usage import UsageReport
from foya_desktop.engine.connections.window import ServerFacts
from foya_desktop.engine.mcp.servers import ServerStatus
from foya_desktop.engine.mcp.trust import ServerTrust
from foya_desktop.engine.ops.merging import MergePlan
from foya_desktop.engine.ops.rewind import RewindPreview, RewindResult
from foya_desktop.engine.project_files.rules import Rules
from foya_desktop.engine.session.status import TurnStatus
from foya_desktop.engine.transfer.importing import ParsedExport
from foya_desktop.engine.transfer.ops import ExportFormat, ImportResult
from foya_desktop.engine.worktrees.ops import MergePreview, MergeResult, WorktreeStatus
from foya_desktop.store.outline import OutlineEntry
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
    session_map: dict[str, Session] = field(default_factory=dict)
    project_map: dict[str, Project] = field(default_factory=dict)
    vp_list: list[VP] = field(default_factory=list)
    messages: dict[str, list[Message]] = field(default_factory=dict)
    connection_map: dict[str, Connection] = field(default_factory=dict)
    phases: dict[str, Phase] = field(default_factory=dict)
    queues: dict[str, list[QueueItem]] = field(default_factory=dict)
    paused: set[str] = field(default_factory=set)
    artifacts: dict[str, bytes] = field(default_factory=dict)
    problem: str | None = None
    offers: list[Offer] = field(default_factory=list)
    page_calls: list[tuple[str, int | None, int]] = field(default_factory=list)
    approvals: list[ApprovalRequested] = field(default_factory=list)
    questions: list[QuestionAsked] = field(default_factory=list)
    task_map: dict[str, TaskRecord] = field(default_factory=dict)
    checkpoint_list: dict[str, list[Checkpoint]] = field(default_factory=dict)
    auto_turns: bool = False
    """When true, a started message puts the session in ``turn`` until ``finish_turn``."""
    _seq: int = 0
    sessions: FakeSessions = field(init=False, repr=False, compare=False)
    history: FakeHistory = field(init=False, repr=False, compare=False)
    turns: FakeTurns = field(init=False, repr=False, compare=False)
    queue: FakeQueue = field(init=False, repr=False, compare=False)
    asks: FakeAsks = field(init=False, repr=False, compare=False)
    tasks: FakeTasks = field(init=False, repr=False, compare=False)
    vps: FakeVps = field(init=False, repr=False, compare=False)
    connections: FakeConnections = field(init=False, repr=False, compare=False)
    usage: FakeUsage = field(init=False, repr=False, compare=False)
    projects: FakeProjects = field(init=False, repr=False, compare=False)
    lifecycle: FakeLifecycle = field(init=False, repr=False, compare=False)
    search: FakeSearch = field(init=False, repr=False, compare=False)
    files: FakeFiles = field(init=False, repr=False, compare=False)
    transfer: FakeTransfer = field(init=False, repr=False, compare=False)
    mcp: FakeMcp = field(init=False, repr=False, compare=False)
    memory: FakeMemory = field(init=False, repr=False, compare=False)
    worktrees: FakeWorktrees = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """One object per area, as on the real kernel; they share this object's state."""
        self.sessions = FakeSessions(self)
        self.history = FakeHistory(self)
        self.turns = FakeTurns(self)
        self.queue = FakeQueue(self)
        self.asks = FakeAsks(self)
        self.tasks = FakeTasks(self)
        self.vps = FakeVps(self)
        self.connections = FakeConnections(self)
        self.usage = FakeUsage(self)
        self.projects = FakeProjects(self)
        self.lifecycle = FakeLifecycle(self)
        self.search = FakeSearch(self)
        self.files = FakeFiles(self)
        self.transfer = FakeTransfer(self)
        self.mcp = FakeMcp(self)
        self.memory = FakeMemory(self)
        self.worktrees = FakeWorktrees()

    # ---- test setup (the areas' methods are in the classes below) ---------------------------

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
            self.messages.setdefault(session_id, []).append(m)
            stored.append(m)
            if publish:
                self.publish(MessageAdded(session_id, m))
        return stored

    def set_phase(self, session_id: str, phase: Phase) -> None:
        """Move a session to a phase and announce it."""
        self.phases[session_id] = phase
        self.publish(PhaseChanged(session_id, Phase(phase)))

    def _record(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))

    def _queue_changed(self, session_id: str) -> None:
        self.publish(QueueChanged(session_id, tuple(self.queues.get(session_id, []))))

    def _busy(self, session_id: str) -> bool:
        return self.phases.get(session_id, Phase.IDLE) != Phase.IDLE

    def _start(self, session_id: str, text: str) -> str:
        (message,) = self.add_messages(session_id, [Message(new_id("msg"), session_id, "user",
                                                            (TextPart(text),))], publish=True)
        if self.auto_turns:
            self.set_phase(session_id, Phase.TURN)
        return message.id

    def _dispatch_next(self, session_id: str) -> None:
        queue = self.queues.get(session_id)
        if self._busy(session_id) or not queue:
            return
        item = queue.pop(0)
        self._queue_changed(session_id)
        self._start(session_id, item.text)

    def finish_turn(self, session_id: str) -> None:
        """Test setup: the running turn ends; like the engine, the queue moves unless paused."""
        self.set_phase(session_id, Phase.IDLE)
        if session_id not in self.paused:
            self._dispatch_next(session_id)

    def ask(self, event: ApprovalRequested | QuestionAsked) -> None:
        """Test setup: a turn waits for the person."""
        if isinstance(event, ApprovalRequested):
            self.approvals.append(event)
        else:
            self.questions.append(event)
        self.publish(event)

    def put_task(self, record: TaskRecord) -> None:
        """Test setup: a task record was created or changed (published like the engine does)."""
        self.task_map[record.id] = record
        self.publish(TaskChanged(record.session_id, record))

    def _refuse_busy(self, session_id: str, what: str) -> None:
        if self._busy(session_id):
            raise InvalidOperation(f"Wait for the turn to finish (or stop it) before you {what}.")

    async def close(self) -> None:
        self._record("close")

    def called(self, name: str) -> list[tuple[Any, ...]]:
        """Arguments of every call to ``name``, in order."""
        return [args for n, args in self.calls if n == name]


class FakeSessions:
    """The fake kernel's ``sessions`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def create_session(self, *, title: str = "", workdir: str | None = None, roster: Sequence[str] = (),
                             default_vp: str | None = None, connection: str = "", model: str = "",
                             approval_mode: ApprovalMode = ApprovalMode.ASK,
                             allow_broad: bool = False) -> Session:
        self._k._record("create_session", title, workdir, tuple(roster), default_vp)
        project = await self._k.projects.add_project(workdir) if workdir else None
        roster = tuple(roster) or ("omni",)
        session = Session(id=new_id("ses"), title=title or "New session", project_id=project.id if project else None,
                          workdir=workdir or "", roster=roster, default_vp=default_vp or roster[0],
                          connection=connection, model=model, approval_mode=approval_mode,
                          created_at=now_ms(), updated_at=now_ms())
        self._k.session_map[session.id] = session
        self._k.publish(SessionChanged(session.id, session))
        return session

    async def list_sessions(self) -> list[Session]:
        return list(self._k.session_map.values())

    async def get_session(self, session_id: str) -> Session:
        if session_id not in self._k.session_map:
            raise NotFound(session_id)
        return self._k.session_map[session_id]

    async def update_session(self, session_id: str, **changes: Any) -> Session:
        self._k._record("update_session", session_id, changes)
        session = dataclasses.replace(self._k.session_map[session_id], **changes, updated_at=now_ms())
        self._k.session_map[session_id] = session
        self._k.publish(SessionChanged(session_id, session))
        return session

    async def bind_project(self, session_id: str, project_id: str, *, allow_broad: bool = False) -> Session:
        self._k._record("bind_project", session_id, project_id)
        return await self._k.sessions.update_session(session_id, project_id=project_id,
                                         workdir=self._k.project_map[project_id].path)


class FakeFiles:
    """The fake kernel's ``files`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def rules_in_effect(self, session_id: str) -> Rules:
        return Rules((), "")

    async def add_agent_file_vp(self, path: str) -> VP:
        raise InvalidOperation(f"{path} is not a usable agent file: the fake kernel reads no files.")


class FakeTransfer:
    """The fake kernel's ``transfer`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def export_session(self, session_id: str, fmt: ExportFormat, *, embed: bool = True,
                             include_debug: bool = False) -> str:
        self._k._record("export_session", session_id, fmt)
        return f"export of {session_id} as {fmt}\n"

    async def read_export(self, path: str) -> ParsedExport:
        raise InvalidOperation("Cannot import this file: the fake kernel imports nothing. Nothing was imported.")

    async def exported_folder_here(self, parsed: ParsedExport) -> str | None:
        return None

    async def import_export(self, parsed: ParsedExport, *, folder: str | None = None,
                            allow_broad: bool = False) -> ImportResult:
        raise InvalidOperation("Cannot import this file: the fake kernel imports nothing. Nothing was imported.")


class FakeProjects:
    """The fake kernel's ``projects`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def list_projects(self) -> list[Project]:
        return list(self._k.project_map.values())

    async def broad_folder(self, folder: str) -> str | None:
        """Only ``/`` is broad here (the real rule is the kernel's, tested on the real kernel)."""
        return "root" if folder == "/" else None

    async def add_project(self, path: str, name: str = "", *, allow_broad: bool = False) -> Project:
        for project in self._k.project_map.values():
            if project.path == path:
                return project
        project = Project(id=new_id("prj"), name=name or path.rstrip("/").rsplit("/", 1)[-1], path=path)
        self._k.project_map[project.id] = project
        return project

    async def rename_project(self, project_id: str, name: str) -> Project:
        self._k.project_map[project_id] = dataclasses.replace(self._k.project_map[project_id], name=name)
        return self._k.project_map[project_id]

    async def set_project_instruction(self, project_id: str, instruction: str) -> Project:
        self._k.project_map[project_id] = dataclasses.replace(self._k.project_map[project_id], instruction=instruction)
        return self._k.project_map[project_id]

    async def project_sessions(self, project_id: str) -> list[str]:
        return [s.id for s in self._k.session_map.values() if s.project_id == project_id]

    async def delete_project(self, project_id: str) -> list[str]:
        self._k._record("delete_project", project_id)
        gone = await self._k.projects.project_sessions(project_id)
        self._k.project_map.pop(project_id)
        return gone

    async def relink_project(self, project_id: str, path: str, *, allow_broad: bool = False) -> Project:
        self._k.project_map[project_id] = dataclasses.replace(self._k.project_map[project_id], path=path)
        return self._k.project_map[project_id]

    async def missing_projects(self) -> list[str]:
        return []


class FakeMemory:
    """The fake kernel's ``memory`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def set_project_scoped_recall(self, project_id: str, enabled: bool) -> Project:
        self._k.project_map[project_id] = dataclasses.replace(self._k.project_map[project_id], scoped_recall=enabled)
        return self._k.project_map[project_id]

    async def list_memory(self, scope: MemoryScope | None = None, *, vp: str | None = None,
                          session_id: str | None = None) -> list[MemoryEntry]:
        return []

    async def add_memory(self, scope: MemoryScope, text: str, *, vp: str | None = None,
                         session_id: str | None = None) -> MemoryEntry:
        raise InvalidOperation("The fake kernel keeps no memory.")

    async def edit_memory(self, entry_id: str, text: str) -> MemoryEntry:
        raise NotFound(f"There is no memory entry {entry_id}.")

    async def remove_memory(self, entry_id: str) -> MemoryEntry:
        raise NotFound(f"There is no memory entry {entry_id}.")

    async def memory_exists(self, entry_id: str) -> bool:
        return False


class FakeWorktrees:
    """The fake kernel's ``worktrees`` area: its folders are in no git repository (the window's
    worktree parts are tested on the real kernel, ``tests/ui/test_worktrees_ui.py``)."""

    async def create_session(self, *, workdir: str, title: str = "", branch: str = "",
                             existing: bool | None = None, parent_folder: str = "",
                             roster: Sequence[str] = (), default_vp: str | None = None,
                             connection: str = "", model: str = "",
                             approval_mode: ApprovalMode = ApprovalMode.ASK, allow_broad: bool = False) -> Session:
        raise InvalidOperation(f"The folder {workdir} is not in a git repository.")

    async def branches(self, folder: str) -> list[str] | None:
        return None

    async def fork(self, session_id: str, *, from_turn: str | None = None, branch: str = "",
                   existing: bool | None = None, parent_folder: str = "") -> Session:
        raise InvalidOperation("The fake kernel's folders are in no git repository.")

    async def branch(self, session_id: str, after_message_id: str, *, branch: str = "",
                     existing: bool | None = None, parent_folder: str = "") -> Session:
        raise InvalidOperation("The fake kernel's folders are in no git repository.")

    async def status(self, session_id: str) -> WorktreeStatus:
        raise InvalidOperation(f"Session {session_id} is not in a git worktree.", code="not_a_worktree")

    async def statuses(self, sessions: Sequence[Session]) -> dict[str, WorktreeStatus]:
        return {}

    async def merge_preview(self, session_id: str) -> MergePreview:
        raise InvalidOperation(f"Session {session_id} is not in a git worktree.", code="not_a_worktree")

    async def merge_back(self, session_id: str, how: Literal["merge", "rebase"] = "merge") -> MergeResult:
        raise InvalidOperation(f"Session {session_id} is not in a git worktree.", code="not_a_worktree")

    async def remove(self, session_id: str, *, branch: bool = True, force: bool = False) -> list[str]:
        raise InvalidOperation(f"Session {session_id} is not in a git worktree.", code="not_a_worktree")


class FakeSearch:
    """The fake kernel's ``search`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def find(self, text: str, *, project_id: str | None = None, session_id: str | None = None,
                     speaker: str | None = None, since_ms: int | None = None, until_ms: int | None = None,
                     limit: int = 50) -> list[SearchHit]:
        self._k._record("search", text)
        return []

    async def find_in_session(self, session_id: str, text: str, speaker: str | None = None) -> list[str]:
        return []

    async def message_seq(self, message_id: str) -> int:
        raise NotFound(f"No message {message_id}.")

    async def outline(self, session_id: str) -> list[OutlineEntry]:
        return [OutlineEntry(m.id, m.seq, "" if m.role == "user" else m.speaker or "", m.created_at,
                             m.text.split("\n")[0]) for m in self._k.messages.get(session_id, [])
                if m.role in ("user", "assistant")]


class FakeVps:
    """The fake kernel's ``vps`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def list_vps(self) -> list[VP]:
        return list(self._k.vp_list)

    async def add_vp(self, vp: VP) -> VP:
        self._k._record("add_vp", vp)
        self._k.vp_list.append(vp)
        return vp

    async def edit_vp(self, ref: str, **changes: Any) -> VP:
        self._k._record("edit_vp", ref, changes)
        old = next(v for v in self._k.vp_list if ref in (v.id, v.name))
        new = dataclasses.replace(old, **changes)
        self._k.vp_list[self._k.vp_list.index(old)] = new
        return new

    async def duplicate_vp(self, ref: str, new_name: str) -> VP:
        self._k._record("duplicate_vp", ref, new_name)
        old = next(v for v in self._k.vp_list if ref in (v.id, v.name))
        return await self._k.vps.add_vp(dataclasses.replace(old, id=new_id("vp"), name=new_name, builtin=False))

    async def remove_vp(self, ref: str, *, force: bool = False) -> list[str]:
        self._k._record("remove_vp", ref, force)
        self._k.vp_list = [v for v in self._k.vp_list if ref not in (v.id, v.name)]
        return []


class FakeHistory:
    """The fake kernel's ``history`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def message_count(self, session_id: str) -> int:
        return len(self._k.messages.get(session_id, []))

    async def history_page(self, session_id: str, *, before_seq: int | None = None,
                           limit: int = 200) -> list[Message]:
        self._k.page_calls.append((session_id, before_seq, limit))
        messages = [m for m in self._k.messages.get(session_id, []) if before_seq is None or m.seq < before_seq]
        return messages[-limit:]

    async def read_artifact(self, sha: str) -> bytes:
        return self._k.artifacts[sha]


class FakeTurns:
    """The fake kernel's ``turns`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def send(self, session_id: str, text: str, *,
                   attachments: Sequence[tuple[str, bytes]] = ()) -> Receipt:
        """Like the real kernel: queue while busy (or behind a queue), else start a "turn".

        A fake turn stores the user message and puts the session in ``turn``; the test
        ends it with ``set_phase(session_id, Phase.IDLE)`` or ``finish_turn``.
        """
        self._k._record("send", session_id, text, tuple(attachments))
        if not text.strip() and not attachments:
            raise InvalidOperation("Nothing to send.")
        await self._k.sessions.get_session(session_id)
        if self._k._busy(session_id) or self._k.queues.get(session_id):
            item = QueueItem(new_id("que"), text, now_ms())
            self._k.queues.setdefault(session_id, []).append(item)
            self._k._queue_changed(session_id)
            if not self._k._busy(session_id) and session_id in self._k.paused:
                self._k.paused.discard(session_id)
                self._k._dispatch_next(session_id)
            return Receipt(None, item.id)
        self._k.paused.discard(session_id)
        return Receipt(self._k._start(session_id, text), None)

    def phase(self, session_id: str) -> Phase:
        return self._k.phases.get(session_id, Phase.IDLE)

    async def stop(self, session_id: str, *, keep_queue: bool = True) -> None:
        """Like the real kernel: the turn ends; a kept queue waits (paused), else it is cleared."""
        self._k._record("stop", session_id, keep_queue)
        self._k.paused.add(session_id)
        if self._k._busy(session_id):
            self._k.set_phase(session_id, Phase.IDLE)
        if not keep_queue:
            if self._k.queues.pop(session_id, None) is not None:
                self._k._queue_changed(session_id)
            self._k.paused.discard(session_id)

    async def act_on_reply(self, session_id: str, message_id: str) -> Receipt:
        self._k._record("act_on_reply", session_id, message_id)
        return await self._k.turns.send(session_id, "continue")

    async def confirm_plan(self, session_id: str) -> Receipt:
        self._k._record("confirm_plan", session_id)
        await self._k.sessions.update_session(session_id, agent_mode=AgentMode.EXECUTE)
        return await self._k.turns.send(session_id, "Plan confirmed. Carry it out now.")

    async def debug_traces(self, session_id: str, turn_id: str | None = None) -> list[dict[str, Any]]:
        self._k._record("debug_traces", session_id, turn_id)
        return []

    async def turn_status(self, session_id: str) -> TurnStatus | None:
        self._k._record("turn_status", session_id)
        return None

    async def stop_vp(self, session_id: str, speaker: str) -> bool:
        self._k._record("stop_vp", session_id, speaker)
        return True

    async def keep_planning(self, session_id: str) -> Session:
        self._k._record("keep_planning", session_id)
        return await self._k.sessions.update_session(session_id, agent_mode=AgentMode.PLAN)

    async def interrupt(self, session_id: str, dispatch_item_id: str) -> None:
        """Like the real kernel: stop the turn, then send the chosen queued message next."""
        self._k._record("interrupt", session_id, dispatch_item_id)
        self._k.queue.move(session_id, dispatch_item_id, 0)
        if self._k._busy(session_id):
            self._k.set_phase(session_id, Phase.IDLE)
        self._k.paused.discard(session_id)
        self._k._dispatch_next(session_id)


class FakeLifecycle:
    """The fake kernel's ``lifecycle`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def fork(self, session_id: str, *, from_turn: str | None = None) -> Session:
        self._k._record("fork", session_id, from_turn)
        src = self._k.session_map[session_id]
        return await self._k.sessions.create_session(title=f"{src.title} (fork)", workdir=src.workdir or None,
                                         roster=src.roster, default_vp=src.default_vp)

    def fork_in_progress(self, session_id: str) -> bool:
        return False

    async def checkpoints(self, session_id: str) -> list[Checkpoint]:
        return list(self._k.checkpoint_list.get(session_id, []))

    async def branch(self, session_id: str, after_message_id: str) -> Session:
        self._k._record("branch", session_id, after_message_id)
        source = await self._k.sessions.get_session(session_id)
        history = self._k.messages.get(session_id, [])
        index = next(i for i, m in enumerate(history) if m.id == after_message_id)
        new = dataclasses.replace(source, id=new_id("ses"), title=f"{source.title} (branch)",
                                  origin=f"branch:{session_id}", created_at=now_ms(), updated_at=now_ms())
        self._k.session_map[new.id] = new
        self._k.add_messages(new.id, [dataclasses.replace(m, id=new_id("msg")) for m in history[:index + 1]])
        self._k.publish(SessionChanged(new.id, new))
        self._k.publish(SessionBranched(new.id, session_id, after_message_id, index + 1))
        return new

    async def rewind_preview(self, session_id: str, message_id: str) -> RewindPreview:
        self._k._record("rewind_preview", session_id, message_id)
        self._k._refuse_busy(session_id, "rewind")
        history = self._k.messages.get(session_id, [])
        index = next(i for i, m in enumerate(history) if m.id == message_id)
        target = history[index]
        if target.role != "user":
            raise InvalidOperation("Rewind works on your own messages.")
        return RewindPreview(session_id, message_id, target.seq, history[-1].seq, new_id("tok"), target.text,
                             len(history) - index, (), (), ())

    async def rewind_confirm(self, session_id: str, preview: RewindPreview) -> RewindResult:
        self._k._record("rewind_confirm", session_id, preview.message_id)
        self._k._refuse_busy(session_id, "rewind")
        history = self._k.messages.get(session_id, [])
        if not history or history[-1].seq != preview.head_seq:
            raise InvalidOperation("The history changed since the preview; look at it again.")
        self._k.messages[session_id] = [m for m in history if m.seq < preview.from_seq]
        self._k.publish(HistoryRewound(session_id, preview.message_id, preview.from_seq, preview.text))
        return RewindResult(session_id, preview.message_id, preview.text, (), (), (), ())

    async def delete_session(self, session_id: str) -> list[str]:
        self._k._record("delete_session", session_id)
        children = [s.id for s in self._k.session_map.values() if s.parent_id == session_id]
        deleted = [d for child in children for d in await self._k.lifecycle.delete_session(child)]
        self._k.session_map.pop(session_id, None)
        self._k.messages.pop(session_id, None)
        self._k.queues.pop(session_id, None)
        self._k.publish(SessionDeletedEvent(session_id))
        return [*deleted, session_id]

    async def merge_preview(self, a_id: str, b_id: str) -> MergePlan:
        raise InvalidOperation("The fake kernel does not merge; test merge flows on the real kernel.")

    async def merge(self, a_id: str, b_id: str) -> Session:
        raise InvalidOperation("The fake kernel does not merge; test merge flows on the real kernel.")

    async def compact(self, session_id: str) -> Checkpoint:
        self._k._record("compact", session_id)
        self._k._refuse_busy(session_id, "compact")
        history = self._k.messages.get(session_id, [])
        covered = [c.covers_seq for c in self._k.checkpoint_list.get(session_id, [])]
        if not history or (covered and covered[-1] >= history[-1].seq):
            raise InvalidOperation("Nothing new to compact.")
        checkpoint = Checkpoint(new_id("chk"), session_id, history[-1].seq,
                                f"Summary of {len(history)} messages", created_at=now_ms())
        self._k.checkpoint_list.setdefault(session_id, []).append(checkpoint)
        self._k.publish(CompactionCheckpoint(session_id, checkpoint))
        return checkpoint


class FakeQueue:
    """The fake kernel's ``queue`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    def items(self, session_id: str) -> tuple[QueueItem, ...]:
        return tuple(self._k.queues.get(session_id, []))

    def move(self, session_id: str, item_id: str, index: int) -> None:
        self._k._record("queue_move", session_id, item_id, index)
        items = self._k.queues[session_id]
        item = next(i for i in items if i.id == item_id)
        items.remove(item)
        items.insert(index, item)
        self._k._queue_changed(session_id)

    def edit(self, session_id: str, item_id: str, text: str) -> None:
        self._k._record("queue_edit", session_id, item_id, text)
        self._k.queues[session_id] = [dataclasses.replace(i, text=text) if i.id == item_id else i
                                   for i in self._k.queues[session_id]]
        self._k._queue_changed(session_id)

    def remove(self, session_id: str, item_id: str) -> None:
        self._k._record("queue_remove", session_id, item_id)
        self._k.queues[session_id] = [i for i in self._k.queues[session_id] if i.id != item_id]
        self._k._queue_changed(session_id)

    def paused(self, session_id: str) -> bool:
        return session_id in self._k.paused

    def resume(self, session_id: str) -> None:
        self._k._record("resume_queue", session_id)
        self._k.paused.discard(session_id)
        self._k._dispatch_next(session_id)


class FakeUsage:
    """The fake kernel's ``usage`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def report(self, session_id: str | None = None) -> UsageReport:
        self._k._record("usage_report", session_id)
        return UsageReport((), 0, Usage(), None, 0)

    async def set_price(self, connection: str, model: str, input_per_mtok: float | None,
                        output_per_mtok: float | None, cache_read_per_mtok: float | None = None,
                        cache_write_per_mtok: float | None = None) -> None:
        self._k._record("set_price", connection, model, input_per_mtok, output_per_mtok)


class FakeConnections:
    """The fake kernel's ``connections`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def list_connections(self) -> list[Connection]:
        return list(self._k.connection_map.values())

    async def add_connection(self, conn: Connection, api_key: str | None = None) -> None:
        self._k._record("add_connection", conn, api_key)
        self._k.connection_map[conn.name] = conn

    async def remove_connection(self, name: str) -> None:
        self._k._record("remove_connection", name)
        self._k.connection_map.pop(name, None)

    def keyring_problem(self) -> str | None:
        return self._k.problem

    async def offers(self) -> list[Offer]:
        self._k._record("connection_offers")
        return list(self._k.offers)

    async def test_connection(self, conn: Connection, api_key: str | None = None) -> str:
        self._k._record("test_connection", conn, api_key)
        return "ok"

    async def models(self, conn: Connection, api_key: str | None = None) -> list[str]:
        self._k._record("connection_models", conn, api_key)
        return ["fake-model"]

    async def server_facts(self, conn: Connection, api_key: str | None = None) -> ServerFacts:
        self._k._record("server_facts", conn, api_key)
        return ServerFacts()


class FakeAsks:
    """The fake kernel's ``asks`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    def set_interactive(self, interactive: bool) -> None:
        self._k._record("set_interactive", interactive)

    def answer_approval(self, request_id: str, kind: AnswerKind, feedback: str = "") -> bool:
        self._k._record("answer_approval", request_id, kind, feedback)
        found = [a for a in self._k.approvals if a.request_id == request_id]
        for request in found:
            self._k.approvals.remove(request)
            self._k.publish(ApprovalResolved(request.session_id, request_id, kind))
        return bool(found)

    def pending_approvals(self, session_id: str) -> list[ApprovalRequested]:
        return [a for a in self._k.approvals if a.session_id == session_id]

    async def answer_question(self, question_id: str, answer: str) -> str:
        self._k._record("answer_question", question_id, answer)
        found = [q for q in self._k.questions if q.question_id == question_id]
        for question in found:
            self._k.questions.remove(question)
            self._k.publish(QuestionAnswered(question.session_id, question_id, answer))
        return "accepted" if found else "expired"

    def pending_questions(self, session_id: str) -> list[QuestionAsked]:
        return [q for q in self._k.questions if q.session_id == session_id]


class FakeTasks:
    """The fake kernel's ``tasks`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def list_tasks(self, session_id: str) -> list[TaskRecord]:
        return sorted((t for t in self._k.task_map.values() if t.session_id == session_id),
                      key=lambda t: t.created_at, reverse=True)

    async def inspect_task(self, session_id: str, task_id: str) -> TaskRecord:
        self._k._record("inspect_task", session_id, task_id)
        return self._k.task_map[task_id]

    async def cancel_task(self, session_id: str, task_id: str) -> TaskRecord:
        self._k._record("cancel_task", session_id, task_id)
        record = dataclasses.replace(self._k.task_map[task_id], state="cancelled")
        self._k.put_task(record)
        return record


class FakeMcp:
    """The fake kernel's ``mcp`` area (state lives on the ``FakeKernel``)."""

    def __init__(self, kernel: FakeKernel) -> None:
        self._k = kernel

    async def overview(self, project_id: str | None) -> list[ServerStatus]:
        self._k._record("mcp_overview", project_id)
        return []

    async def trust(self, project_id: str, names: list[str] | None = None,
                    seen: Mapping[str, str] | None = None) -> list[ServerTrust]:
        self._k._record("mcp_trust", project_id, names)
        return []

    async def revoke(self, project_id: str, names: list[str] | None = None) -> int:
        self._k._record("mcp_revoke", project_id, names)
        return 0

    async def restart(self, project_id: str, scope: Literal["user", "project"],
                          name: str) -> ServerStatus | None:
        self._k._record("mcp_restart", project_id, scope, name)
        return None

    def version(self) -> int:
        return 0
