"""The MCP servers of each project: started lazily, stopped when idle and at quit.

Before every model request (``request.context_window.compose``) the engine
calls :meth:`McpServers.prepare` for the session: it re-reads the config
files, starts each server that may start (user level, or trusted for the
project with nothing it runs or sends changed: ``trust``) and is not running
yet, stops those whose entry went away or changed, and tells the session once
when project servers wait for the person's trust. A server stopped while idle
is checked the same way before a call starts it again. Their tools then reach the model through
the shared ``Toolbox`` (``tools_for``), and every call goes through the same
``tool_exec`` path and approval policy as a built-in tool.

Schemas that would take more than :data:`SCHEMA_SHARE` of the connection's
context window are deferred: the model gets their names in the description of
``mcp_tool_schema`` and loads a schema by calling it; a loaded tool's schema is
sent from the next request of that session on. Servers that failed are named
there too, with their error, so the model knows why a tool is missing.

Nothing here imports the ``mcp`` SDK: ``tools.mcp.client`` is imported when the
first server starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from foya_desktop.core.events import Notice
from foya_desktop.core.model import Session
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.mcp.trust import ServerTrust, how_to_trust, listing_for, trust_report
from foya_desktop.store.store import Store
from foya_desktop.tools.base import Action, Tool, ToolContext, ToolOutput
from foya_desktop.tools.mcp.config import Expanded, Scope, ServerConfig, expand_server
from foya_desktop.tools.mcp.start_place import start_folder
from foya_desktop.tools.mcp.tool import McpTool
from foya_desktop.tools.mcp.trust_spec import Change, TrustSpec

if TYPE_CHECKING:
    from foya_desktop.tools.mcp.client import McpConnection

log = logging.getLogger(__name__)

SCHEMA_SHARE = 0.10
"""MCP tool schemas may take at most this share of the context window; beyond it they are deferred."""
IDLE_STOP_S = 600.0
"""A server nobody used for this long is stopped (it starts again on the next request)."""
IDLE_CHECK_S = 30.0
SCHEMA_TOOL = "mcp_tool_schema"

Key = tuple[Scope, str]
SecretLookup = Callable[[str], str | None]
"""``NAME`` of ``${keyring:NAME}`` → the secret (``None``: not in the keyring)."""


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """What the servers panel shows for one configured server."""

    scope: Scope
    name: str
    target: str
    trust: str
    """``user`` | ``trusted`` | ``untrusted`` | ``changed`` | ``unusable``."""
    state: str
    """``not started`` | ``starting`` | ``running`` | ``failed`` | ``stopped`` | ``waiting for trust``."""
    error: str = ""
    tools: tuple[str, ...] = ()
    source: str = ""
    warnings: tuple[str, ...] = ()
    spec: TrustSpec | None = None
    """Everything trust covers, as it is now (what the trust prompt lists)."""
    changes: tuple[Change, ...] = ()
    """What changed since the person trusted it (``trust == "changed"``)."""

    @property
    def fingerprint(self) -> str:
        """What a trust given after seeing this row is recorded for."""
        return self.spec.fingerprint if self.spec is not None else ""


@dataclass
class _Run:
    config: ServerConfig
    fingerprint: str
    conn: McpConnection | None = None
    tools: dict[str, McpTool] = field(default_factory=dict)
    last_used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


@dataclass
class _Project:
    path: str
    report: list[ServerTrust] = field(default_factory=list)
    problems: tuple[str, ...] = ()
    effective: tuple[ServerConfig, ...] = ()
    runs: dict[Key, _Run] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    deferring: bool = False


class McpServers:
    """Per-project MCP connections; one instance per kernel (``Services.mcp``)."""

    def __init__(self, store: Store, bus: EventBus, secret: SecretLookup | None = None,
                 idle_stop_s: float = IDLE_STOP_S) -> None:
        self._store = store
        self._bus = bus
        self._secret = secret or (lambda name: None)
        self.idle_stop_s = idle_stop_s
        self._projects: dict[str, _Project] = {}
        self._told: set[str] = set()
        self._loaded: dict[str, set[str]] = {}
        self._idle: asyncio.Task[None] | None = None
        self.version = 0
        """Bumped on every change of a server's state (the window's panel polls it)."""
        self._closed = False

    # ---- the turn's side --------------------------------------------------------

    async def prepare(self, session: Session, context_window: int = 128_000) -> None:
        """Bring the session's project servers up to date (start lazily, stop what went away)."""
        if self._closed or not session.project_id or not session.workdir:
            return
        proj = self._projects.setdefault(session.project_id, _Project(session.workdir))
        async with proj.lock:
            await self._refresh(session.project_id, proj)
            wanted = self._wanted(proj)
            for key, run in list(proj.runs.items()):
                if key not in wanted or run.fingerprint != wanted[key].fingerprint:
                    await self._stop_run(proj.runs.pop(key))
            starts = [self._start(proj, key, server) for key, server in wanted.items()
                      if key not in proj.runs or proj.runs[key].conn is None]
            if starts:
                await asyncio.gather(*starts)
            now = time.monotonic()
            for run in proj.runs.values():
                run.last_used = now
            tokens = sum(_spec_tokens(t) for run in proj.runs.values() for t in run.tools.values())
            proj.deferring = tokens > SCHEMA_SHARE * max(context_window, 1)
        self._tell_untrusted(session, proj)

    def tools_for(self, session: Session) -> dict[str, Tool]:
        """The MCP tools of the session's project that are up now (and the schema loader)."""
        proj = self._projects.get(session.project_id or "")
        if proj is None:
            return {}
        tools: dict[str, Tool] = {}
        for run in proj.runs.values():
            for name, tool in run.tools.items():
                tools.setdefault(name, tool)
        failed = [r for r in proj.runs.values() if r.conn is not None and r.conn.state == "failed"]
        deferred = self.deferred_for(session)
        if deferred or failed:
            tools[SCHEMA_TOOL] = _SchemaTool(self, session, sorted(deferred), failed)
        return tools

    def deferred_for(self, session: Session) -> set[str]:
        """Tool names whose schemas are left out of requests (too large a share of the context)."""
        proj = self._projects.get(session.project_id or "")
        if proj is None or not proj.deferring:
            return set()
        loaded = self._loaded.get(session.id, set())
        return {n for run in proj.runs.values() for n in run.tools if n not in loaded}

    def load_schema(self, session: Session, name: str) -> McpTool | None:
        """Mark a deferred tool loaded for ``session``; the tool, or ``None`` if there is none."""
        tool = next((r.tools[name] for r in self._runs(session) if name in r.tools), None)
        if tool is not None:
            self._loaded.setdefault(session.id, set()).add(name)
        return tool

    def _runs(self, session: Session) -> list[_Run]:
        proj = self._projects.get(session.project_id or "")
        return list(proj.runs.values()) if proj else []

    # ---- the window's and the command line's side ---------------------------------

    async def overview(self, project_id: str | None, project_dir: str | None) -> list[ServerStatus]:
        """Every configured server (user level first) with trust, state and error."""
        listing = await listing_for(self._store, project_dir)
        report = await trust_report(self._store, project_id, listing)
        proj = self._projects.get(project_id or "")
        out = []
        effective = listing.effective()
        for t in report:
            s = t.server
            run = proj.runs.get((s.scope, s.name)) if proj else None
            state, error = "not started", ""
            if t.state == "unusable":
                state, error = "failed", s.problem or ""
            elif not t.may_start:
                state = "waiting for trust"
            elif s not in effective:
                state, error = "not started", "a project server of the same name is used instead"
            elif run is not None and run.conn is not None:
                state, error = run.conn.state, run.conn.error or ""
            elif run is not None:
                state = "stopped"
            out.append(ServerStatus(s.scope, s.name, t.target, t.state, state, error,
                                    tuple(sorted(run.tools)) if run else (), str(s.source), s.warnings,
                                    t.spec, t.changes))
        out += [ServerStatus("project" if project_dir and p.startswith(str(Path(project_dir))) else "user",
                             "", "", "unusable", "failed", p) for p in listing.problems]
        return out

    async def restart(self, project_id: str, project_dir: str, scope: Scope,
                      name: str) -> ServerStatus | None:
        """Stop the server if it runs and start it again now (when it may start)."""
        proj = self._projects.setdefault(project_id, _Project(project_dir))
        async with proj.lock:
            await self._refresh(project_id, proj)
            key: Key = (scope, name)
            run = proj.runs.pop(key, None)
            if run is not None:
                await self._stop_run(run)
            server = self._wanted(proj).get(key)
            if server is not None:
                await self._start(proj, key, server)
        return next((s for s in await self.overview(project_id, project_dir)
                     if s.scope == scope and s.name == name), None)

    async def stop_project(self, project_id: str) -> None:
        """Stop every server of a project (after a revoke)."""
        proj = self._projects.pop(project_id, None)
        if proj is not None:
            async with proj.lock:
                for run in proj.runs.values():
                    await self._stop_run(run)
        self._changed()

    async def close(self) -> None:
        """Quit: stop every server and the idle watcher; nothing outlives this."""
        self._closed = True
        if self._idle is not None:
            self._idle.cancel()
            with contextlib.suppress(BaseException):
                await self._idle
            self._idle = None
        for project_id in list(self._projects):
            await self.stop_project(project_id)

    # ---- calls --------------------------------------------------------------------

    async def _call(self, project_id: str, key: Key, remote: str, args: dict[str, Any]) -> ToolOutput:
        proj = self._projects.get(project_id)
        run = proj.runs.get(key) if proj else None
        if proj is None or run is None:
            return ToolOutput(f"The MCP server {key[1]} is not configured for this project any more.",
                              is_error=True)
        run.last_used = time.monotonic()
        if run.conn is None:  # stopped while idle: start again on use, if still trusted as it was
            async with proj.lock:
                await self._refresh(project_id, proj)
                wanted = self._wanted(proj).get(key)
                if wanted is None or wanted.fingerprint != run.fingerprint:
                    return ToolOutput(f"The MCP server {key[1]} was not started again: it changed since it "
                                      f"ran, so it waits for the person's trust. {how_to_trust(proj.path)}",
                                      is_error=True)
                await self._start(proj, key, wanted)
            run = proj.runs[key]
        if run.conn is None:
            return ToolOutput(f"The MCP server {key[1]} is not running.", is_error=True)
        output = await run.conn.call(remote, args, run.config.call_timeout)
        run.last_used = time.monotonic()
        return output

    # ---- internals ------------------------------------------------------------------

    async def _refresh(self, project_id: str, proj: _Project) -> None:
        listing = await listing_for(self._store, proj.path)
        proj.report = await trust_report(self._store, project_id, listing)
        proj.problems = listing.problems
        proj.effective = listing.effective()

    def _wanted(self, proj: _Project) -> dict[Key, ServerTrust]:
        return {(t.server.scope, t.server.name): t for t in proj.report
                if t.may_start and t.server in proj.effective}

    async def _start(self, proj: _Project, key: Key, trusted: ServerTrust) -> None:
        server = trusted.server
        run = proj.runs.get(key)
        if run is None or run.fingerprint != trusted.fingerprint:
            run = proj.runs[key] = _Run(server, trusted.fingerprint)
        async with run.lock:
            if run.conn is not None and run.conn.state in ("starting", "running"):
                return
            from foya_desktop.tools.mcp.client import McpConnection  # the SDK, only now

            params, missing = await asyncio.to_thread(self._params, server)
            project = Path(proj.path)  # a user-level server never starts there (start_place)
            conn = McpConnection(server, params, start_folder(server.scope, params.cwd, project,
                                                              self._store.home.root),
                                 on_change=self._changed, project=project)
            run.conn = conn
            if missing:
                conn.state = "failed"
                conn.error = (f"the keyring holds no secret {missing!r} for its headers; store it with "
                              f"`foya mcp secret {missing}`")
                self._changed()
                return
            await conn.start()
            run.tools = {}
            project_id = next((pid for pid, p in self._projects.items() if p is proj), "")
            for remote in conn.tools:
                tool = McpTool(server.name, server.key, remote.name, remote.description, remote.schema,
                               read_only=remote.read_only,
                               open_world=remote.open_world or server.transport != "stdio",
                               caller=_bound(self, project_id, key))
                run.tools.setdefault(tool.name, tool)
            self._ensure_idle_watch()
            self._changed()

    def _params(self, server: ServerConfig) -> tuple[Expanded, str | None]:
        params = expand_server(server)
        headers: dict[str, str] = {}
        for name, raw in params.headers.items():
            value = raw
            while "${keyring:" in value:
                start = value.index("${keyring:")
                end = value.find("}", start)
                if end < 0:
                    break
                secret_name = value[start + 10:end]
                secret = self._secret(secret_name)
                if secret is None:
                    return params, secret_name
                value = value[:start] + secret + value[end + 1:]
            headers[name] = value
        return replace(params, headers=headers), None

    async def _stop_run(self, run: _Run) -> None:
        conn, run.conn = run.conn, None
        if conn is not None:
            await conn.stop()

    def _ensure_idle_watch(self) -> None:
        if self._idle is None or self._idle.done():
            self._idle = asyncio.create_task(self._watch_idle(), name="mcp-idle")

    async def _watch_idle(self) -> None:
        while not self._closed:
            await asyncio.sleep(min(IDLE_CHECK_S, self.idle_stop_s))
            await self.stop_idle()

    async def stop_idle(self) -> int:
        """Stop the servers unused for ``idle_stop_s``; how many were stopped."""
        now, stopped = time.monotonic(), 0
        for proj in list(self._projects.values()):
            for run in list(proj.runs.values()):
                if run.conn is not None and run.conn.state == "running" \
                        and now - run.last_used >= self.idle_stop_s:
                    log.info("stopping idle MCP server %s", run.config.name)
                    await self._stop_run(run)
                    stopped += 1
        if stopped:
            self._changed()
        return stopped

    def _changed(self) -> None:
        self.version += 1

    def _tell_untrusted(self, session: Session, proj: _Project) -> None:
        waiting = [t for t in proj.report
                   if t.server.scope == "project" and t.state in ("untrusted", "changed")]
        if not waiting or session.id in self._told:
            return
        self._told.add(session.id)
        names = ", ".join(f"{t.server.name} ({t.target})" + (" — changed since you trusted it"
                                                              if t.state == "changed" else "")
                          for t in waiting)
        self._bus.publish(Notice(session.id, "warning",
                                 f"This project's .mcp.json configures MCP servers you have not trusted, so "
                                 f"none of them started: {names}. {how_to_trust(proj.path)}",
                                 "mcp_untrusted", {"servers": [t.server.name for t in waiting],
                                                   "project": proj.path}))


