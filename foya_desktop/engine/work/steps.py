"""What one action does when it runs: a VP's turn in a child session, or a check command.

An agent, relay or review action runs a real turn of its VP — the same runner, tools,
approval rules and stored message format as a session's turn (``engine/turn/runner.py``)
— in a *child session* of the WorkItem's source session, like a sub-agent's (``origin`` =
``work:<item>:<run>``; the window shows it as a child of its parent), held to the source
session's approval mode (``store.ops_children.session_in_effect``). Its transcript is that
session's history.

Resuming after a crash never repeats a finished tool call: the run's session already holds
the user message and every recorded call with its result, so the turn goes on from there
(claiming the session repairs what the dead process left mid-call, as for any session:
a call that was running is marked interrupted, not run again).

A check runs its command through the command policy and, where the kernel can, the same
sandbox as an automatically approved ``run_command`` (``tools/shell_policy.py``,
``tools/sandbox.py``); exit status 0 passes.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import MessageAdded, TurnFinished, TurnStarted
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import Message, MessageStatus, TextPart
from foya_desktop.core.model import Phase, Session
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.engine.turn.runner import VPRun, run_vp
from foya_desktop.engine.turn.tool_exec import TurnStopped, _confined, tool_context
from foya_desktop.engine.work.errors import WorkCheckRefused
from foya_desktop.store.history import append_message, valid_messages
from foya_desktop.store.ops_children import last_reply
from foya_desktop.store.vp_library import find_vp
from foya_desktop.tools import sandbox
from foya_desktop.tools.shell import RunCommandTool
from foya_desktop.tools.shell_policy import classify_command

CHECK_TIMEOUT_S = 600


@dataclass(frozen=True, slots=True)
class StepResult:
    """What a VP's run or a check produced."""

    ok: bool
    text: str
    """The VP's last reply, or the check's output tail."""
    error: str = ""
    tokens: int = 0


def transcript_session(source: Session, item_id: str, run_id: str, vp_id: str, title: str,
                       workdir: str) -> Session:
    """The session a VP's run writes its transcript to (a child of the source session)."""
    now = now_ms()
    return Session(id=new_id("ses"), title=title, project_id=source.project_id, parent_id=source.id,
                   origin=f"work:{item_id}:{run_id}", connection=source.connection, model=source.model,
                   reasoning_effort=source.reasoning_effort, approval_mode=source.approval_mode,
                   agent_mode=source.agent_mode, workdir=workdir, roster=(vp_id,), default_vp=vp_id,
                   created_at=now, updated_at=now)


async def run_vp_step(svc: Services, scheduler: Scheduler, session_id: str, vp_ref: str,
                      prompt: str) -> StepResult:
    """Run (or go on with) the VP's turn in its run session; the reply and the token count."""
    vp = await svc.store.read(find_vp, vp_ref)
    owner = scheduler.owner(session_id)
    usage: list[int] = []
    errors: list[str] = []

    async def body() -> TurnFinished:
        await owner.claim("running a WorkItem action")  # repairs a run a dead process left mid-call
        history = await svc.store.read(valid_messages, session_id)
        user = next((m for m in history if m.role == "user"), None)
        if user is None:
            user = await svc.store.write(append_message, Message(
                id=new_id("msg"), session_id=session_id, role="user", parts=(TextPart(prompt),),
                turn_id=new_id("turn"), created_at=now_ms(), meta={"targets": [vp.id], "work": True}))
            svc.bus.publish(MessageAdded(session_id, user))
            history = [user]
        run = VPRun(session_id, user.turn_id, vp, [vp], owner, asyncio.Lock())
        status = "completed"
        if not _finished(history[-1]):
            svc.bus.publish(TurnStarted(session_id, run.turn_id, user.id, (vp.id,)))
            await owner.set_phase(Phase.TURN)
            try:
                await run_vp(svc, run)
            except (FoyaError, TurnStopped) as exc:
                status = "error"
                errors.append(f"{vp.name}: {exc}")
        usage.append((run.usage.input_tokens or 0) + (run.usage.output_tokens or 0))
        return TurnFinished(session_id, run.turn_id, "completed" if status == "completed" else "error",
                            "; ".join(errors), run.usage)

    await owner.launch(body(), name=f"work-run-{session_id}")
    reply = await svc.store.read(last_reply, session_id)
    return StepResult(not errors, reply, "; ".join(errors), sum(usage))


def _finished(message: Message) -> bool:
    """The turn ended before (its final reply is stored): nothing to run again."""
    return (message.role == "assistant" and message.status == MessageStatus.COMPLETE
            and not message.tool_calls and bool(message.text.strip()))


def refuse_check(command: str, workdir: Path, data_dir: Path) -> None:
    """A check command the command policy denies is refused when the contract is made."""
    verdict = classify_command(command, workdir, data_dir)
    if verdict.decision == "deny":
        raise WorkCheckRefused(f"The check command {command!r} is refused by the command policy: "
                               f"{verdict.reason}.", command=command, reason=verdict.reason)


async def run_check(svc: Services, item_id: str, command: str, workdir: str) -> StepResult:
    """Run a check command in the working folder; passes on exit status 0."""
    refuse_check(command, Path(workdir), svc.store.home.root)
    place = Session(id=f"work-{item_id}", title="", workdir=workdir)
    ctx = tool_context(place, svc)
    if sandbox.available():
        confined, why_not = await asyncio.to_thread(_confined, ctx, svc, place)
        ctx = confined if why_not is None else ctx
    output = await RunCommandTool().run({"command": command, "timeout_s": CHECK_TIMEOUT_S}, replace(ctx))
    return StepResult(not output.is_error, output.content[-4000:])
