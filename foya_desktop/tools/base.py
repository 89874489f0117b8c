"""The tool protocol: what a tool declares, plans and returns.

The engine calls :meth:`Tool.plan` first (cheap, no side effects) to learn
what the call would touch; the approval policy decides on that plan; only
then is :meth:`Tool.run` awaited.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from foya_desktop.tools.sandbox import SandboxPolicy

ActionKind = Literal["read", "write", "exec", "ask", "other", "mcp", "memory"]
"""``mcp``: a tool of an MCP server (``tools.mcp.tool``); ``command`` holds its ``mcp__server__tool`` name.
``memory``: a write to Foya's memory (``engine.memory``); ``command`` holds the scope."""


@dataclass(frozen=True, slots=True)
class ToolContext:
    """Where and for whom a tool runs."""

    session_id: str
    workdir: Path
    """The confinement root: every path argument resolves inside it."""
    data_dir: Path
    """Foya's own data directory: always protected."""
    env: dict[str, str] = field(default_factory=dict)
    """Environment for subprocesses, already stripped of secrets."""
    ask_user: Callable[[str, tuple[str, ...]], Awaitable[str]] | None = None
    """Awaitable question to the person (AskUser); ``None`` when nobody can answer."""
    call_id: str = ""
    """The model's id of the call being run (sub-agents record where they came from)."""
    speaker: str = ""
    """The VP making the call."""
    sandbox: SandboxPolicy | None = None
    """Confinement for commands nobody approved by hand (``None``: run unconfined)."""
    redact: Callable[[str], str] | None = None
    """Replaces known secrets in text that is stored outside a tool result (background output)."""


@dataclass(frozen=True, slots=True)
class Action:
    """What a call would do, for the approval policy and the approval dialog."""

    kind: ActionKind
    summary: str
    paths: tuple[Path, ...] = ()
    """Resolved absolute paths the call touches."""
    command: str = ""
    diff: str = ""
    """Unified diff for edits, shown in the approval dialog."""
    network: bool = False
    """The call reaches the network: never approved automatically, whatever the mode (``mcp``:
    the server does not mark the tool closed-world)."""
    sensitive: bool = False
    """The call touches a secret-looking file (``.env``, keys): ask even where reads run freely."""
    auto_allow: bool = False
    """``mcp``: the server marks the tool read-only (a hint: lowers friction, bypasses no rule).
    ``exec``: the command policy classified the command ``allow`` (plain, read-only,
    confined). Computed by ``classify_command`` from the command text, never from model flags."""
    outside: bool = False
    """``exec``/``mcp``: the command or arguments name a path outside the project (never approved
    automatically, and no standing rule covers it)."""
    policy_reason: str = ""
    """``exec``/``mcp``: the command policy's (or the MCP tool's) reason, shown when the person is asked."""
    policy_parts: tuple[Mapping[str, object], ...] = ()
    """``policy_reason`` as translatable parts (``tools/shell_verdict.py`` ``reason_parts``)."""


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file changed by a file tool: content before and after (``None`` = absent)."""

    path: str
    """Path relative to the workdir, POSIX separators."""
    before: bytes | None
    after: bytes | None


@dataclass(frozen=True, slots=True)
class ToolOutput:
    """A tool's result for the model (and the timeline)."""

    content: str
    is_error: bool = False
    images: tuple[tuple[str, bytes], ...] = ()
    """(mime, bytes) pairs, stored as artifacts by the engine."""
    changes: tuple[FileChange, ...] = ()


class Tool(Protocol):
    """A callable capability with a JSON-schema signature."""

    name: str
    description: str
    parameters: dict[str, Any]

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Describe the call; raise ``ToolError`` (or ``PathOutsideProject``) for bad arguments."""
        ...

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Do it. Errors the model should see come back as ``ToolOutput(is_error=True)``."""
        ...
