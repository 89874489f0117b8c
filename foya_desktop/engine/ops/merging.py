"""Merge two sessions (Yeaft "合并会话") into a new one; neither source changes.

The new session takes the initiator A's workdir, announcement, default VP, model settings
and project (never B's); its roster is the union. History is regrouped into whole turns
(messages sharing a persisted turn id, in persisted order). The common turns — the longest
equal prefix of turn ids, from shared fork/branch ancestry; equal question text alone is
not common history — appear once; after them the remaining whole turns of both sides are
ordered by the person's send time (A first on a tie), so text, tool calls and results are
never split. With no common history every turn is ordered by send time.

Refused with an explanation, never guessed: a message without a turn id, a turn that does
not start with the person's message or whose messages are interleaved with another turn,
a turn id both sides hold outside the common prefix, a common turn whose contents differ
(its attachments included), and a common attachment that cannot be read. Other unreadable
attachments are marked unavailable, as in a fork. Attachments are verified byte for byte
(their bytes must hash to their name) before the new session references them.
Running tasks, background processes, queues and session memory are not migrated.

When the two histories begin with the same stored rows — a session and its branch or fork, or
two branches of one source (``store.history_view``) — those turns are common by construction:
the merged session inherits them copy-on-write instead of copying, and only what follows them
is read, planned and copied (a merge of a 50,000-message session and its branch costs what the
few turns after the branch point cost). Their rules still hold: every message there has a turn
id, no later turn reaches into them, and their attachments are readable; otherwise the merge
reads both histories whole, as it does for unrelated sessions.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.events import SessionBranched, SessionChanged
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, attachments_in_order
from foya_desktop.core.model import AgentMode, Session
from foya_desktop.engine.ops.branching import copy_history
from foya_desktop.engine.ops.forking import mark_unavailable, readable
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.store.artifacts import ArtifactFiles
from foya_desktop.store.history import valid_messages
from foya_desktop.store.history_view import shared_prefix
from foya_desktop.store.ops_branch import create_merged, shared_prefix_attachments, shared_prefix_fits
from foya_desktop.store.sessions import get_session

Origin = Literal["common", "a", "b"]


class MergeRefused(InvalidOperation):
    """The merge would have to guess; the message says where and why."""


@dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn: its persisted id and messages in persisted order."""

    turn_id: str
    messages: tuple[Message, ...]

    @property
    def sent_at(self) -> int:
        """When the person sent the turn's message."""
        return self.messages[0].created_at

    @property
    def question(self) -> str:
        """The person's text, for the preview."""
        return self.messages[0].text


@dataclass(frozen=True, slots=True)
class PlannedTurn:
    """One line of the preview: a turn, where it comes from, in merged order."""

    origin: Origin
    turn: Turn


@dataclass(frozen=True, slots=True)
class MergePlan:
    """What a merge would create (the window's preview shows it before anything is written)."""

    a_id: str
    b_id: str
    turns: tuple[PlannedTurn, ...]

    @property
    def common(self) -> int:
        """How many turns both sides share."""
        return sum(1 for t in self.turns if t.origin == "common")

    def messages(self) -> list[Message]:
        """The merged history, oldest first."""
        return [m for t in self.turns for m in t.turn.messages]


def turns_of(history: list[Message], label: str) -> list[Turn]:
    """Whole turns in persisted order; ``MergeRefused`` where the grouping is ambiguous."""
    out: list[Turn] = []
    seen: set[str] = set()
    for m in history:
        if not m.turn_id:
            raise MergeRefused(f"Session {label} has messages without a turn id (old records), so its "
                               "turns cannot be told apart; nothing was merged.")
        if out and out[-1].turn_id == m.turn_id:
            out[-1] = Turn(m.turn_id, (*out[-1].messages, m))
            continue
        if m.turn_id in seen:
            raise MergeRefused(f"In session {label} the messages of one turn are interleaved with another "
                               "turn's; where each turn ends is ambiguous, so nothing was merged.")
        if m.role != "user":
            raise MergeRefused(f"A turn of session {label} does not start with your message, so its send "
                               "time is unknown; nothing was merged.")
        seen.add(m.turn_id)
        out.append(Turn(m.turn_id, (m,)))
    return out


def _fingerprint(turn: Turn) -> tuple[object, ...]:
    """What must be equal for one turn to be the same turn on both sides."""
    return tuple((m.role, m.speaker, m.text, tuple(c.call_id for c in m.tool_calls),
                  r.call_id if (r := m.tool_result) is not None else "", _shas(m)) for m in turn.messages)


def _shas(m: Message) -> tuple[str, ...]:
    return tuple(attachments_in_order(m))


def plan_merge(a_id: str, a: list[Message], b_id: str, b: list[Message]) -> MergePlan:
    """The merged order of whole turns, or ``MergeRefused`` with the reason."""
    ta, tb = turns_of(a, "A"), turns_of(b, "B")
    common = 0
    while common < min(len(ta), len(tb)) and ta[common].turn_id == tb[common].turn_id:
        if _fingerprint(ta[common]) != _fingerprint(tb[common]):
            what = ("its attachments differ" if [_shas(m) for m in ta[common].messages] !=
                    [_shas(m) for m in tb[common].messages] else "its messages differ")
            raise MergeRefused(f"Both sessions hold the turn “{ta[common].question[:60]}” but {what} "
                               "(one side continued or cut it); the divergence point is ambiguous, so "
                               "nothing was merged.")
        common += 1
    rest_a, rest_b = ta[common:], tb[common:]
    shared_later = {t.turn_id for t in rest_a} & {t.turn_id for t in rest_b}
    if shared_later:
        raise MergeRefused("The sessions share a turn after they diverged (their common history is not "
                           "a prefix of both), so the common part is ambiguous; nothing was merged.")
    planned: list[PlannedTurn] = [PlannedTurn("common", t) for t in ta[:common]]
    tagged = [("a", i, t) for i, t in enumerate(rest_a)] + [("b", i, t) for i, t in enumerate(rest_b)]
    tagged.sort(key=lambda x: (x[2].sent_at, x[0], x[1]))
    planned += [PlannedTurn("a" if side == "a" else "b", t) for side, _i, t in tagged]
    return MergePlan(a_id, b_id, tuple(planned))


