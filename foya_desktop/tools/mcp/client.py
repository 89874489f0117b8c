"""One MCP server connection through the official ``mcp`` SDK.

Imported only when a configured, trusted server starts (``engine.mcp``), never
on start-up: the SDK pulls in pydantic, anyio and starlette.

The SDK's transports are anyio context managers that must be entered and left
in the same task, so each connection is one long-lived task (``_serve``) that
holds the transport and the ``ClientSession`` until :meth:`stop`; calls from
turns are requests on that session. A stdio server is started through Foya's
exec wrapper (``sandbox.wrap_argv`` without a policy): its own PID namespace
and a parent-death signal, so it dies with Foya even when Foya is killed, and
the SDK kills its process group when the connection stops. Its environment is a
minimal base plus what its entry names (``environment``); where it starts and its
``PATH`` follow ``start_place`` (a user-level one never in the project). Its stderr goes to
the log (``foya_desktop.mcp.<server>``) and its last lines into error messages.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import collections
import contextlib
import json
import logging
import os
import threading
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal, TextIO, cast

import httpx
from mcp import ClientSession, McpError, StdioServerParameters, types
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from foya_desktop.tools.base import ToolOutput
from foya_desktop.tools.mcp.config import Expanded, ServerConfig
from foya_desktop.tools.mcp.environment import server_environment
from foya_desktop.tools.mcp.shell_path import CommandNotFound, resolve_command, search_path
from foya_desktop.tools.mcp.start_place import start_path
from foya_desktop.tools.sandbox import wrap_argv

State = Literal["starting", "running", "failed", "stopped"]
STDERR_LINES = 20
MAX_RESULT_CHARS = 100_000


@dataclass(frozen=True, slots=True)
class RemoteTool:
    """A tool as the server lists it."""

    name: str
    description: str
    schema: dict[str, Any]
    read_only: bool
    """The server's ``readOnlyHint`` (a hint: it lowers friction, never bypasses a rule)."""
    open_world: bool
    """The server's ``openWorldHint`` (default true: the tool may reach outside the machine)."""


