"""The WorkItem's data: contract, action graph, states and runs (plain, immutable values).

Stored as JSON in one row per WorkItem (``store/work_items.py``); ``item_record`` and
``item_from_record`` are the only translation between the two.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, replace
from typing import Any


class ItemState(enum.StrEnum):
    """draft → ready → running → waiting → reviewing → accepted | failed | cancelled.

    ``waiting`` and ``reviewing`` always carry a reason (``WorkItem.wait_reason``):
    ``reviewing`` is the wait for the person's acceptance once every action is done.
    """

    DRAFT = "draft"
    READY = "ready"
    RUNNING = "running"
    WAITING = "waiting"
    REVIEWING = "reviewing"
    ACCEPTED = "accepted"
    FAILED = "failed"
    CANCELLED = "cancelled"


FINAL = frozenset({ItemState.ACCEPTED, ItemState.FAILED, ItemState.CANCELLED})
"""States nothing leaves."""


class ActionKind(enum.StrEnum):
    """What an action does."""

    AGENT = "agent"
    """A VP works on an instruction in the working folder with its usual tools and approvals."""
    RELAY = "relay"
    """Like ``agent``, for handing the results it depends on to another VP."""
    REVIEW = "review"
    """A reviewer VP checks the results it depends on against the criteria; may send back."""
    CHECK = "check"
    """A command: exit status 0 passes (evidence for a criterion)."""
    WAIT = "wait"
    """Waits for the person (an answer to ``instruction``)."""


VP_KINDS = frozenset({ActionKind.AGENT, ActionKind.RELAY, ActionKind.REVIEW})
"""Kinds run by a VP (they name one from the roster)."""


class ActionState(enum.StrEnum):
    """Where one action is."""

    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Criterion:
    """One acceptance criterion; ``check`` is a command whose exit status is its evidence."""

    text: str
    check: str = ""


@dataclass(frozen=True, slots=True)
class Budgets:
    """Limits of one WorkItem (0: none)."""

    max_runs: int = 20
    max_tokens: int = 0
    deadline_ms: int = 0
    """Epoch milliseconds after which no action starts."""
    max_attempts: int = 3
    """Attempts of one VP run whose turn failed (a provider error, a step limit) before its action
    fails; each retry goes on in the same run, after a durable backoff."""


@dataclass(frozen=True, slots=True)
class Contract:
    """What the person asked for and confirmed."""

    goal: str
    workdir: str
    roster: tuple[str, ...]
    """VP ids the WorkItem may use; the first implements, the second (if any) reviews."""
    criteria: tuple[Criterion, ...] = ()
    constraints: tuple[str, ...] = ()
    budgets: Budgets = field(default_factory=Budgets)
    source_session: str = ""
    source_message: str = ""
    max_rework: int = 2
    """How many times review may send work back before the WorkItem fails."""


@dataclass(frozen=True, slots=True)
class Action:
    """One node of the action graph; ``after`` are the actions it waits for."""

    id: str
    kind: ActionKind
    vp: str = ""
    instruction: str = ""
    command: str = ""
    """For ``check``: the command."""
    after: tuple[str, ...] = ()
    state: ActionState = ActionState.PENDING
    rework_of: str = ""
    """For rework made by a send-back: the action it does again."""
    result: str = ""
    """The VP's last reply, the check's output tail or the person's answer."""
    verdict: str = ""
    """For ``review``: ``accept`` or ``send_back``; for ``check``: ``pass`` or ``fail``."""


@dataclass(frozen=True, slots=True)
class WorkItem:
    """A WorkItem as stored."""

    id: str
    title: str
    contract: Contract
    actions: tuple[Action, ...]
    state: ItemState = ItemState.READY
    wait_reason: str = ""
    failure: str = ""
    reworks: int = 0
    runs: int = 0
    tokens: int = 0
    created_at: int = 0
    updated_at: int = 0

    def action(self, action_id: str) -> Action:
        """The action with this id (``KeyError`` when none)."""
        for action in self.actions:
            if action.id == action_id:
                return action
        raise KeyError(action_id)

    def with_action(self, action: Action) -> WorkItem:
        """This item with ``action`` replacing the one of the same id."""
        return replace(self, actions=tuple(action if a.id == action.id else a for a in self.actions))

    @property
    def progress(self) -> tuple[int, int]:
        """(actions done, actions in the graph)."""
        return sum(a.state == ActionState.DONE for a in self.actions), len(self.actions)


@dataclass(frozen=True, slots=True)
class Run:
    """One execution of an action: its own transcript lives in the child session ``session_id``."""

    id: str
    item_id: str
    action_id: str
    kind: str
    vp: str = ""
    session_id: str = ""
    state: str = "running"
    """``running``, ``done``, ``failed``."""
    attempts: int = 1
    started_at: int = 0
    finished_at: int = 0
    tokens: int = 0
    outcome: str = ""
    evidence: str = ""


def item_record(item: WorkItem) -> dict[str, Any]:
    """The JSON-able form the store keeps."""
    return asdict(item)


def item_from_record(data: dict[str, Any]) -> WorkItem:
    """The inverse of :func:`item_record`."""
    c = data["contract"]
    contract = Contract(
        goal=c["goal"], workdir=c["workdir"], roster=tuple(c["roster"]),
        criteria=tuple(Criterion(**x) for x in c["criteria"]), constraints=tuple(c["constraints"]),
        budgets=Budgets(**c["budgets"]), source_session=c["source_session"],
        source_message=c["source_message"], max_rework=c["max_rework"])
    actions = tuple(Action(**{**a, "kind": ActionKind(a["kind"]), "state": ActionState(a["state"]),
                              "after": tuple(a["after"])}) for a in data["actions"])
    return WorkItem(**{**data, "contract": contract, "actions": actions, "state": ItemState(data["state"])})


def run_from_record(data: dict[str, Any]) -> Run:
    """A run as stored."""
    return Run(**data)
