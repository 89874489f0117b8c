"""The engine's shared services, passed explicitly (no global registry)."""

from __future__ import annotations

from dataclasses import dataclass, field

from foya_desktop.engine.agents.route_forward import RouteBook
from foya_desktop.engine.asks.approvals import ApprovalBroker
from foya_desktop.engine.asks.questions import QuestionBroker
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.connections.pool import ProviderPool
from foya_desktop.engine.mcp.servers import McpServers
from foya_desktop.engine.permissions.toolbox import Toolbox
from foya_desktop.engine.project_files.catalog import ProjectFiles
from foya_desktop.engine.tasks.manager import TaskManager
from foya_desktop.store.store import Store


@dataclass
class Services:
    """Everything a turn needs: store, bus, providers, tools, approvals."""

    store: Store
    bus: EventBus
    providers: ProviderPool
    tools: Toolbox
    approvals: ApprovalBroker
    questions: QuestionBroker
    tasks: TaskManager
    grants: dict[str, set[str]] = field(default_factory=dict)
    """Temporary "allow for this session" grants: in memory only, never copied."""
    mcp: McpServers | None = None
    """The projects' MCP servers (``bootstrap`` sets it; ``None`` in bare test services)."""
    routes: RouteBook = field(default_factory=RouteBook)
    """RouteForward hand-offs booked in each session's running turn."""
    project_files: ProjectFiles = field(default_factory=ProjectFiles)
    """Rules, skills and agent files of sessions' folders (mtime-cached)."""
