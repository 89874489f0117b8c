"""Running one tool call: plan → policy/approval → run → result message.

A tool failure becomes an error *result* the model can read; only a person
rejecting without feedback stops the turn (``TurnStopped``). So does a call the
model got wrong — an unknown tool, arguments that are not JSON or break the
tool's schema (``call_checks``): it is blocked, and the model is told why.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from foya_desktop.core.errors import FoyaError, ToolError
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import ImagePart, Message, ToolCallPart, ToolResultPart
from foya_desktop.core.model import VP, Session
from foya_desktop.engine.asks.approvals import Answer
from foya_desktop.engine.asks.questions import QuestionUnanswered, new_question
from foya_desktop.engine.mcp.write_guard import CODE as RUNS_TRUSTED_FILE
from foya_desktop.engine.mcp.write_guard import guard_run_files, read_only_run_files
from foya_desktop.engine.permissions.policy import Verdict, decide, grant_key, session_key
from foya_desktop.engine.permissions.secrets import known_secrets, scrub
from foya_desktop.engine.permissions.toolbox import planning
from foya_desktop.engine.request.context import INTERRUPTED_RESULT
from foya_desktop.engine.services import Services
from foya_desktop.engine.turn import call_checks
from foya_desktop.engine.turn.tree_scan import changed_paths, scan_tree
from foya_desktop.store.artifacts import put_artifact
from foya_desktop.store.catalog import add_project_rule, project_rules
from foya_desktop.tools import exposure
from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.process import private_tmp
from foya_desktop.tools.sandbox import SandboxPolicy
from foya_desktop.tools.shell import scrub_env

log = logging.getLogger(__name__)


class TurnStopped(FoyaError):
    """The person rejected a tool call without feedback: the turn ends here."""


@dataclass
class ToolRun:
    """A finished call: the result message and the file changes to record with it."""

    message: Message
    changes: list[tuple[str, str | None, str | None, str]] = field(default_factory=list)
    """(relative path, before sha, after sha, ``tool`` | ``command``)."""
    blocked: bool = False
    """Refused before it ran (policy, denial, read-only, plan mode, bad arguments): a failure,
    never an execution (Yeaft seed Y44)."""
    malformed: bool = False
    """The model got the call itself wrong (unknown tool, unreadable arguments, against the
    schema): blocked, and told so. A run of steps of nothing else ends at the step limit with
    its own sentence (``runner``)."""


Unreadable = tuple[str, str]
"""Why a call's arguments could not be read, and (the start of) what the model sent."""


async def run_tool_call(svc: Services, session: Session, vp: VP, turn_id: str,
                        call: ToolCallPart, unreadable: Unreadable | None = None) -> ToolRun:
    """Execute ``call`` under the session's approval rules (``unreadable``: its arguments could
    not be read, so it is not run: the model is told why)."""
    tool = svc.tools.get(call.name, session)
    if tool is None:
        return _malformed(session, vp, turn_id, call,
                          call_checks.unknown_tool(call.name, svc.tools.names_for(session, vp)))
    unavailable = svc.tools.refusal(session, vp, call.name)
    if unavailable is not None:
        return _result(session, vp, turn_id, call, ToolOutput(unavailable, is_error=True), blocked=True)
    if unreadable is not None:
        return _malformed(session, vp, turn_id, call,
                          call_checks.unreadable_arguments(call.name, *unreadable, tool.parameters))
    problem = await asyncio.to_thread(call_checks.schema_problem, tool.parameters, call.arguments)
    if problem is not None:
        return _malformed(session, vp, turn_id, call,
                          call_checks.against_schema(call.name, problem, tool.parameters))
    ctx = replace(tool_context(session, svc, _asker(svc, session, vp, call, turn_id)),
                  call_id=call.call_id, speaker=vp.id)
    try:
        action = tool.plan(dict(call.arguments), ctx)
    except ToolError as exc:
        return _result(session, vp, turn_id, call, ToolOutput(str(exc), is_error=True), blocked=True)
    refusal, approved, confine = await _authorise(svc, session, vp, call, action)
    if refusal is None and confine and action.kind == "exec":
        run_files = await read_only_run_files(svc.store, session)
        ctx, why_not = await asyncio.to_thread(_confined, ctx, svc, session, run_files)
        if why_not is not None:
            reason = action.policy_reason or "a command"
            refusal, approved = await _ask(svc, session, vp, call, action, Verdict(
                "ask", f"{reason}; Foya cannot confine it because {why_not}, so it asks",
                code="cannot_confine", params={"parts": action.policy_parts or (
                    {"code": "", "params": {}, "text": reason},), "why_not": why_not}))
    if refusal is not None:
        return _result(session, vp, turn_id, call, refusal, blocked=True)
    before = await asyncio.to_thread(scan_tree, ctx.workdir) if action.kind == "exec" else None
    output = await _run(tool.run, dict(call.arguments), ctx)
    if not (approved and action.kind == "read"):
        output = await asyncio.to_thread(_scrubbed, output, ctx.workdir, svc.providers.key_values)
    run = await _stored(svc, session, vp, turn_id, call, output)
    if before is not None:
        after = await asyncio.to_thread(scan_tree, ctx.workdir)
        run.changes += [(path, None, None, "command") for path in changed_paths(before, after)]
    return run


