"""Turn orchestration: persist the one user message, fan out to the target
VPs in parallel, finish the turn. The session owner (``engine/session``) runs
the turn as the session's task and moves the queue on when it ends.
"""

from __future__ import annotations

import asyncio
import logging

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import (
    MessageAdded,
    TurnFinished,
    TurnStarted,
    TurnStatus,
    turn_failed,
    turn_failure,
)
from foya_desktop.core.figures import Usage, add_usage
from foya_desktop.core.ids import new_id, now_ms
from foya_desktop.core.messages import ImagePart, Message, Part, TextPart
from foya_desktop.core.model import VP, Phase
from foya_desktop.engine.agents.vps import roster_of
from foya_desktop.engine.services import Services
from foya_desktop.engine.session.agent_mode import after_turn
from foya_desktop.engine.session.owner import Repair, SessionOwner
from foya_desktop.engine.session.queue import Attachment
from foya_desktop.engine.session.scheduler import Scheduler
from foya_desktop.engine.turn.failures import record_failure
from foya_desktop.engine.turn.routing import targets
from foya_desktop.engine.turn.runner import VPRun, publish_status, run_vp
from foya_desktop.engine.turn.tool_exec import TurnStopped
from foya_desktop.store.artifacts import put_artifact
from foya_desktop.store.history import append_message
from foya_desktop.store.sessions import get_session

log = logging.getLogger(__name__)


