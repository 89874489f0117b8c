"""Session lifecycle operations of the kernel: branch, rewind, delete, compaction, sub-agents.

``kernel.lifecycle``, one of the kernel's area façades (see ``engine/areas``).
Each method is a thin door to a module that holds the rules (``branching``, ``rewind``, ``deletion``,
``compaction``, ``children``); the docstrings here say what the window needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import Session
from foya_desktop.core.records import Checkpoint, TaskRecord
from foya_desktop.engine.ops import branching, compaction, deletion, merging, rewind
from foya_desktop.engine.ops.children import ChildAgents
from foya_desktop.engine.ops.forking import Forks
from foya_desktop.engine.ops.merging import MergePlan
from foya_desktop.engine.ops.place import Place
from foya_desktop.engine.ops.rewind import RewindPreview, RewindResult
from foya_desktop.engine.request.context_window import CompactionPolicy, load_policy, save_policy
from foya_desktop.store.ops_checkpoints import list_checkpoints
from foya_desktop.store.ops_children import ChildTask

if TYPE_CHECKING:
    from foya_desktop.engine.services import Services
    from foya_desktop.engine.session.scheduler import Scheduler


class Lifecycle:
    """Session operations that need the services and the session scheduler."""

    def __init__(self, svc: Services, scheduler: Scheduler) -> None:
        self.svc = svc
        self._scheduler = scheduler
        self.children = ChildAgents(svc, scheduler)
        """The sub-agent manager (``bootstrap`` registers its tool)."""
        self.forks = Forks(svc)
        """The fork maker (remembers forks in progress)."""

    # ---- branch -----------------------------------------------------------------

    async def branch(self, session_id: str, after_message_id: str, *, place: Place | None = None) -> Session:
        """New top-level session with the valid messages up to and including ``after_message_id``.

        The message must be a complete assistant reply without tool calls, or a tool
        result whose sibling calls are all answered; otherwise ``InvalidOperation`` says
        why. Publishes ``SessionChanged`` and ``SessionBranched`` (open the new session).
        ``place``: a new worktree's project (``kernel.worktrees.branch``).
        """
        return await branching.branch(self.svc, self._scheduler, session_id, after_message_id, place)

    # ---- fork -------------------------------------------------------------------

    async def fork(self, session_id: str, *, from_turn: str | None = None,
                   place: Place | None = None) -> Session:
        """Fork the whole session, or (``from_turn`` = any message id of a completed turn) up to
        and including that turn. Never stops the source; while it generates, the fork stops
        before the active input. Publishes ``SessionChanged`` and ``SessionBranched`` (open it).
        ``place``: a new worktree's project (``kernel.worktrees.fork``).
        """
        return await self.forks.fork(session_id, from_turn, place)

    def fork_in_progress(self, session_id: str) -> bool:
        """Whether a fork of the session is being made (the window disables its fork entries)."""
        return self.forks.in_progress(session_id)

    # ---- merge ------------------------------------------------------------------

    async def merge_preview(self, a_id: str, b_id: str) -> MergePlan:
        """What merging ``b_id`` into a new session started from ``a_id`` would give: each turn
        with its origin (``common``, ``a``, ``b``) in merged order. Nothing is written; refusals
        (busy, ambiguous history) raise ``InvalidOperation`` with the reason."""
        return await merging.preview(self.svc, self._scheduler, a_id, b_id)

    async def merge(self, a_id: str, b_id: str) -> Session:
        """Create the merged session (A's settings and project, roster union); neither source
        changes. Publishes ``SessionChanged`` and ``SessionBranched`` (open it)."""
        return await merging.merge(self.svc, self._scheduler, a_id, b_id)

    # ---- rewind -----------------------------------------------------------------

    async def rewind_preview(self, session_id: str, message_id: str) -> RewindPreview:
        """Phase one of "Rewind to here" on a user message: what would happen, nothing changes.

        Show ``messages_removed``, ``restore``, ``remove`` and ``unsafe`` (with reasons) in a
        confirmation dialog. Refuses while a turn runs, and for messages with images.
        """
        return await rewind.preview(self.svc, self._scheduler, session_id, message_id)

    async def rewind_confirm(self, session_id: str, preview: RewindPreview) -> RewindResult:
        """Phase two: restore the safe files and commit. Put ``result.text`` into the composer.

        Raises ``RewindStale`` (an ``InvalidOperation``) when history or files moved since the
        preview: show a fresh preview. Publishes ``HistoryRewound``: reload the timeline.
        """
        return await rewind.confirm(self.svc, self._scheduler, session_id, preview)

    # ---- deletion ---------------------------------------------------------------

    async def delete_session(self, session_id: str) -> list[str]:
        """Irreversibly delete a session and its child sessions (confirm in the window first).

        Stops the running turn and waits for it, clears queue, questions and background
        commands, deletes descendants first, then publishes ``SessionDeletedEvent`` for
        each deleted id (returned, children first).
        """
        return await deletion.delete_tree(self.svc, self._scheduler, session_id)

    # ---- compaction -------------------------------------------------------------

    async def compact(self, session_id: str) -> Checkpoint:
        """"Compact now": summarise the history so later requests start from the summary.

        Phase ``compaction`` meanwhile (``kernel.turns.stop`` cancels it); publishes
        ``CompactionCheckpoint``. Refuses while a turn runs or when nothing is new.
        """
        return await compaction.compact_now(self.svc, self._scheduler, session_id)

    async def checkpoints(self, session_id: str) -> list[Checkpoint]:
        """Valid checkpoints, oldest first: draw a marker after the message with seq ``covers_seq``."""
        return await self.svc.store.read(list_checkpoints, session_id)

    async def compaction_policy(self) -> CompactionPolicy:
        """When automatic compaction starts, and how much tool output requests keep."""
        return await load_policy(self.svc.store)

    async def set_compaction_policy(self, *, threshold: float | None = None,
                                    tool_output_budget: int | None = None) -> CompactionPolicy:
        """Change the policy (applies to the next request of every session)."""
        current = await load_policy(self.svc.store)
        policy = CompactionPolicy(current.threshold if threshold is None else float(threshold),
                                  current.tool_output_budget if tool_output_budget is None
                                  else int(tool_output_budget))
        if not 0.05 <= policy.threshold <= 0.95 or policy.tool_output_budget < 100:
            raise InvalidOperation("The threshold must be between 0.05 and 0.95 of the context window "
                                   "and the tool-output budget at least 100 tokens.")
        await save_policy(self.svc.store, policy)
        return policy

    # ---- sub-agents -------------------------------------------------------------

    async def list_child_tasks(self, session_id: str) -> list[ChildTask]:
        """The session's sub-agent task records with their child session ids, newest first."""
        return await self.children.list(session_id)

    async def inspect_child_task(self, session_id: str, task_id: str) -> ChildTask:
        """One sub-agent task (state, answer so far in ``record.output_tail``, child session id)."""
        return await self.children.inspect(session_id, task_id)

    async def cancel_child_task(self, session_id: str, task_id: str) -> TaskRecord:
        """Stop a running sub-agent; its partial reply stays in the child session."""
        return await self.children.cancel(session_id, task_id)

    async def consume_child_result(self, session_id: str, task_id: str) -> TaskRecord:
        """Take a finished sub-agent's answer (marks the record consumed)."""
        return await self.children.consume(session_id, task_id)
