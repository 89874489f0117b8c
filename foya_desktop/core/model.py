"""Sessions, projects, VPs and connections as plain immutable records."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field


class Phase(enum.StrEnum):
    """What the kernel is doing with a session. Owned by the kernel alone."""

    IDLE = "idle"
    TURN = "turn"
    COMPACTION = "compaction"


class ApprovalMode(enum.StrEnum):
    """How far tools may act without asking."""

    READ_ONLY = "read_only"
    ASK = "ask"
    AUTO_EDIT = "auto_edit"
    AUTO = "auto"


class AgentMode(enum.StrEnum):
    """What the agent may do (distinct from the phase)."""

    EXECUTE = "execute"
    PLAN = "plan"
    AWAITING_CONFIRMATION = "awaiting_confirmation"


class ProviderKind(enum.StrEnum):
    """Wire formats Foya speaks."""

    OPENAI = "openai"
    ANTHROPIC = "anthropic"


OMNI_ID = "omni"


@dataclass(frozen=True, slots=True)
class VP:
    """A persona: name, soul (system prompt), model hint, tools and step limit."""

    id: str
    name: str
    """Mention handle, e.g. ``Linus`` for ``@Linus``."""
    display_name: str
    soul: str
    model_hint: str = ""
    tools: tuple[str, ...] = ()
    """Tool names this VP may use; empty means every tool the session allows."""
    max_steps: int = 25
    builtin: bool = False
    color: str = ""
    """``#rrggbb`` chosen in the VP editor; empty: a colour from the session's roster order."""


MODEL_HINTS = ("primary", "fast")
"""A VP's model setting is a hint (Yeaft): the session may override the exact model."""

OMNI_SOUL = (
    "You are Omni assistant (全能助手), a capable general assistant working inside the "
    "person's project folder. Help with questions, research, writing, translation, learning, "
    "planning, data analysis and programming — not only clarifying or passing work on. "
    "Decide for each task whether to answer directly, use tools or collaborate with the "
    "session's other VPs (hand work over with route_forward; an @mention in your text routes "
    "nothing). Stay within the project's division of work and the approvals you are given. "
    "Be concise; cite files by path."
)

OMNI = VP(id=OMNI_ID, name="Omni", display_name="全能助手 / Omni assistant",
          soul=OMNI_SOUL, builtin=True)

OMNI_PAST_DEFAULTS: tuple[tuple[str, str, str], ...] = (
    ("Omni", "全能助手 / Omni assistant",
     "You are Omni assistant (全能助手), a capable general assistant working inside the "
     "person's project folder. Answer questions, research, write, translate, plan, analyse "
     "data and program. Decide for each task whether to answer directly, use tools or "
     "collaborate. Stay within the project's boundaries and the approvals you are given. "
     "Be concise; cite files by path."),
)
"""(name, display name, soul) of every Omni Foya shipped before the current one. A stored
Omni that matches one exactly is upgraded at start-up; any edit keeps it as the person left it."""


@dataclass(frozen=True, slots=True)
class Project:
    """A registered folder. Foya stores only the reference, never the folder itself."""

    id: str
    name: str
    path: str
    instruction: str = ""
    sort_order: int = 0
    created_at: int = 0
    scoped_recall: bool = False
    """Member sessions see read-only summaries of their sibling sessions (off by default)."""


@dataclass(frozen=True, slots=True)
class Connection:
    """A model service. The API key is never here: it lives in the OS keyring."""

    name: str
    kind: ProviderKind
    base_url: str
    model: str = ""
    api_key_env: str = ""
    """Name of an environment variable to read the key from instead of the keyring."""
    context_window: int = 128_000


@dataclass(frozen=True, slots=True)
class Session:
    """A durable collaboration unit (metadata only; history lives in the event log)."""

    id: str
    title: str
    project_id: str | None = None
    parent_id: str | None = None
    origin: str = "user"
    """How it was created: ``user``, ``branch:<id>``, ``fork:<id>``, ``subagent:<call id>``…"""
    connection: str = ""
    """The connection's name; empty means the first configured one (:func:`effective_connection`)."""
    model: str = ""
    reasoning_effort: str = ""
    approval_mode: ApprovalMode = ApprovalMode.ASK
    agent_mode: AgentMode = AgentMode.EXECUTE
    workdir: str = ""
    announcement: str = ""
    roster: tuple[str, ...] = (OMNI_ID,)
    default_vp: str = OMNI_ID
    pinned: bool = False
    sort_order: int = 0
    phase: Phase = Phase.IDLE
    created_at: int = 0
    updated_at: int = 0
    child_snapshot: dict[str, object] = field(default_factory=dict)
    """For child sessions: immutable agent definition, tools and max turns at creation."""


def effective_connection(name: str, connections: Sequence[Connection]) -> Connection | None:
    """The connection a session whose setting is ``name`` runs on: that one, or with an empty
    setting the first configured one — the one rule the engine's requests and the window's
    status line both follow (``None``: not configured)."""
    if name:
        return next((c for c in connections if c.name == name), None)
    return connections[0] if connections else None