def tool_context(session: Session, svc: Services, asker: Asker | None = None) -> ToolContext:
    """The confinement and environment for tools in ``session``."""
    keys = svc.providers.key_values
    workdir = Path(session.workdir)
    env = scrub_env(dict(os.environ), svc.providers.key_env_names, keys)
    return ToolContext(session_id=session.id, workdir=workdir, data_dir=svc.store.home.root, env=env,
                       ask_user=asker, redact=lambda text: scrub(text, known_secrets(workdir) | keys))


Asker = Callable[[str, tuple[str, ...]], Awaitable[str]]


def _asker(svc: Services, session: Session, vp: VP, call: ToolCallPart, turn_id: str) -> Asker:
    """The AskUser hook for one call: the question broker, errors as ``ToolError``."""
    async def ask(question: str, choices: tuple[str, ...]) -> str:
        try:
            asked = new_question(session.id, vp.id, call.call_id, question, choices, turn_id)
            return await svc.questions.ask(asked)
        except QuestionUnanswered as exc:
            raise ToolError(exc.reason) from None
    return ask


def _scrubbed(output: ToolOutput, workdir: Path, keys: set[str]) -> ToolOutput:
    """The output with known secret values and the connections' keys replaced (see ``secrets``)."""
    secrets = known_secrets(workdir) | keys
    content = scrub(output.content, secrets)
    return output if content == output.content else replace(output, content=content)


def _confined(ctx: ToolContext, svc: Services, session: Session,
              run_files: tuple[Path, ...] = ()) -> tuple[ToolContext, str | None]:
    """The context with a sandbox (see ``tools.exposure``), or why the project cannot be confined;
    ``run_files`` (what trusted MCP servers run: ``mcp.write_guard``) stay read-only too."""
    tmp = private_tmp(session.id)
    env = {**ctx.env, "TMPDIR": str(tmp), "TMP": str(tmp), "TEMP": str(tmp)}
    found = exposure.scan(ctx.workdir, ctx.data_dir)
    policy = SandboxPolicy(writable=(ctx.workdir, tmp), read_only=(*found.read_only, *run_files),
                           hidden=tuple(found.hidden))
    return replace(ctx, env=env, sandbox=policy), found.incomplete


async def _authorise(svc: Services, session: Session, vp: VP, call: ToolCallPart,
                     action: Action) -> tuple[ToolOutput | None, bool, bool]:
    """(refusal or ``None``, approved by the person, run confined); may raise ``TurnStopped``."""
    workdir = Path(session.workdir)
    grants = svc.grants.get(session.id, set())
    if session.project_id:
        grants = grants | await svc.store.read(project_rules, session.project_id)
    verdict = decide(action, session.approval_mode, workdir, grants, planning=planning(session))
    verdict = await guard_run_files(svc.store, session, action, verdict)
    if verdict.decision == "allow":
        return None, False, verdict.confine
    if verdict.decision == "deny":
        return ToolOutput(f"Not allowed: {verdict.reason}.", is_error=True), False, False
    refusal, approved = await _ask(svc, session, vp, call, action, verdict)
    return refusal, approved, False


async def _ask(svc: Services, session: Session, vp: VP, call: ToolCallPart, action: Action,
               verdict: Verdict) -> tuple[ToolOutput | None, bool]:
    """Ask the person; (refusal or ``None``, approved). May raise ``TurnStopped``."""
    key = grant_key(action, Path(session.workdir))
    # a run file asks in every mode: no grant is honoured for it, so none is offered
    for_session = session_key(action, Path(session.workdir)) if verdict.code != RUNS_TRUSTED_FILE else None
    answer = await svc.approvals.ask(session.id, vp.id, call, action, verdict.reason,
                                     code=verdict.code, params=verdict.params,
                                     can_always=key is not None and session.project_id is not None
                                     and verdict.code != RUNS_TRUSTED_FILE
                                     and (not action.network or action.kind == "mcp"),
                                     can_session=for_session is not None)
    refusal = await _apply_answer(svc, session, answer, key, for_session)
    return refusal, refusal is None


