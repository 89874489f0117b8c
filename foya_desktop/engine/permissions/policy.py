"""Approval policy: what happens to a planned action before any person is asked.

The policy maps (action, mode, grants) to allow / ask / deny. Outside-workdir
paths, protected paths and network-fetching commands are never auto-approved
in any mode. ``ask`` goes to the approval broker (``engine/asks/approvals.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.permissions.secrets import command_names_secret
from foya_desktop.tools import sandbox
from foya_desktop.tools.base import Action
from foya_desktop.tools.paths import is_secret_looking
from foya_desktop.tools.shell_policy import normalise_command

Decision = Literal["allow", "ask", "deny"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The policy's decision with a reason a person can read."""

    decision: Decision
    reason: str
    confine: bool = False
    """Run a command allowed without the person inside the Landlock sandbox."""
    code: str = ""
    """``reason``'s stable code (``core/error_codes.py`` APPROVAL_REASONS) so a window can translate it."""
    params: Mapping[str, object] = field(default_factory=dict)
    """The values ``reason`` was built from (``parts``: the command policy's reason parts)."""


def grant_key(action: Action, workdir: Path) -> str | None:
    """The exact, narrow key a grant or rule for this action is stored under.

    Commands: the normalised single simple command (``git status`` never
    matches ``git status > x``). Writes: the exact relative path. ``None``
    when no narrow key exists (pipelines, compound commands).
    """
    if action.kind == "exec":
        norm = normalise_command(action.command)
        return f"cmd:{norm}" if norm else None
    if action.kind == "mcp":
        return f"mcp:{action.command}" if not action.outside else None
    if action.kind == "memory":
        return f"memory:{action.command}"
    if action.kind == "write" and len(action.paths) == 1:
        try:
            return f"write:{action.paths[0].relative_to(workdir).as_posix()}"
        except ValueError:
            return None
    return None


def session_key(action: Action, workdir: Path) -> str | None:
    """The key "Allow for this session" keeps: the narrow :func:`grant_key`, or — for a command
    no narrow key describes (a chain, a pipeline, a redirection) — its exact command line. A
    session grant is never kept (docs/privacy-security.md "Approvals and safety": until the app
    quits), so the exact line the person read is narrow enough; ``Always`` still needs a narrow
    key. ``None`` when no
    session grant would ever be honoured, so the card greys the button and says why: a network
    command asks every time, a secret-looking read or a write of several files has no key."""
    if action.network and action.kind != "mcp":
        return None
    key = grant_key(action, workdir)
    if key is None and action.kind == "exec" and action.command.strip():
        return f"line:{action.command}"
    return key


def decide(action: Action, mode: ApprovalMode, workdir: Path, grants: set[str], *,
           planning: bool = False) -> Verdict:
    """Policy: what to do with a planned action before any person is asked (``planning``: the
    session is in plan mode or waiting for its plan's confirmation)."""
    if action.kind in ("ask", "other"):
        return Verdict("allow", "no side effects outside Foya")
    if action.kind == "mcp":
        return _mcp(action, mode, workdir, grants)
    if action.kind == "memory":
        return _memory(action, mode, planning, workdir, grants)
    if action.kind == "read":
        if any(is_secret_looking(p) for p in action.paths):
            return Verdict("ask", "the file looks like it holds secrets", code="secret_file")
        return Verdict("allow", "read inside the project")
    if mode == ApprovalMode.READ_ONLY:
        return Verdict("deny", "the session is in read-only mode", code="read_only_mode")
    verdict = _write_or_exec(action, mode)
    if verdict.decision == "ask" and not action.network:
        key = session_key(action, workdir)
        if key is not None and key in grants:
            return Verdict("allow", "allowed earlier by the person")
    return verdict


