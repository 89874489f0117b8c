"""Wiring: open the store in the data directory and build a kernel on it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from foya_desktop.engine.agents.route_forward import ROUTE_FORWARD, RouteForwardTool
from foya_desktop.engine.agents.tools import agent_tools
from foya_desktop.engine.asks.approvals import ApprovalBroker
from foya_desktop.engine.asks.questions import QuestionBroker
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.connections.pool import ProviderPool
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.recovery import recover
from foya_desktop.engine.request.toolbox import Toolbox
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
from foya_desktop.tools.registry import default_tools

log = logging.getLogger(__name__)


def build_kernel(home: Home, *, keystore: KeyStore | None = None, timeouts: Timeouts | None = None,
                 retry: RetryPolicy | None = None) -> Kernel:
    """A kernel over the store in ``home`` (blocking: opens the database)."""
    store = Store(home)
    reset = store.reset_phases()
    upgraded = store.write_sync(ensure_builtins)
    if upgraded:
        log.info("built-in VP(s) installed or upgraded to the current default: %s", ", ".join(upgraded))
    if reset:
        log.info("reset %d session(s) to idle after the previous run", reset)
    bus = EventBus()
    providers = ProviderPool(store, bus, keystore, timeouts, retry)
    tasks = TaskManager(store, bus)
    tasks.recover()
    recover(store)
    tools: dict[str, Tool] = {**default_tools(), "ask_user": AskUserTool(), **task_tools(tasks)}
    svc = Services(store=store, bus=bus, providers=providers, tools=Toolbox(tools),
                   approvals=ApprovalBroker(bus), questions=QuestionBroker(bus, store), tasks=tasks)
    kernel = Kernel(svc)
    svc.tools.add(agent_tools(kernel.children))
    svc.tools.add({ROUTE_FORWARD: RouteForwardTool(svc.routes)})
    tasks.set_canceller("subagent", kernel.children.cancel)
    return kernel


async def open_kernel(home: Path | None = None, **kwargs: object) -> Kernel:
    """Open the kernel off the event loop thread (start-up never blocks the GUI)."""
    target = Home(home) if home is not None else default_home()
    return await asyncio.to_thread(build_kernel, target, **kwargs)  # type: ignore[arg-type]
