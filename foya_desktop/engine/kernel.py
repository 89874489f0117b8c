"""The kernel service: the one façade the window and the command line call.

It owns phases and queues, validates every operation against the session
rules (project binding, rosters) and publishes events after commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import InvalidOperation, KeyringUnavailable
from foya_desktop.core.events import ApprovalRequested, QuestionAsked, SessionChanged
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message
from foya_desktop.core.model import VP, AgentMode, ApprovalMode, Connection, Phase, Project, Session
from foya_desktop.core.records import QueueItem, TaskRecord
from foya_desktop.engine.agents.vp_library import VPLibrary
from foya_desktop.engine.agents.vps import all_vps, check_roster
from foya_desktop.engine.asks.approvals import Answer, AnswerKind
from foya_desktop.engine.asks.questions import AnswerStatus
from foya_desktop.engine.broad import refuse_broad
from foya_desktop.engine.connections.checks import check_connection
from foya_desktop.engine.connections.discovery import (
    Offer,
    env_offers,
    fetch_models,
    local_offers,
    try_connection,
)
from foya_desktop.engine.connections.usage import UsageReport, checked_price, save_price, usage_report
from foya_desktop.engine.lifecycle import LifecycleOps
from foya_desktop.engine.mcp.ops import McpOps
from foya_desktop.engine.memory.ops import MemoryOps
from foya_desktop.engine.ops.recovery import repair_session
from foya_desktop.engine.project_files.ops import ProjectFilesOps
from foya_desktop.engine.projects import ProjectOps
from foya_desktop.engine.search import SearchOps
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.agent_mode import CONFIRM_TEXT
from foya_desktop.engine.session.outside import OutsideWrites
from foya_desktop.engine.session.settings import validated
from foya_desktop.engine.session.status import TurnStatus, turn_status
from foya_desktop.engine.transfer.ops import TransferOps
from foya_desktop.engine.turn.debug_trace import traces
from foya_desktop.engine.turn.turns import TurnManager
from foya_desktop.providers.keys import resolve_api_key
from foya_desktop.tools.common import image_mime
from foya_desktop.tools.paths import broad_project_kind


@dataclass(frozen=True, slots=True)
class SendReceipt:
    """Where a sent message went: straight into a turn, or into the queue."""

    message_id: str | None
    queue_item_id: str | None


def _image_attachment(name: str, data: bytes) -> tuple[str, bytes]:
    """(mime, bytes) of an attached image, its type read from the bytes, never the name."""
    mime = image_mime(data[:16])
    if mime is None:
        raise InvalidOperation(f"{name or 'The attachment'} is not a PNG, JPEG, GIF or WebP image; "
                               "only images can be attached to a message for now.")
    return mime, data


def _existing_folder(workdir: str) -> Path:
    path = Path(workdir).expanduser()
    if not path.is_dir():
        raise InvalidOperation(f"The folder {workdir} does not exist.")
    return path.resolve()


class Kernel(LifecycleOps, ProjectOps, SearchOps, ProjectFilesOps, TransferOps, McpOps, MemoryOps):
    """Sessions, turns, queues, connections and VPs behind one async API."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.bus = svc.bus
        self._outside: OutsideWrites | None = None
        self.store = svc.store
        self.turns = TurnManager(svc, repair=lambda sid: repair_session(svc.store, sid))
        self.vp_library = VPLibrary(svc)

    @property
    def data_folder(self) -> Path:
        """The data folder this kernel's database lives in (``FOYA_HOME`` or the default)."""
        return self.store.home.root

    # ---- sessions -------------------------------------------------------------

    async def create_session(self, *, title: str = "", workdir: str | None = None,
                             roster: Sequence[str] = (), default_vp: str | None = None,
                             connection: str = "", model: str = "",
                             approval_mode: ApprovalMode = ApprovalMode.ASK,
                             allow_broad: bool = False) -> Session:
        """Create a session, registering the workdir's project when a folder is given.

        A broad folder (``/``, the home folder, around the data folder) is refused
        unless ``allow_broad`` says the person confirmed it (see ``engine.broad``).
        """
        ids, chosen = await check_roster(self.store, tuple(roster), default_vp)
        project = await self._project_for(workdir, allow_broad=allow_broad) if workdir else None
        if connection:
            await self.store.get_connection(connection)
        now = now_ms()
        session = await self.store.create_session(Session(
            id=new_id("ses"), title=title.strip() or "New session",
            project_id=project.id if project else None, connection=connection, model=model,
            approval_mode=ApprovalMode(approval_mode), workdir=project.path if project else "",
            roster=ids, default_vp=chosen, created_at=now, updated_at=now))
        self.bus.publish(SessionChanged(session.id, session))
        return session

    async def _project_for(self, workdir: str, *, allow_broad: bool) -> Project:
        resolved = await asyncio.to_thread(_existing_folder, workdir)
        await asyncio.to_thread(refuse_broad, resolved, self.data_folder, allow_broad=allow_broad)
        return await self.store.ensure_project(str(resolved), resolved.name or str(resolved))

    async def list_sessions(self) -> list[Session]:
        """All sessions, pinned first."""
        return await self.store.list_sessions()

    async def get_session(self, session_id: str) -> Session:
        """One session."""
        return await self.store.get_session(session_id)

    async def update_session(self, session_id: str, **changes: Any) -> Session:
        """Change settings (validated, see ``engine.session.settings``); they apply from the next
        model request or tool call."""
        current = await self.store.get_session(session_id)
        changes = await validated(self.store, current, changes)
        session = await self.store.update_session(session_id, changes)
        self.bus.publish(SessionChanged(session.id, session))
        return session

    async def bind_project(self, session_id: str, project_id: str, *, allow_broad: bool = False) -> Session:
        """Bind an unbound session once; bound sessions never move. A broad project folder
        needs ``allow_broad`` (the person's explicit confirmation)."""
        session = await self.store.get_session(session_id)
        if session.project_id is not None:
            raise InvalidOperation("This session is already bound to a project; a bound session "
                                   "cannot be moved. Fork it to continue elsewhere.")
        if session.parent_id is not None:
            raise InvalidOperation("A child session follows its parent's project.")
        project = await self.store.get_project(project_id)
        await asyncio.to_thread(refuse_broad, Path(project.path), self.data_folder, allow_broad=allow_broad)
        session = await self.store.bind_project(session_id, project.id, project.path)
        self.bus.publish(SessionChanged(session.id, session))
        return session

    async def broad_folder(self, folder: str) -> str | None:
        """The kind of broad folder ``folder`` is (``root``, ``home``, ``contains_home``,
        ``contains_data``) or ``None``: the window asks for a confirmation before binding one."""
        data = self.data_folder
        return await asyncio.to_thread(lambda: broad_project_kind(Path(folder).expanduser(), data))

    async def list_projects(self) -> list[Project]:
        """Registered projects."""
        return await self.store.list_projects()

    async def add_project(self, path: str, name: str = "", *, allow_broad: bool = False) -> Project:
        """Register a folder as a project (idempotent); ``name`` renames it. A broad folder
        needs ``allow_broad`` (the person's explicit confirmation)."""
        project = await self._project_for(path, allow_broad=allow_broad)
        if name.strip() and name.strip() != project.name:
            project = await self.rename_project(project.id, name)
        return project

    # ---- VPs ------------------------------------------------------------------

    async def list_vps(self) -> list[VP]:
        """Omni plus user-defined VPs."""
        return await all_vps(self.store)

    async def add_vp(self, vp: VP) -> VP:
        """Define a new persona (refused when the name is taken: use ``edit_vp``)."""
        return await self.vp_library.add(vp)

    async def edit_vp(self, ref: str, **changes: Any) -> VP:
        """Change a VP found by id or name: name, display_name, soul, model_hint, tools, color."""
        return await self.vp_library.edit(ref, **changes)

    async def duplicate_vp(self, ref: str, new_name: str) -> VP:
        """Copy a VP under a new name."""
        return await self.vp_library.duplicate(ref, new_name)

    async def remove_vp(self, ref: str, *, force: bool = False) -> list[str]:
        """Delete a VP; refused while a roster uses it unless ``force`` (returns changed sessions)."""
        return await self.vp_library.remove(ref, force=force)

    # ---- history --------------------------------------------------------------

    async def message_count(self, session_id: str) -> int:
        """Valid messages in a session."""
        return await self.store.message_count(session_id)

    async def history_page(self, session_id: str, *, before_seq: int | None = None,
                           limit: int = 200) -> list[Message]:
        """A page of valid history, oldest first."""
        return await self.store.history_page(session_id, before_seq, limit)

    async def history(self, session_id: str) -> list[Message]:
        """The whole valid history, oldest first (``foya sessions show``)."""
        return await self.store.valid_messages(session_id)

    async def descendants(self, session_id: str) -> list[str]:
        """Ids of the session's child sessions, deepest first."""
        return await self.store.descendants(session_id)

    async def read_artifact(self, sha: str) -> bytes:
        """An artifact's bytes."""
        return await self.store.read_artifact(sha)

    # ---- turns and queue ------------------------------------------------------

    async def send(self, session_id: str, text: str, *,
                   attachments: Sequence[tuple[str, bytes]] = ()) -> SendReceipt:
        """Start a turn now, or queue the message if the session is busy.

        ``attachments`` are (file name, bytes) pairs; images only (their type is
        read from the bytes).
        """
        if not text.strip() and not attachments:
            raise InvalidOperation("Nothing to send.")
        await self.store.get_session(session_id)
        atts = tuple(_image_attachment(name, data) for name, data in attachments)
        sent = await self.turns.owner(session_id).send(text, atts)
        if isinstance(sent, Message):
            return SendReceipt(sent.id, None)
        return SendReceipt(None, sent.id)

    def phase(self, session_id: str) -> Phase:
        """The kernel-owned phase."""
        owner = self.turns.scheduler.peek(session_id)
        return owner.phase if owner else Phase.IDLE

    def queue(self, session_id: str) -> tuple[QueueItem, ...]:
        """The queue as it is now."""
        return self.turns.owner(session_id).queue.items

    def queue_move(self, session_id: str, item_id: str, index: int) -> None:
        """Reorder a queued message."""
        self.turns.owner(session_id).queue.move(item_id, index)

    def queue_edit(self, session_id: str, item_id: str, text: str) -> None:
        """Edit a queued message."""
        self.turns.owner(session_id).queue.edit(item_id, text)

    def queue_remove(self, session_id: str, item_id: str) -> None:
        """Remove a queued message."""
        self.turns.owner(session_id).queue.remove(item_id)

    def queue_paused(self, session_id: str) -> bool:
        """Whether the queue waits after a "stop, keep queue"."""
        return self.turns.owner(session_id).paused

    def resume_queue(self, session_id: str) -> None:
        """Let a paused queue run again."""
        self.turns.owner(session_id).resume()

    async def stop(self, session_id: str, *, keep_queue: bool = True) -> None:
        """Stop the running turn; keep the queue (paused) or clear it."""
        await self.turns.owner(session_id).stop(keep_queue=keep_queue)

    async def stop_vp(self, session_id: str, speaker: str) -> bool:
        """Stop one VP of the running turn (the others go on); ``False`` if it was not running."""
        return await self.turns.owner(session_id).stop_vp(speaker)

    async def interrupt(self, session_id: str, dispatch_item_id: str) -> None:
        """Stop the running turn, then send the chosen queued message next."""
        await self.turns.owner(session_id).interrupt(dispatch_item_id)

    async def wait_idle(self) -> None:
        """Wait until every session is idle with an empty (or paused) queue."""
        await self.turns.scheduler.wait_idle()

    # ---- agent mode (engine/session/agent_mode.py) ---------------------------------

    async def confirm_plan(self, session_id: str) -> SendReceipt:
        """Switch to ``execute`` and tell the VP to carry out its plan (a new turn, or queued)."""
        await self._awaiting_confirmation(session_id)
        await self.update_session(session_id, agent_mode=AgentMode.EXECUTE)
        return await self.send(session_id, CONFIRM_TEXT)

    async def keep_planning(self, session_id: str) -> Session:
        """Back to ``plan``: the person wants to discuss the plan further."""
        await self._awaiting_confirmation(session_id)
        return await self.update_session(session_id, agent_mode=AgentMode.PLAN)

    async def _awaiting_confirmation(self, session_id: str) -> None:
        session = await self.store.get_session(session_id)
        if session.agent_mode != AgentMode.AWAITING_CONFIRMATION:
            raise InvalidOperation("There is no plan waiting for confirmation in this session "
                                   f"(agent mode is {session.agent_mode}).")

    # ---- the person in the loop ---------------------------------------------

    def set_interactive(self, interactive: bool) -> None:
        """Whether a window is attached that can answer approvals and questions.

        Without one (``foya run``), "ask" is answered "deny" and questions are
        reported as unanswerable — never answered on the person's behalf.
        """
        self.svc.approvals.interactive = interactive
        self.svc.questions.interactive = interactive

    def answer_approval(self, request_id: str, kind: AnswerKind, feedback: str = "") -> bool:
        """Answer a pending approval: once, session, always or deny."""
        return self.svc.approvals.answer(request_id, Answer(kind, feedback))

    def pending_approvals(self, session_id: str) -> list[ApprovalRequested]:
        """Approval requests of a session still waiting (oldest first)."""
        return self.svc.approvals.pending_requests(session_id)

    async def answer_question(self, question_id: str, answer: str) -> AnswerStatus:
        """Submit (or resend) an AskUser answer; ``accepted`` only once it is persisted."""
        return await self.svc.questions.answer(question_id, answer)

    def pending_questions(self, session_id: str) -> list[QuestionAsked]:
        """Open AskUser questions of a session (to show their cards again)."""
        return self.svc.questions.pending(session_id)

    # ---- status and debug ------------------------------------------------------

    async def usage_report(self, session_id: str | None = None) -> UsageReport:
        """Tokens (and cost where priced) by connection/model and day; all time without an id."""
        return await usage_report(self.store, session_id)

    async def turn_status(self, session_id: str) -> TurnStatus | None:
        """The running or last turn's figures per VP, from the store (``foya sessions status``)."""
        return await turn_status(self.store, session_id)

    async def set_price(self, connection: str, model: str, input_per_mtok: float | None,
                        output_per_mtok: float | None, cache_read_per_mtok: float | None = None,
                        cache_write_per_mtok: float | None = None) -> None:
        """USD per million tokens for one connection and model (refused in words when invalid)."""
        await save_price(self.store, checked_price(connection, model, input_per_mtok, output_per_mtok,
                                                   cache_read_per_mtok, cache_write_per_mtok))

    async def debug_traces(self, session_id: str, turn_id: str | None = None) -> list[dict[str, Any]]:
        """The session's debug traces (see ``engine.turn.debug_trace``), oldest first."""
        await self.store.get_session(session_id)
        return await self.store.read(traces, session_id, turn_id)

    # ---- background tasks ------------------------------------------------------

    async def list_tasks(self, session_id: str) -> list[TaskRecord]:
        """The session's background task records."""
        return await self.svc.tasks.list(session_id)

    async def inspect_task(self, session_id: str, task_id: str) -> TaskRecord:
        """One task with the live tail of its output."""
        return await self.svc.tasks.inspect(session_id, task_id)

    async def cancel_task(self, session_id: str, task_id: str) -> TaskRecord:
        """Stop a running background task."""
        return await self.svc.tasks.cancel(session_id, task_id)

    # ---- connections ----------------------------------------------------------

    async def list_connections(self) -> list[Connection]:
        """Configured connections (no keys)."""
        return await self.store.list_connections()

    async def get_connection(self, name: str) -> Connection:
        """One connection by name (``NotFound`` names it)."""
        return await self.store.get_connection(name)

    async def add_connection(self, conn: Connection, api_key: str | None = None) -> None:
        """Save a connection; its key goes to the OS keyring only."""
        check_connection(conn)
        if api_key:
            await asyncio.to_thread(self.svc.providers.keystore.set_key, conn.name, api_key)
        await self.store.save_connection(conn)
        await self.svc.providers.forget(conn.name)

    async def remove_connection(self, name: str) -> None:
        """Delete a connection and its keyring entry."""
        await self.store.delete_connection(name)
        await self.svc.providers.forget(name)
        with contextlib.suppress(KeyringUnavailable):
            await asyncio.to_thread(self.svc.providers.keystore.delete_key, name)

    def keyring_problem(self) -> str | None:
        """A plain sentence when no secure keyring exists, else ``None``."""
        return self.svc.providers.keystore.problem()

    async def connection_offers(self) -> list[Offer]:
        """First run: services whose key is in the environment and local servers that answer."""
        taken = [c.name for c in await self.store.list_connections()]
        return env_offers(os.environ, taken) + await local_offers(taken=taken)

    async def test_connection(self, conn: Connection, api_key: str | None = None) -> str:
        """One real minimal request with ``conn`` (the typed key, else its stored key); the reply."""
        check_connection(conn)
        return await try_connection(conn, await self._key_for(conn, api_key))

    async def connection_models(self, conn: Connection, api_key: str | None = None) -> list[str]:
        """The model ids the provider lists for ``conn``."""
        return await fetch_models(conn, await self._key_for(conn, api_key))

    async def _key_for(self, conn: Connection, api_key: str | None) -> str | None:
        if api_key:
            return api_key
        return await asyncio.to_thread(resolve_api_key, conn, self.svc.providers.keystore)

    def watch_other_processes(self) -> None:
        """Tell this process's listeners what ``foya`` commands in other processes write (the window
        calls it once it shows; ``engine/session/outside.py`` says how it stays cheap)."""
        if self._outside is None:
            self._outside = OutsideWrites(self.store, self.bus, lambda sid: self.phase(sid) != Phase.IDLE)
        self._outside.start()

    async def close(self) -> None:
        """Stop every turn, close HTTP clients and the database."""
        if self._outside is not None:
            await self._outside.stop()
        await self.turns.scheduler.stop_all()
        await self.svc.tasks.close()
        if self.svc.mcp is not None:
            await self.svc.mcp.close()
        await self.svc.providers.aclose()
        await self.store.close()
