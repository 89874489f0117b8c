"""An MCP server's tool as a Foya tool: ``mcp__<server>__<tool>``, planned like any other.

The plan is an ``mcp`` action that the approval policy decides like every
built-in call (``engine/permissions/policy.py``): ask by default, a narrow
"always for this project" rule per tool. The server's ``readOnlyHint`` only
lowers friction; a string argument that names a path outside the project, or
a tool the server does not mark closed-world, is never let through by a hint.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.mcp.config import tool_name_part

Caller = Callable[[str, dict[str, Any]], Awaitable[ToolOutput]]
"""(remote tool name, arguments) → output; bound to one server by the engine."""

MAX_DESCRIPTION = 2_000


def mcp_tool_name(server_key: str, tool: str) -> str:
    """The name the model sees (at most 64 characters, as providers require)."""
    return f"mcp__{server_key}__{tool_name_part(tool)}"[:64]


class McpTool:
    """One remote tool; ``run`` goes to the server through ``caller``."""

    def __init__(self, server: str, server_key: str, remote_name: str, description: str,
                 schema: dict[str, Any], *, read_only: bool, open_world: bool, caller: Caller) -> None:
        self.server = server
        self.remote_name = remote_name
        self.name = mcp_tool_name(server_key, remote_name)
        text = description[:MAX_DESCRIPTION] or f"The {remote_name} tool of the MCP server {server}."
        self.description = f"[MCP server {server}] {text}"
        self.parameters = schema if schema.get("type") == "object" else {"type": "object", "properties": {}}
        self.read_only = read_only
        self.open_world = open_world
        self._caller = caller

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """An ``mcp`` action; paths in the arguments outside the project are named."""
        outside = tuple(outside_paths(args, ctx.workdir))
        brief = json.dumps(args, ensure_ascii=False)
        if len(brief) > 300:
            brief = brief[:300] + "…"
        hints = []
        if self.read_only:
            hints.append("the server marks it read-only")
        if self.open_world:
            hints.append("it may reach beyond this computer")
        reason = f"MCP tool {self.remote_name} of the server {self.server}" + \
            (f" ({'; '.join(hints)})" if hints else "")
        return Action(kind="mcp", summary=f"{self.server}: {self.remote_name} {brief}", paths=outside,
                      command=self.name, network=self.open_world, auto_allow=self.read_only,
                      outside=bool(outside), policy_reason=reason,
                      policy_parts=({"code": "mcp_tool", "text": reason, "params": {
                          "tool": self.remote_name, "server": self.server, "read_only": self.read_only,
                          "open_world": self.open_world}},))

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Call the server (errors come back as error outputs, never raise)."""
        return await self._caller(self.remote_name, args)


def outside_paths(value: object, workdir: Path) -> list[Path]:
    """Every string in ``value`` that looks like a filesystem path and lies outside ``workdir``."""
    found: list[Path] = []
    root = Path(os.path.realpath(workdir))

    def visit(item: object) -> None:
        if isinstance(item, dict):
            for v in item.values():
                visit(v)
        elif isinstance(item, (list, tuple)):
            for v in item:
                visit(v)
        elif isinstance(item, str):
            path = _as_path(item, root)
            if path is not None and not path.is_relative_to(root):
                found.append(path)

    visit(value)
    return found


def _as_path(text: str, root: Path) -> Path | None:
    text = text.strip()
    if text.startswith("file://"):
        text = text[7:]
    if "\n" in text or len(text) > 4096 or not text:
        return None
    if text.startswith(("/", "~")):
        return Path(os.path.realpath(os.path.expanduser(text)))
    if text == ".." or text.startswith("../") or "/../" in text:
        return Path(os.path.realpath(root / text))
    return None
