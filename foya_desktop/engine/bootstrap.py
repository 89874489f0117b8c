"""Wiring: open the store in the data directory and build a kernel on it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from foya_desktop.engine.agents.route_forward import ROUTE_FORWARD, RouteForwardTool
from foya_desktop.engine.asks.approvals import ApprovalBroker
from foya_desktop.engine.asks.questions import QuestionBroker
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.connections.pool import ProviderPool
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.mcp.servers import McpServers
from foya_desktop.engine.memory.tool import MEMORY, MemoryTool
from foya_desktop.engine.ops.child_tools import agent_tools
from foya_desktop.engine.ops.recovery import recover
from foya_desktop.engine.permissions.toolbox import Toolbox
from foya_desktop.engine.project_files.session_files import session_files, skill_tools
from foya_desktop.engine.services import Services
from foya_desktop.engine.tasks.manager import TaskManager
from foya_desktop.engine.tasks.tools import task_tools
from foya_desktop.providers.base import RetryPolicy, Timeouts
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home, default_home
from foya_desktop.store.store import Store
from foya_desktop.store.vp_library import ensure_builtins
from foya_desktop.tools.ask_user import AskUserTool
from foya_desktop.tools.base import Tool
from foya_desktop.tools.process import sweep_orphans
from foya_desktop.tools.registry import default_tools

log = logging.getLogger(__name__)


def build_kernel(home: Home, *, keystore: KeyStore | None = None, timeouts: Timeouts | None = None,
                 retry: RetryPolicy | None = None, kind: str = "cli", read_only: bool = False) -> Kernel:
    """A kernel over the store in ``home`` (blocking: opens the database).

    ``kind`` names this process to others ("window" or "cli"). A ``read_only``
    kernel (``sessions list/show``) takes no lease and runs no recovery, so it
    never waits for the write lock; recovery otherwise repairs only sessions
    no live process holds.
    """
    store = Store(home, kind=kind, read_only=read_only)
    if not read_only:
        upgraded = store.write_sync(ensure_builtins)
        if upgraded:
            log.info("built-in VP(s) installed or upgraded to the current default: %s", ", ".join(upgraded))
    bus = EventBus()
    providers = ProviderPool(store, bus, keystore, timeouts, retry)
    tasks = TaskManager(store, bus)
    if not read_only:
        try:
            recover(store)
        except BaseException:
            store.close_sync()
            raise
        swept = sweep_orphans()
        if swept:
            log.info("ended %d command(s) left running by an earlier Foya", swept)
    tools: dict[str, Tool] = {**default_tools(), "ask_user": AskUserTool(), **task_tools(tasks)}
    svc = Services(store=store, bus=bus, providers=providers, tools=Toolbox(tools),
                   approvals=ApprovalBroker(bus), questions=QuestionBroker(bus, store), tasks=tasks)
    svc.mcp = McpServers(store, bus, secret=lambda name: providers.keystore.get_key(f"mcp:{name}"))
    svc.tools.set_session_tools(svc.mcp)
    kernel = Kernel(svc)
    svc.tools.add(agent_tools(kernel.lifecycle.children, lambda session: session_files(svc, session)))
    svc.tools.add({ROUTE_FORWARD: RouteForwardTool(svc.routes), MEMORY: MemoryTool(svc)})
    svc.tools.add(skill_tools(svc))
    tasks.set_canceller("subagent", kernel.lifecycle.children.cancel)
    return kernel


async def open_kernel(home: Path | None = None, **kwargs: object) -> Kernel:
    """Open the kernel off the event loop thread (start-up never blocks the GUI)."""
    target = Home(home) if home is not None else default_home()
    return await asyncio.to_thread(build_kernel, target, **kwargs)  # type: ignore[arg-type]