class TurnManager:
    """Starts turns and runs them to the end; the scheduler's owners keep the queues moving."""

    def __init__(self, svc: Services, repair: Repair | None = None) -> None:
        self.svc = svc
        self.scheduler = Scheduler(svc.store, svc.bus, self.start, repair)

    def owner(self, session_id: str) -> SessionOwner:
        """The owner of a session's runtime state (created on first use)."""
        return self.scheduler.owner(session_id)

    async def start(self, owner: SessionOwner, text: str, attachments: tuple[Attachment, ...]) -> Message:
        """Launch the turn and return its stored user message.

        The turn task exists before the first ``await``, so the session is busy
        at once: a second send is queued and a Stop is never lost in between.
        """
        stored: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        owner.launch(self._turn(owner, text, attachments, stored), name="turn")
        return await stored

    async def _open(self, session_id: str, text: str,
                    attachments: tuple[Attachment, ...]) -> tuple[Message, list[VP], list[VP]]:
        """Claim the session across processes, persist the turn's one user message, pick its VPs."""
        await self.owner(session_id).claim("running a turn")
        session = await self.svc.store.read(get_session, session_id)
        roster = await roster_of(self.svc.store, session)
        picked = targets(text, roster, session.default_vp)
        parts: list[Part] = [TextPart(text)] if text else []
        for mime, data in attachments:
            sha = await self.svc.store.write(put_artifact, self.svc.store.files, data, mime)
            parts.append(ImagePart(sha, mime))
        turn_id = new_id("turn")
        self.svc.routes.open(session_id, turn_id, roster)  # active before its input commits (fork)
        message = await self.svc.store.write(append_message, Message(
            id=new_id("msg"), session_id=session_id, role="user", parts=tuple(parts),
            turn_id=turn_id, created_at=now_ms(), meta={"targets": [v.id for v in picked]}))
        self.svc.bus.publish(MessageAdded(session_id, message))
        return message, picked, roster

    async def _turn(self, owner: SessionOwner, text: str, attachments: tuple[Attachment, ...],
                    stored: asyncio.Future[Message]) -> TurnFinished | None:
        opening = asyncio.ensure_future(self._open(owner.session_id, text, attachments))
        stopped = False
        try:
            try:
                message, picked, roster = await asyncio.shield(opening)
            except asyncio.CancelledError:  # a stop while the message is being stored: store it, run nothing
                stopped = True
                message, picked, roster = await opening
        except Exception as exc:
            self.svc.routes.close(owner.session_id)
            stored.set_exception(exc)
            return None  # nothing opened: the owner gives the claim back, the queue stays put
        stored.set_result(message)
        return await self._run_turn(owner, message, [] if stopped else picked, roster, stopped)

    async def _run_turn(self, owner: SessionOwner, message: Message, picked: list[VP], roster: list[VP],
                        stopped: bool) -> TurnFinished:
        turn_id = message.turn_id
        lock = asyncio.Lock()  # parallel VPs of this turn compact at most once
        runs = [VPRun(owner.session_id, turn_id, vp, roster, owner, lock) for vp in picked]
        status: TurnStatus = "stopped" if stopped else "completed"
        error, code = "", ""
        params: dict[str, object] = {}
        try:
            self.svc.bus.publish(TurnStarted(owner.session_id, turn_id, message.id,
                                             tuple(v.id for v in picked)))
            await owner.set_phase(Phase.TURN)
            alone: list[VPRun] = []  # VPs stopped on their own Stop
            results = await asyncio.gather(*(self._chain(owner, r, runs, alone) for r in list(runs)))
            errors = [e for errs in results for e in errs]
            if errors:
                status = "error"
                error, code, params = turn_failed(errors)
            elif runs and len(alone) == len(runs):
                status = "stopped"  # every VP was stopped one by one: the turn was stopped, not completed
        except asyncio.CancelledError:
            status = "stopped"
        finally:
            self.svc.routes.close(owner.session_id)
            usage = Usage()
            for r in runs:
                usage = add_usage(usage, r.usage)
            if status == "completed":
                await asyncio.shield(after_turn(self.svc.store, self.svc.bus, owner.session_id, status))
        return TurnFinished(owner.session_id, turn_id, status, error, usage, code, params)

    async def _chain(self, owner: SessionOwner, run: VPRun, runs: list[VPRun],
                     alone: list[VPRun]) -> list[dict[str, object]]:
        """Run one VP, then the VPs it handed to with ``route_forward`` (in the same turn).

        Each VP runs as its own task, known to the owner, so its Stop ends it (and
        its hand-offs) alone; stopping the turn still cancels everything.
        """
        task = asyncio.ensure_future(self._guarded(owner, run))
        owner.track_vp(run.vp.id, task)
        (outcome,) = await asyncio.gather(task, return_exceptions=True)
        if isinstance(outcome, asyncio.CancelledError):
            alone.append(run)
            return []  # this VP was stopped on its own; the others go on
        if isinstance(outcome, BaseException):
            raise outcome
        errors = [outcome] if outcome else []
        handoffs = self.svc.routes.take(owner.session_id, run.vp.id)
        by_id = {vp.id: vp for vp in run.roster}
        targets = [by_id[t] for t in dict.fromkeys(h.target for h in handoffs) if t in by_id]
        nxt = [VPRun(owner.session_id, run.turn_id, vp, run.roster, owner, run.compaction_lock)
               for vp in targets]
        runs.extend(nxt)
        for errs in await asyncio.gather(*(self._chain(owner, r, runs, alone) for r in nxt)):
            errors.extend(errs)
        return errors

    async def _guarded(self, owner: SessionOwner, run: VPRun) -> dict[str, object] | None:
        """Run one VP; return its failure (``turn_failure``) instead of raising (siblings go on).

        A rejection without feedback stops the whole turn, siblings included.
        """
        try:
            await run_vp(self.svc, run)
        except asyncio.CancelledError:
            publish_status(self.svc, run, "stopped")
            raise
        except TurnStopped:
            publish_status(self.svc, run, "stopped")
            owner.cancel_self()
            return None
        except FoyaError as exc:
            publish_status(self.svc, run, "error", str(exc), code=exc.code, params=exc.params)
            await self._failure_row(run, str(exc), exc.code)
            return turn_failure(run.vp.name, exc.code, exc.params, str(exc))
        except Exception as exc:
            log.exception("VP run crashed")
            params = {"type": type(exc).__name__}
            publish_status(self.svc, run, "error", str(exc), code="internal_error", params=params)
            text = f"internal error ({type(exc).__name__}: {exc})"
            await self._failure_row(run, text, "internal_error")
            return turn_failure(run.vp.name, "internal_error", params, text)
        return None

    async def _failure_row(self, run: VPRun, text: str, code: str) -> None:
        """The row that says why this VP's run failed, unless a kept message says it already
        (``turn.failures``). A store that cannot take it (a full disk) leaves the status line to say so."""
        if run.failure_shown:
            return
        try:
            await record_failure(self.svc, run.session_id, run.turn_id, run.vp.id, text, code)
        except FoyaError:
            log.warning("could not store the failure row of %s", run.vp.name, exc_info=True)
