"""Turn orchestration: persist the one user message, fan out to the target
VPs in parallel, finish the turn, advance the queue.
"""

from __future__ import annotations

import asyncio
import logging

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import MessageAdded, PhaseChanged, TurnFinished, TurnStarted, Usage
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import ImagePart, Message, Part, TextPart
from foya_desktop.core.model import VP, Phase
from foya_desktop.engine.agents.vps import roster_of
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.runtime import Attachment, QueueOps, SessionRuntime
from foya_desktop.engine.turn.routing import targets
from foya_desktop.engine.turn.runner import VPRun, publish_status, run_vp
from foya_desktop.engine.turn.scope import enter_turn
from foya_desktop.engine.turn.step import add_usage
from foya_desktop.engine.turn.tool_exec import TurnStopped

log = logging.getLogger(__name__)


class TurnManager:
    """Starts turns, runs them to the end and keeps each session's queue moving."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.queue_ops = QueueOps(svc.bus)
        self.runtimes: dict[str, SessionRuntime] = {}

    def runtime(self, session_id: str) -> SessionRuntime:
        """The in-memory state of a session (created on first use)."""
        return self.runtimes.setdefault(session_id, SessionRuntime(session_id))

    async def start(self, rt: SessionRuntime, text: str, attachments: tuple[Attachment, ...]) -> Message:
        """Launch the turn and return its stored user message.

        The turn task exists before the first ``await``, so the session is busy
        at once: a second send is queued and a Stop is never lost in between.
        """
        stored: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        rt.task = asyncio.create_task(self._turn(rt, text, attachments, stored), name="turn")
        return await stored

    async def _open(self, rt: SessionRuntime, text: str,
                    attachments: tuple[Attachment, ...]) -> tuple[Message, list[VP], list[VP]]:
        """Persist the one user message of the turn and pick its target VPs."""
        session = await self.svc.store.get_session(rt.session_id)
        roster = await roster_of(self.svc.store, session)
        picked = targets(text, roster, session.default_vp)
        parts: list[Part] = [TextPart(text)] if text else []
        for mime, data in attachments:
            parts.append(ImagePart(await self.svc.store.put_artifact(data, mime), mime))
        turn_id = new_id("turn")
        self.svc.routes.open(rt.session_id, turn_id, roster)  # active before its input commits (fork)
        message = await self.svc.store.append_message(Message(
            id=new_id("msg"), session_id=rt.session_id, role="user", parts=tuple(parts),
            turn_id=turn_id, created_at=now_ms(), meta={"targets": [v.id for v in picked]}))
        self.svc.bus.publish(MessageAdded(rt.session_id, message))
        return message, picked, roster

    async def _turn(self, rt: SessionRuntime, text: str, attachments: tuple[Attachment, ...],
                    stored: asyncio.Future[Message]) -> None:
        opening = asyncio.ensure_future(self._open(rt, text, attachments))
        stopped = False
        try:
            try:
                message, picked, roster = await asyncio.shield(opening)
            except asyncio.CancelledError:  # a stop while the message is being stored: store it, run nothing
                stopped = True
                message, picked, roster = await opening
        except Exception as exc:
            self.svc.routes.close(rt.session_id)
            stored.set_exception(exc)
            rt.task = None
            return
        stored.set_result(message)
        await self._run_turn(rt, message, [] if stopped else picked, roster, stopped)

    async def _run_turn(self, rt: SessionRuntime, message: Message, picked: list[VP], roster: list[VP],
                        stopped: bool) -> None:
        turn_id = message.turn_id
        runs = [VPRun(rt.session_id, turn_id, vp, roster) for vp in picked]
        status, error = ("stopped" if stopped else "completed"), ""
        try:
            enter_turn(rt)
            self.svc.bus.publish(TurnStarted(rt.session_id, turn_id, message.id, tuple(v.id for v in picked)))
            await asyncio.shield(self._set_phase(rt, Phase.TURN))
            results = await asyncio.gather(*(self._chain(rt, r, runs) for r in list(runs)))
            errors = [e for errs in results for e in errs]
            if errors:
                status, error = "error", "; ".join(errors)
        except asyncio.CancelledError:
            status = "stopped"
        finally:
            self.svc.routes.close(rt.session_id)
            usage = Usage()
            for r in runs:
                usage = add_usage(usage, r.usage)
            await self._finish(rt, TurnFinished(rt.session_id, turn_id, status, error, usage))

    async def _chain(self, rt: SessionRuntime, run: VPRun, runs: list[VPRun]) -> list[str]:
        """Run one VP, then the VPs it handed to with ``route_forward`` (in the same turn)."""
        errors = [e for e in [await self._guarded(rt, run)] if e]
        handoffs = self.svc.routes.take(rt.session_id, run.vp.id)
        by_id = {vp.id: vp for vp in run.roster}
        targets = [by_id[t] for t in dict.fromkeys(h.target for h in handoffs) if t in by_id]
        nxt = [VPRun(rt.session_id, run.turn_id, vp, run.roster) for vp in targets]
        runs.extend(nxt)
        for errs in await asyncio.gather(*(self._chain(rt, r, runs) for r in nxt)):
            errors.extend(errs)
        return errors

    async def _guarded(self, rt: SessionRuntime, run: VPRun) -> str:
        """Run one VP; return a plain error sentence instead of raising (siblings go on).

        A rejection without feedback stops the whole turn, siblings included.
        """
        try:
            await run_vp(self.svc, run)
        except asyncio.CancelledError:
            publish_status(self.svc, run, "stopped")
            raise
        except TurnStopped:
            publish_status(self.svc, run, "stopped")
            if rt.task is not None:
                rt.task.cancel()
            return ""
        except FoyaError as exc:
            publish_status(self.svc, run, "error", str(exc))
            return f"{run.vp.name}: {exc}"
        except Exception as exc:
            log.exception("VP run crashed")
            publish_status(self.svc, run, "error", str(exc))
            return f"{run.vp.name}: internal error ({type(exc).__name__}: {exc})"
        return ""

    async def _finish(self, rt: SessionRuntime, event: TurnFinished) -> None:
        rt.task = None
        await asyncio.shield(self._set_phase(rt, Phase.IDLE))
        self.svc.bus.publish(event)
        if not rt.paused:
            await self.dispatch_next(rt)

    async def dispatch_next(self, rt: SessionRuntime) -> None:
        """Start the first queued message if the session is idle."""
        if rt.busy:
            return
        nxt = self.queue_ops.pop(rt)
        if nxt is not None:
            item, attachments = nxt
            await self.start(rt, item.text, attachments)

    async def stop(self, rt: SessionRuntime) -> None:
        """Cancel the running turn and wait until it has wound down."""
        task = rt.task
        if task is None or task.done():
            return
        rt.paused = True
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    async def _set_phase(self, rt: SessionRuntime, phase: Phase) -> None:
        rt.phase = phase
        await self.svc.store.set_phase(rt.session_id, phase)
        self.svc.bus.publish(PhaseChanged(rt.session_id, str(phase)))

    async def wait_idle(self) -> None:
        """Return once nothing runs and no queue will move (a paused queue waits for the person).

        Polls: turns, sub-agent runs and lifecycle operations all hold a session
        busy through ``SessionRuntime.task``, so this one check covers them all.
        """
        while any(r.busy or (r.queue and not r.paused) for r in self.runtimes.values()):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