def _mcp(action: Action, mode: ApprovalMode, workdir: Path, grants: set[str]) -> Verdict:
    """An MCP server's tool: ask unless the person made a rule for this very tool.

    The server's read-only hint lets a closed-world tool run without asking in the
    auto modes; it never lets through arguments naming paths outside the project,
    and a standing rule never covers those either (``grant_key`` gives none).
    """
    if mode == ApprovalMode.READ_ONLY:
        return Verdict("deny", "the session is in read-only mode", code="read_only_mode")
    reason = action.policy_reason or "MCP tools need approval"
    parts = {"parts": action.policy_parts or (_part("mcp_needs_approval", reason),)}
    if action.outside:
        return Verdict("ask", f"{reason}; its arguments name a path outside the project",
                       code="mcp_outside", params=parts)
    key = grant_key(action, workdir)
    if key is not None and key in grants:
        return Verdict("allow", "allowed earlier by the person")
    if action.auto_allow and not action.network and mode in (ApprovalMode.AUTO_EDIT, ApprovalMode.AUTO):
        return Verdict("allow", f"{mode} mode: the server marks the tool read-only and local")
    return Verdict("ask", reason, code="mcp_policy", params=parts)


def _memory(action: Action, mode: ApprovalMode, planning: bool, workdir: Path,
            grants: set[str]) -> Verdict:
    """A memory write (a save, or ``forget``). Memory outlives the session, so while the session
    may change nothing (read-only, plan mode) every write is asked like a file write — and, with
    nobody to ask (``foya run``), refused. Otherwise a VP's own scopes and the session's are low
    risk (each save is shown with an undo; VP-scope saves also as a notice, they reach every
    project); the user scope reaches every future session of every VP, so it asks in every mode."""
    key = grant_key(action, workdir)
    allowed_before = key is not None and key in grants
    if mode == ApprovalMode.READ_ONLY or planning:
        if allowed_before:
            return Verdict("allow", "allowed earlier by the person")
        if mode == ApprovalMode.READ_ONLY:
            return Verdict("ask", "the session is read-only: changing memory, which outlives it, needs "
                                  "approval", code="memory_read_only")
        return Verdict("ask", "the session is in plan mode: changing memory, which outlives it, needs "
                              "approval", code="memory_plan_mode")
    if action.command != "user":
        return Verdict("allow", "memory of this VP or this session (shown with an undo)")
    if allowed_before:
        return Verdict("allow", "allowed earlier by the person")
    return Verdict("ask", "saving to the person's own memory (seen in every session) needs approval",
                   code="memory_user_scope")


def _write_or_exec(action: Action, mode: ApprovalMode) -> Verdict:
    if action.kind == "write":
        if any(is_secret_looking(p) for p in action.paths):
            return Verdict("ask", "the file looks like it holds secrets", code="secret_file")
        if mode in (ApprovalMode.AUTO_EDIT, ApprovalMode.AUTO):
            return Verdict("allow", f"file edits are allowed in {mode} mode")
        return Verdict("ask", "file changes need approval in ask mode", code="file_change_ask_mode")
    # The command policy already ran in the tool's plan (a "deny" never gets here).
    reason = action.policy_reason or "commands need approval"
    parts = {"parts": action.policy_parts or (_part("commands_need_approval", reason),)}
    if action.sensitive or command_names_secret(action.command):
        return Verdict("ask", "the command names a file that looks like it holds secrets",
                       code="command_names_secret")
    if action.network:
        return Verdict("ask", "the command uses the network", code="command_uses_network")
    if action.outside:
        return Verdict("ask", reason, code="command_policy", params=parts)
    if action.auto_allow:
        return Verdict("allow", reason, confine=sandbox.available())
    if mode == ApprovalMode.AUTO:
        why_not = sandbox.support()
        if why_not is None:
            return Verdict("allow", "auto mode: the command runs confined to the project", confine=True)
        return Verdict("ask", f"{reason}; auto mode runs commands confined, but {why_not}, so Foya asks",
                       code="auto_mode_unconfined", params={**parts, "why_not": why_not})
    return Verdict("ask", reason, code="command_policy", params=parts)


def _part(code: str, text: str) -> dict[str, object]:
    """A reason part (as ``tools/shell_verdict.reason_part`` builds them) for the policy's own defaults."""
    return {"code": code, "params": {}, "text": text}