async def _apply_answer(svc: Services, session: Session, answer: Answer,
                        key: str | None, for_session: str | None) -> ToolOutput | None:
    if answer.kind == "deny":
        if not answer.feedback:
            raise TurnStopped("The person rejected the tool call.")
        return ToolOutput(f"The person rejected this call: {answer.feedback}", is_error=True)
    if answer.kind == "session" and for_session:
        svc.grants.setdefault(session.id, set()).add(for_session)
    if answer.kind == "always" and key and session.project_id:
        await svc.store.write(add_project_rule, session.project_id, key)
    return None


async def _run(fn: object, args: dict[str, object], ctx: ToolContext) -> ToolOutput:
    try:
        return await fn(args, ctx)  # type: ignore[operator, no-any-return]
    except ToolError as exc:
        return ToolOutput(str(exc), is_error=True)
    except Exception as exc:
        log.exception("tool crashed")
        return ToolOutput(f"The tool failed: {type(exc).__name__}: {exc}", is_error=True)


async def _stored(svc: Services, session: Session, vp: VP, turn_id: str, call: ToolCallPart,
                  output: ToolOutput) -> ToolRun:
    images = tuple([ImagePart(await svc.store.write(put_artifact, svc.store.files, data, mime), mime)
                    for mime, data in output.images])
    changes = []
    for change in output.changes:
        blob = "application/octet-stream"
        before = await svc.store.write(put_artifact, svc.store.files, change.before, blob) \
            if change.before is not None else None
        after = await svc.store.write(put_artifact, svc.store.files, change.after, blob) \
            if change.after is not None else None
        changes.append((change.path, before, after, "tool"))
    run = _result(session, vp, turn_id, call, output, images)
    run.changes = changes
    return run


DENIED_RESULT = "The person rejected this tool call, so it did not run; the turn stopped."
NOT_RUN_RESULT = ("The turn stopped before this tool call started, so it did not run. Call it again "
                  "if it is still needed.")
ClosedHow = Literal["interrupted", "denied", "not_started"]
"""How a call ended without running to completion; kept in the result's meta (the window says it)."""
_CLOSED_TEXT: dict[str, str] = {"interrupted": INTERRUPTED_RESULT, "denied": DENIED_RESULT,
                                "not_started": NOT_RUN_RESULT}


def interrupted_result(session: Session, vp: VP, turn_id: str, call: ToolCallPart,
                       how: ClosedHow = "interrupted") -> Message:
    """The result recorded for a call whose turn stopped while it ran, was rejected, or never got to it.

    Every call gets a result, so no call stays open ("running…") once its turn is over, and the
    next request tells the model what really happened.
    """
    # a rejected or never-started call did not run: blocked (a failure, not an execution, Yeaft Y44)
    message = _result(session, vp, turn_id, call, ToolOutput(_CLOSED_TEXT[how], is_error=True),
                      blocked=how != "interrupted").message
    return replace(message, meta={**message.meta, how: True})


def _malformed(session: Session, vp: VP, turn_id: str, call: ToolCallPart, text: str) -> ToolRun:
    run = _result(session, vp, turn_id, call, ToolOutput(text, is_error=True), blocked=True)
    run.malformed = True
    return run


def _result(session: Session, vp: VP, turn_id: str, call: ToolCallPart, output: ToolOutput,
            images: tuple[ImagePart, ...] = (), *, blocked: bool = False) -> ToolRun:
    part = ToolResultPart(call.call_id, call.name, output.content, output.is_error, images)
    # "blocked" is always written (True or False): a result without it was recorded by an older
    # Foya, and the status figures then say the per-tool detail is not available (Yeaft Y44)
    meta: dict[str, object] = {"arguments": json.dumps(call.arguments)[:2000], "blocked": blocked}
    message = Message(id=new_id("msg"), session_id=session.id, role="tool", parts=(part,),
                      speaker=vp.id, turn_id=turn_id, created_at=now_ms(), meta=meta)
    return ToolRun(message, blocked=blocked)