def _bound(servers: McpServers, project_id: str, key: Key) -> Callable[[str, dict[str, Any]], Any]:
    async def call(remote: str, args: dict[str, Any]) -> ToolOutput:
        return await servers._call(project_id, key, remote, args)
    return call


def _spec_tokens(tool: McpTool) -> int:
    return (len(tool.name) + len(tool.description) + len(json.dumps(tool.parameters))) // 4


class _SchemaTool:
    """``mcp_tool_schema``: the deferred MCP tools by name, and the servers that failed."""

    name = SCHEMA_TOOL

    def __init__(self, servers: McpServers, session: Session, deferred: list[str],
                 failed: list[_Run]) -> None:
        self.parameters: dict[str, Any] = {"type": "object", "required": ["tool"], "properties": {
            "tool": {"type": "string",
                     "description": "The full name of a deferred MCP tool (mcp__server__tool)."}}}
        self._servers = servers
        self._session = session
        lines = ["Loads the schema of an MCP tool whose schema was left out of the request to save "
                 f"context (MCP schemas may take at most {int(SCHEMA_SHARE * 100)}% of the context window). "
                 "Call it with the tool's name before calling that tool."]
        if deferred:
            lines.append("Deferred tools: " + ", ".join(deferred) + ".")
        for run in failed:
            assert run.conn is not None
            lines.append(f"The MCP server {run.config.name} is not available: "
                         f"{(run.conn.error or '').splitlines()[0] if run.conn.error else 'it failed'}.")
        self.description = "\n".join(lines)

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        return Action(kind="other", summary=f"load the schema of {args.get('tool', '?')}")

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        name = str(args.get("tool", ""))
        tool = self._servers.load_schema(self._session, name)
        if tool is None:
            return ToolOutput(f"No MCP tool named {name!r} is available in this project.", is_error=True)
        return ToolOutput(json.dumps({"name": tool.name, "description": tool.description,
                                      "parameters": tool.parameters}, ensure_ascii=False)
                          + "\nIts schema is loaded: call the tool now.")
