"""The kernel service: the one façade the window and the command line call.

It is a composition of small area façades (issue 7), one object per area, each
a thin door to the modules that hold its rules:

=====================  =============================================  =====================================
attribute              what                                           where
=====================  =============================================  =====================================
``kernel.sessions``    create, list, settings, bind a project         ``engine/areas/sessions.py``
``kernel.history``     pages of valid history, artifact bytes         ``engine/areas/sessions.py``
``kernel.turns``       send, stop, interrupt, plan confirmation       ``engine/areas/turns.py``
``kernel.queue``       the queued messages behind a turn              ``engine/areas/turns.py``
``kernel.asks``        approvals and questions for the person         ``engine/areas/asks.py``
``kernel.tasks``       background commands                            ``engine/areas/tasks.py``
``kernel.vps``         the VP library                                 ``engine/areas/vps.py``
``kernel.connections`` connections, keys, first-run offers            ``engine/areas/connections.py``
``kernel.usage``       the usage ledger's figures and prices          ``engine/areas/connections.py``
``kernel.projects``    projects: add, rename, relink, delete          ``engine/projects.py``
``kernel.lifecycle``   branch, fork, merge, rewind, delete, compact   ``engine/lifecycle.py``
``kernel.search``      full-text search, the outline                  ``engine/search.py``
``kernel.files``       rules, skills and agent files of a folder      ``engine/project_files/ops.py``
``kernel.transfer``    export and import                              ``engine/transfer/ops.py``
``kernel.mcp``         MCP servers and their trust                    ``engine/mcp/ops.py``
``kernel.memory``      memory entries                                 ``engine/memory/ops.py``
``kernel.worktrees``   sessions in git worktrees, merge back, remove  ``engine/worktrees/ops.py``
``kernel.work``        WorkItems: contract, graph, runs, decisions    ``engine/work/center.py``
=====================  =============================================  =====================================

The UI sees each area through the matching Protocol of ``ui/kernel_api.py``;
``tests/typing_checks.py`` proves this class satisfies ``KernelApi``. There are
no mixins: ``tests/engine/test_kernel_areas.py`` fails if a base class comes back.
Phases and queues belong to each session's owner (``engine/session``); events
are published after commit.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from foya_desktop.core.errors import DatabaseCorrupt
from foya_desktop.core.model import Phase
from foya_desktop.engine.agents.vp_library import VPLibrary
from foya_desktop.engine.areas.asks import Asks
from foya_desktop.engine.areas.connections import Connections, Usage
from foya_desktop.engine.areas.sessions import History, Sessions
from foya_desktop.engine.areas.tasks import Tasks
from foya_desktop.engine.areas.turns import Queue, SendReceipt, Turns
from foya_desktop.engine.areas.vps import Vps
from foya_desktop.engine.lifecycle import Lifecycle
from foya_desktop.engine.mcp.ops import Mcp
from foya_desktop.engine.memory.ops import Memory
from foya_desktop.engine.ops.recovery import repair_session
from foya_desktop.engine.project_files.ops import ProjectFiles
from foya_desktop.engine.projects import Projects
from foya_desktop.engine.search import Search
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.outside import OutsideWrites
from foya_desktop.engine.transfer.ops import Transfer
from foya_desktop.engine.turn.turns import TurnManager
from foya_desktop.engine.work.center import WorkCenter
from foya_desktop.engine.worktrees.ops import Worktrees
from foya_desktop.store import integrity

__all__ = ["Kernel", "SendReceipt"]


class Kernel:
    """Sessions, turns, queues, connections and VPs behind one async API, area by area."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.bus = svc.bus
        self.store = svc.store
        self.turn_manager = TurnManager(svc, repair=lambda sid: repair_session(svc.store, sid))
        self.vp_library = VPLibrary(svc)
        scheduler = self.turn_manager.scheduler
        self.projects = Projects(svc, scheduler)
        self.sessions = Sessions(svc, self.projects)
        self.history = History(svc)
        self.turns = Turns(svc, self.turn_manager, self.sessions)
        self.queue = Queue(self.turn_manager)
        self.asks = Asks(svc)
        self.tasks = Tasks(svc)
        self.vps = Vps(svc, self.vp_library)
        self.connections = Connections(svc)
        self.usage = Usage(svc)
        self.lifecycle = Lifecycle(svc, scheduler)
        self.worktrees = Worktrees(self.projects, self.sessions, self.lifecycle)
        self.search = Search(svc)
        self.files = ProjectFiles(svc, self.vp_library)
        self.transfer = Transfer(svc, self.projects)
        self.mcp = Mcp(svc)
        self.memory = Memory(svc)
        self.work = WorkCenter(svc, scheduler)
        self._outside: OutsideWrites | None = None

    @property
    def data_folder(self) -> Path:
        """The data folder this kernel's database lives in (``FOYA_HOME`` or the default)."""
        return self.store.home.root

    def watch_other_processes(self) -> None:
        """Tell this process's listeners what ``foya`` commands in other processes write (the window
        calls it once it shows; ``engine/session/outside.py`` says how it stays cheap)."""
        if self._outside is None:
            self._outside = OutsideWrites(self.store, self.bus,
                                          lambda sid: self.turns.phase(sid) != Phase.IDLE)
        self._outside.start()

    async def close(self) -> None:
        """Stop every turn, close HTTP clients and the database."""
        if self._outside is not None:
            await self._outside.stop()
        await self.turn_manager.scheduler.stop_all()
        await self.svc.tasks.close()
        if self.svc.mcp is not None:
            await self.svc.mcp.close()
        await self.svc.providers.aclose()
        writer = not self.store.read_only
        try:
            await self.store.close()
        except DatabaseCorrupt:
            if integrity.refusal(self.store.home.database) is None:
                raise
            # a check found the file damaged: close refused to unregister the lease (a write), so
            # close_sync's cleanup closes what is left (its own refused write is that same error)
            with contextlib.suppress(DatabaseCorrupt):
                await asyncio.to_thread(self.store.close_sync)
            return
        if writer:  # the file as this process leaves it is sound: the next open skips the full check
            await asyncio.to_thread(integrity.closed_cleanly, self.store.home)