class McpConnection:
    """A started (or failed) server; :meth:`call` runs one tool, :meth:`stop` ends it for good."""

    def __init__(self, server: ServerConfig, params: Expanded, cwd: Path,
                 on_change: Callable[[], None] | None = None, *, project: Path | None = None) -> None:
        self.server = server
        self._params = params
        self._cwd = cwd
        self._project = project or cwd
        """The project folder (``start_place.start_path`` keeps a user-level server's PATH out of it)."""
        self._on_change = on_change or (lambda: None)
        self.state: State = "starting"
        self.error: str | None = None
        self.tools: tuple[RemoteTool, ...] = ()
        self._session: ClientSession | None = None
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._task: asyncio.Task[None] | None = None
        self._stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._log = logging.getLogger(f"foya_desktop.mcp.{server.key}")

    # ---- lifecycle ------------------------------------------------------------

    async def start(self) -> None:
        """Connect, initialise and list the tools; on failure ``state`` is ``failed`` with ``error``."""
        self._task = asyncio.create_task(self._serve(), name=f"mcp:{self.server.name}")
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), self.server.startup_timeout)
        except TimeoutError:
            self._fail(f"did not answer within {self.server.startup_timeout:g} s of starting")
            await self.stop(keep_state=True)
        except Exception as exc:
            self._log.debug("start failed: %s", exc)

    async def stop(self, *, keep_state: bool = False) -> None:
        """End the connection (and the process); waits until the SDK has cleaned up."""
        self._stop.set()
        task, self._task = self._task, None
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), 10)
            except (TimeoutError, Exception):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        self._session = None
        if not keep_state and self.state != "failed":
            self.state = "stopped"
        self._on_change()

    async def _serve(self) -> None:
        errlog: TextIO | None = None
        try:
            async with AsyncExitStack() as stack:
                if self.server.transport == "stdio":
                    errlog = await asyncio.to_thread(self._stderr_pipe)
                    params = await asyncio.to_thread(self._stdio_params)
                    read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
                elif self.server.transport == "http":
                    http = await stack.enter_async_context(httpx.AsyncClient(
                        headers=self._params.headers,
                        timeout=httpx.Timeout(self.server.startup_timeout, read=300)))
                    read, write, _ = await stack.enter_async_context(
                        streamable_http_client(self._params.url, http_client=http))
                else:
                    read, write = await stack.enter_async_context(sse_client(
                        self._params.url, headers=self._params.headers,
                        timeout=self.server.startup_timeout))
                session = await stack.enter_async_context(ClientSession(
                    read, write, read_timeout_seconds=timedelta(seconds=self.server.startup_timeout)))
                await session.initialize()
                self.tools = await _list_tools(session)
                self._session = session
                self.state, self.error = "running", None
                self._resolve_ready()
                self._on_change()
                await self._stop.wait()
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            self._fail(_describe(exc))
        finally:
            self._session = None
            if errlog is not None:
                with contextlib.suppress(OSError):
                    errlog.close()
            self._resolve_ready()

    def _resolve_ready(self) -> None:
        if not self._ready.done():
            self._ready.set_result(None)

    def _fail(self, why: str) -> None:
        if self.state == "failed":
            return
        tail = self.stderr_tail()
        self.state = "failed"
        self.error = f"{why}" + (f"\nIts last error output:\n{tail}" if tail else "")
        self._log.warning("MCP server %s failed: %s", self.server.name, self.error)
        self._on_change()

    def _stdio_params(self) -> StdioServerParameters:
        path = start_path(self.server.scope, search_path(), self._project)
        if not self._cwd.is_dir():
            raise _StartRefused(f"The folder it starts in, {self._cwd} (its \"cwd\"), does not exist.")
        try:
            command = resolve_command(self._params.command, path, self._cwd)
        except CommandNotFound as exc:
            raise _StartRefused(str(exc)) from None
        argv = wrap_argv([command, *self._params.args], None)
        env = server_environment(path, self._params.env)
        return StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=self._cwd)

    def _stderr_pipe(self) -> TextIO:
        """A pipe for the server's stderr: a thread logs each line and keeps the last ones."""
        read_fd, write_fd = os.pipe()

        def pump() -> None:
            with os.fdopen(read_fd, "r", encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    text = line.rstrip()
                    if text:
                        self._stderr.append(text)
                        self._log.info("%s", text)

        threading.Thread(target=pump, name=f"mcp-stderr:{self.server.name}", daemon=True).start()
        return cast(TextIO, os.fdopen(write_fd, "w"))

    def stderr_tail(self) -> str:
        """The server's last lines of error output."""
        return "\n".join(self._stderr)

    # ---- calls ------------------------------------------------------------------

    async def call(self, tool: str, arguments: dict[str, Any], limit_s: float) -> ToolOutput:
        """Run one tool; every failure (timeout, dead server, server error) is an error output."""
        session = self._session
        if session is None or self.state != "running":
            return ToolOutput(self.unavailable(), is_error=True)
        timeout = limit_s
        try:
            result = await asyncio.wait_for(
                session.call_tool(tool, arguments, read_timeout_seconds=timedelta(seconds=timeout)),
                timeout + 1)
        except (TimeoutError, McpError) as exc:
            if isinstance(exc, McpError) and exc.error.code == types.CONNECTION_CLOSED:
                self._fail("stopped unexpectedly (the connection closed)")
                await self.stop(keep_state=True)
                return ToolOutput(self.unavailable(), is_error=True)
            if isinstance(exc, TimeoutError) or "timed out" in str(exc).lower():
                return ToolOutput(f"The MCP server {self.server.name} did not answer {tool} within "
                                  f"{timeout:g} s (its per-call timeout); the call was abandoned.",
                                  is_error=True)
            return ToolOutput(f"The MCP server {self.server.name} refused {tool}: {exc}", is_error=True)
        except Exception as exc:
            self._fail(f"stopped unexpectedly ({_describe(exc)})")
            await self.stop(keep_state=True)
            return ToolOutput(self.unavailable(), is_error=True)
        return to_output(result)

    def unavailable(self) -> str:
        """The sentence a call into a server that is not running returns."""
        why = self.error or "it is not running"
        return (f"The MCP server {self.server.name} is not available: {why}\n"
                "The person can restart it from the MCP servers panel.")


class _StartRefused(Exception):
    """A start that cannot work (command not found): its message is the whole story."""


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        inner = [e for e in exc.exceptions if not isinstance(e, asyncio.CancelledError)]
        if inner:
            return _describe(inner[0])
    if isinstance(exc, _StartRefused):
        return str(exc)
    if isinstance(exc, FileNotFoundError):
        return f"could not start: {exc.strerror}: {exc.filename}"
    if isinstance(exc, McpError) and exc.error.code == types.CONNECTION_CLOSED:
        return "the server closed the connection while starting"
    name = type(exc).__name__
    text = str(exc).strip()
    return f"could not start ({name}{': ' + text if text else ''})"


async def _list_tools(session: ClientSession) -> tuple[RemoteTool, ...]:
    out: list[RemoteTool] = []
    cursor: str | None = None
    for _ in range(50):
        page = await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor)) \
            if cursor else await session.list_tools()
        for tool in page.tools:
            notes = tool.annotations
            out.append(RemoteTool(
                name=tool.name, description=(tool.description or "").strip(),
                schema=dict(tool.inputSchema or {"type": "object", "properties": {}}),
                read_only=bool(notes is not None and notes.readOnlyHint),
                open_world=notes is None or notes.openWorldHint is not False))
        cursor = page.nextCursor
        if not cursor:
            break
    return tuple(out)


def to_output(result: types.CallToolResult) -> ToolOutput:
    """The model-facing text (and images) of a tool result."""
    texts: list[str] = []
    images: list[tuple[str, bytes]] = []
    for item in result.content:
        if isinstance(item, types.TextContent):
            texts.append(item.text)
        elif isinstance(item, types.ImageContent):
            try:
                images.append((item.mimeType, base64.b64decode(item.data, validate=True)))
            except (binascii.Error, ValueError):
                texts.append(f"[an image the server sent could not be decoded ({item.mimeType})]")
        elif isinstance(item, types.EmbeddedResource):
            res = item.resource
            texts.append(res.text if isinstance(res, types.TextResourceContents)
                         else f"[binary resource {res.uri} ({res.mimeType or 'unknown type'})]")
        elif isinstance(item, types.ResourceLink):
            texts.append(f"[resource {item.uri}]")
        else:
            texts.append(f"[{item.type} content]")
    if not texts and result.structuredContent is not None:
        texts.append(json.dumps(result.structuredContent, ensure_ascii=False))
    text = "\n".join(texts)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + f"\n[… {len(text) - MAX_RESULT_CHARS} characters truncated …]"
    return ToolOutput(text or ("(no output)" if not images else ""), is_error=bool(result.isError),
                      images=tuple(images))