def check_common_attachments(plan: MergePlan, files: ArtifactFiles,
                             inherited: set[str] | None = None) -> None:
    """Every attachment of a common turn — and ``inherited`` ones, of the common turns the merged
    session inherits — must be readable and intact (blocking)."""
    shas = [*sorted(inherited or ()), *(sha for pt in plan.turns if pt.origin == "common"
                                         for m in pt.turn.messages for sha in _shas(m))]
    for sha in shas:
        if not readable(files, sha):
            raise MergeRefused(f"An attachment both sessions share ({sha[:12]}…) cannot be read "
                               "intact from any copy; nothing was merged rather than drop it.")


def merged_session(a: Session, b: Session) -> Session:
    """A's settings and project, the roster union, a fresh id."""
    now = now_ms()
    roster = tuple(dict.fromkeys((*a.roster, *b.roster)))
    mode = AgentMode.PLAN if a.agent_mode == AgentMode.AWAITING_CONFIRMATION else a.agent_mode
    return Session(
        id=new_id("ses"), title=f"{a.title} + {b.title}", project_id=a.project_id,
        origin=f"merge:{a.id}+{b.id}", connection=a.connection, model=a.model,
        reasoning_effort=a.reasoning_effort, approval_mode=a.approval_mode, agent_mode=mode,
        workdir=a.workdir, announcement=a.announcement, roster=roster, default_vp=a.default_vp,
        created_at=now, updated_at=now)


async def preview(svc: Services, scheduler: Scheduler, a_id: str, b_id: str) -> MergePlan:
    """What ``merge`` would create; nothing is written."""
    a, b = await _sources(svc, scheduler, a_id, b_id)
    a_messages = await svc.store.read(valid_messages, a.id)
    b_messages = await svc.store.read(valid_messages, b.id)
    return await asyncio.to_thread(plan_merge, a.id, a_messages, b.id, b_messages)  # history-sized


async def merge(svc: Services, scheduler: Scheduler, a_id: str, b_id: str) -> Session:
    """Create the merged session (both sources held idle meanwhile) and publish it to be opened."""
    await _sources(svc, scheduler, a_id, b_id)
    async with scheduler.owner(a_id).hold("merge"), scheduler.owner(b_id).hold("merge"):
        a, b = await svc.store.read(get_session, a_id), await svc.store.read(get_session, b_id)
        shared, a_messages, b_messages, inherited = await _histories(svc, a.id, b.id)
        session = merged_session(a, b)
        # NOTE: planning and copying grow with what is not shared: on a worker thread, never the
        # loop's (the GUI thread in the window), as branch and fork do
        copies = await asyncio.to_thread(_merged_copies, session.id, a.id, a_messages, b.id, b_messages,
                                         svc.store.files, inherited)
        created, stored = await svc.store.write(create_merged, session, copies, a.id, shared)
    svc.bus.publish(SessionChanged(created.id, created))
    svc.bus.publish(SessionBranched(created.id, a_id, "", len(stored)))
    return created


async def _histories(svc: Services, a_id: str,
                     b_id: str) -> tuple[int, list[Message], list[Message], set[str]]:
    """(seq of the shared prefix the merge inherits or 0, A's and B's messages after it, the
    prefix's attachments)."""
    shared = await svc.store.read(shared_prefix, a_id, b_id)
    a_messages = await svc.store.read(valid_messages, a_id, shared)
    b_messages = await svc.store.read(valid_messages, b_id, shared)
    if shared:
        later = {m.turn_id for m in (*a_messages, *b_messages)}
        starts_turns = all(ms[0].role == "user" for ms in (a_messages, b_messages) if ms)
        if starts_turns and await svc.store.read(shared_prefix_fits, a_id, shared, later):
            shas = await svc.store.read(shared_prefix_attachments, a_id, shared)
            return shared, a_messages, b_messages, shas
        a_messages = await svc.store.read(valid_messages, a_id)  # the rules need the whole histories
        b_messages = await svc.store.read(valid_messages, b_id)
    return 0, a_messages, b_messages, set()


def _merged_copies(session_id: str, a_id: str, a_messages: list[Message], b_id: str,
                   b_messages: list[Message], files: ArtifactFiles, inherited: set[str]) -> list[Message]:
    plan = plan_merge(a_id, a_messages, b_id, b_messages)
    check_common_attachments(plan, files, inherited)
    return mark_unavailable(copy_history(session_id, plan.messages()), files)


async def _sources(svc: Services, scheduler: Scheduler, a_id: str, b_id: str) -> tuple[Session, Session]:
    if a_id == b_id:
        raise InvalidOperation("Pick two different sessions to merge.")
    a, b = await svc.store.read(get_session, a_id), await svc.store.read(get_session, b_id)
    for label, s in (("A", a), ("B", b)):
        if s.parent_id is not None:
            raise InvalidOperation(f"Session {label} is a sub-agent's child session; merge top-level "
                                   "sessions.")
        if scheduler.busy(s.id):
            raise InvalidOperation(f"Session {label} ({s.title}) is busy. Both sessions must be idle: stop "
                                   "the running reply first, then merge.")
    return a, b
