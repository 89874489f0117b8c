"""Which tools a VP may see in a session, and their specs for the model.

One shared registry filtered by policy (Yeaft seed Y65): the approval mode
``read_only`` and the agent modes ``plan`` / ``awaiting_confirmation`` both
narrow it to tools that change nothing — no file writes, no commands, no
sub-agents. The filter runs again before every call (``refusal``), so a
mode switch while a call streams still applies to that call.
"""

from __future__ import annotations

from typing import Protocol

from foya_desktop.core.llm import ToolSpec
from foya_desktop.core.model import VP, AgentMode, ApprovalMode, Session
from foya_desktop.tools.base import Tool
from foya_desktop.tools.registry import default_tools, read_only_tools

ALWAYS_SAFE = {"ask_user", "task_list", "task_output", "route_forward", "skill", "memory"}
"""Offered in read-only mode too: they change nothing in the project."""
NO_FOLDER = {"ask_user", "route_forward", "skill", "memory"}
"""Offered even without a project folder."""
MULTI_VP = {"route_forward"}
"""Offered only when the session has more than one VP."""
EVERY_VP = MULTI_VP | {"memory"}
"""Offered whatever a VP's allowed-tools list says (Foya's own collaboration tools)."""
TOP_LEVEL = {"memory"}
"""Not offered to sub-agents: memory belongs to the person's collaboration, not to a one-off worker."""


class SessionTools(Protocol):
    """Tools that exist per session's project (the MCP servers, ``engine.mcp``)."""

    def tools_for(self, session: Session) -> dict[str, Tool]:
        """The callable tools for ``session`` now (none without a project)."""
        ...

    def deferred_for(self, session: Session) -> set[str]:
        """Names among them whose schemas are not sent (listed by name, loaded on use)."""
        ...


class Toolbox:
    """The tool registry filtered by approval mode, workdir and the VP's tool list."""

    def __init__(self, tools: dict[str, Tool] | None = None) -> None:
        self._tools = tools if tools is not None else default_tools()
        self._read_only = set(read_only_tools()) | ALWAYS_SAFE
        self._session_tools: SessionTools | None = None

    def set_session_tools(self, source: SessionTools) -> None:
        """Add the per-project tools (MCP) to what sessions see; they follow the same filters."""
        self._session_tools = source

    def _extra(self, session: Session | None) -> dict[str, Tool]:
        if session is None or self._session_tools is None or not session.workdir:
            return {}
        return self._session_tools.tools_for(session)

    def add(self, tools: dict[str, Tool]) -> None:
        """Register more tools (those that need the kernel, e.g. ``spawn_agent``)."""
        self._tools.update(tools)

    def get(self, name: str, session: Session | None = None) -> Tool | None:
        """A tool by name (with ``session``: also its project's MCP tools)."""
        return self._tools.get(name) or self._extra(session).get(name)

    def all_names(self) -> list[str]:
        """Every registered tool name (what a VP's allowed-tools list may name)."""
        return list(self._tools)

    def names_for(self, session: Session, vp: VP) -> list[str]:
        """Tool names offered to ``vp`` in ``session``."""
        names = [*self._tools, *(n for n in self._extra(session) if n not in self._tools)]
        if len(session.roster) < 2:
            names = [n for n in names if n not in MULTI_VP]
        if session.parent_id is not None:
            names = [n for n in names if n not in TOP_LEVEL]
        if not session.workdir:
            return [n for n in names if n in NO_FOLDER]
        if session.approval_mode == ApprovalMode.READ_ONLY or planning(session):
            names = [n for n in names if n in self._read_only]
        if vp.tools:
            names = [n for n in names if n in vp.tools or n in EVERY_VP]
        return names

    def refusal(self, session: Session, vp: VP, name: str) -> str | None:
        """Why ``name`` may not run now (a sentence for the model), or ``None`` if it may."""
        if name in self.names_for(session, vp):
            return None
        if self.get(name, session) is None:
            return f"Unknown tool: {name}."
        if not session.workdir:
            return f"{name} is not available: this session has no working folder."
        if planning(session) and name not in self._read_only:
            return (f"{name} is not available in plan mode: investigate and propose a plan; "
                    "nothing may be written, run or delegated until the person confirms the plan.")
        if session.approval_mode == ApprovalMode.READ_ONLY and name not in self._read_only:
            return f"{name} is not available: the session is read-only now (approval mode read_only)."
        return f"{name} is not one of {vp.name}'s tools."

    def specs_for(self, session: Session, vp: VP) -> tuple[ToolSpec, ...]:
        """JSON-schema specs for the model (deferred MCP schemas left out: listed by name instead)."""
        deferred = self._session_tools.deferred_for(session) if self._session_tools else set()
        extra = self._extra(session)
        return tuple(ToolSpec(t.name, t.description, t.parameters)
                     for t in (self._tools.get(n) or extra[n] for n in self.names_for(session, vp)
                               if n not in deferred))


def planning(session: Session) -> bool:
    """Plan mode or a plan waiting for confirmation: read and discuss only."""
    return session.agent_mode in (AgentMode.PLAN, AgentMode.AWAITING_CONFIRMATION)
