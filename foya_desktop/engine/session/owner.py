"""The one owner of a session's in-memory life: running task, phase, queue, pause.

Nothing else writes these. Turns and sub-agent runs are started with
:meth:`SessionOwner.launch`; operations that need a quiet session (rewind,
deletion, compaction, and later fork and merge) take :meth:`SessionOwner.hold`,
which refuses while the session is busy, keeps it busy while the operation
runs (a message sent meanwhile is queued, the normal rule) and moves the
queue on afterwards, as after a turn, unless a stop paused it.
:meth:`SessionOwner.stop` cancels whatever runs and waits until the session
is free; the scheduler's idle condition is woken by every change here.

The owner is also the one place that takes and gives back the session's
cross-process *claim* (``store.leases``): in-process a session is busy while
its owner holds a task or an operation; across processes it is claimed in the
database by this process's lease, so a second process (the window, another
``foya``) is refused with a sentence naming who holds it instead of
interleaving with it. A hold claims as it starts; a turn claims as it opens
(:meth:`SessionOwner.claim`, inside the launched task, so the session is busy
in this process first). The claim is given back whenever the session goes
free — for a turn in the same transaction that records phase ``idle``. A claim
that finds the session left mid-turn by a dead process repairs that session
first (``repair``, given by the kernel: recovery lives above this layer).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from foya_desktop.core.errors import InvalidOperation, SessionBusyElsewhere
from foya_desktop.core.events import Event, Notice, PhaseChanged
from foya_desktop.core.messages import Message
from foya_desktop.core.model import Phase
from foya_desktop.core.records import QueueItem
from foya_desktop.engine.bus import EventBus
from foya_desktop.engine.session.queue import Attachment, SessionQueue
from foya_desktop.store.leases import owner_place
from foya_desktop.store.store import Store

log = logging.getLogger(__name__)

T = TypeVar("T")

Start = Callable[["SessionOwner", str, tuple[Attachment, ...]], Awaitable[Message]]
"""Starts a turn for a message and returns its stored user message (given by the turn layer)."""

Repair = Callable[[str], object]
"""Repairs one session a dead process left mid-turn (runs inside the claiming write transaction)."""

_DOING = {"rewind": "being rewound", "delete it": "being deleted", "compact it": "being compacted"}
"""What other processes are told this one is doing, by the ``what`` of :meth:`SessionOwner.hold`."""


class OperationStopped(InvalidOperation):
    """A held operation's work was cancelled by a stop; nothing was changed."""


class SessionOwner:
    """The only writer of one session's runtime state."""

    def __init__(self, session_id: str, store: Store, bus: EventBus, start: Start,
                 changed: Callable[[], None], repair: Repair | None = None) -> None:
        self.session_id = session_id
        self._store = store
        self._repair = repair
        self._bus = bus
        self._start = start
        self._advancing: set[asyncio.Task[None]] = set()
        self._changed = changed
        self.queue = SessionQueue(session_id, bus, changed)
        self._phase = Phase.IDLE
        self._task: asyncio.Task[Any] | None = None
        self._held_by: str | None = None
        self._stop_asked = False
        """A stop came while a hold had no work running yet: its work is refused when it starts."""
        self._vp_runs: dict[str, asyncio.Task[Any]] = {}
        """The running turn's per-VP runs by speaker (one VP can be stopped alone)."""
        self._releasing = 0
        """Releases under way: free for the next turn already, not yet idle for waiters."""
        self._free = asyncio.Event()
        self._free.set()

    # ---- reading ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """What the kernel is doing with the session."""
        return self._phase

    @property
    def busy(self) -> bool:
        """A turn, sub-agent run or held operation is under way."""
        return self._held_by is not None or (self._task is not None and not self._task.done())

    @property
    def paused(self) -> bool:
        """After "stop, keep queue": queued items wait until resumed."""
        return self.queue.paused

    @property
    def idle(self) -> bool:
        """Nothing runs and the queue will not move by itself (empty, or paused for the person)."""
        return (not self.busy and not self._releasing
                and (not len(self.queue) or self.queue.paused))

    # ---- writing --------------------------------------------------------------------

    async def set_phase(self, phase: Phase, *, release: bool = False) -> None:
        """Record and announce a phase (the store write is shielded from cancellation).

        ``release`` also gives the claim back in the same transaction.
        """
        self._phase = phase
        await asyncio.shield(self._store.set_phase(self.session_id, phase, release=release))
        self._bus.publish(PhaseChanged(self.session_id, phase))

    async def claim(self, what: str) -> None:
        """Claim the session for this process; ``SessionBusyElsewhere`` names who has it otherwise.

        ``what`` is what other processes are told ("running a turn").
        """
        if await self._store.claim(self.session_id, what, self._repair):
            log.info("repaired session %s, left mid-turn by a process that died", self.session_id)

    async def _give_back(self) -> None:
        """Give the claim back to other processes unless something in this one still runs here."""
        if not self.busy:
            await asyncio.shield(self._store.release(self.session_id))

    def launch(self, body: Coroutine[Any, Any, Event | None], *, name: str) -> asyncio.Task[None]:
        """Run ``body`` (a turn or sub-agent run) as the session's task; busy from this call on.

        The body sets its own working phase and claims the session (it runs
        already, so a second send is queued meanwhile). When it returns (or
        is stopped), the session goes idle and its claim is given back, the
        event it returned is published, and the queue moves on unless paused.
        A body that returns ``None`` never opened (its claim was refused, its
        session is gone): the queue then stays where it is.
        """
        if self.busy:
            raise InvalidOperation("The session is busy; the message waits in the queue.",
                                   code="session_busy", session_id=self.session_id, operation="turn")
        task = asyncio.create_task(self._lifetime(body), name=name)
        self._mark(task)
        return task

    async def _lifetime(self, body: Coroutine[Any, Any, Event | None]) -> None:
        final: Event | None = None
        try:
            final = await body
        finally:
            await asyncio.shield(self._release(final))

    async def _release(self, final: Event | None) -> None:
        # Idle and the claim's release are stored before waiters wake: whoever sees the
        # session idle (``wait_idle``, a send, another process) sees phase idle and no claim.
        self._task = None
        self._vp_runs = {}
        self._releasing += 1
        try:
            released = False
            if self._phase != Phase.IDLE:
                released = not len(self.queue) or self.queue.paused
                await self.set_phase(Phase.IDLE, release=released)
            if final is not None:
                self._bus.publish(final)
                await self.advance()
            if not released:
                await self._give_back()
        finally:
            self._releasing -= 1
            self._settle()

    def refuse_if_busy(self, what: str) -> None:
        """The refusal :meth:`hold` makes, for callers that must decide at the moment of the call.

        An operation that reads the store before holding would otherwise decide
        after its first await, when a running turn may have ended meanwhile (the
        read can wait behind the turn's writes): "compact now" pressed during a
        reply would then quietly run after it instead of being refused.
        """
        if self.busy:
            raise InvalidOperation(f"The session is busy. Stop the running turn first, then {what}.",
                                   code="session_busy", session_id=self.session_id, operation=what)

    @asynccontextmanager
    async def hold(self, what: str, phase: Phase | None = None, *,
                   advance: bool = True) -> AsyncIterator[Hold]:
        """Keep the session busy for an operation; refuse ("stop it first") if it is busy already.

        ``what`` completes the refusal ("… then rewind."). With ``phase`` the
        session shows that phase meanwhile and is idle again afterwards.
        ``advance=False`` leaves the queue where it is (deletion).
        """
        self.refuse_if_busy(what)
        self._held_by = what
        self._stop_asked = False
        self._mark(None)
        try:
            await self.claim(_DOING.get(what, "busy with an operation"))
        except BaseException:
            self._held_by = None
            self._settle()
            raise
        try:
            if phase is not None:
                await self.set_phase(phase)
            yield Hold(self)
        finally:
            self._held_by = None
            self._stop_asked = False
            self._releasing += 1
            try:
                if phase is not None and self._phase != Phase.IDLE:
                    await self.set_phase(Phase.IDLE)
                if advance:
                    await self.advance()
                await self._give_back()
            finally:
                self._releasing -= 1
                self._settle()

    # ---- the queue's rules ------------------------------------------------------------

    async def send(self, text: str, attachments: tuple[Attachment, ...]) -> Message | QueueItem:
        """Start a turn now (the stored user message), or queue the message (the queue item).

        A message is queued while the session is busy or others wait before it;
        sending to an idle session with a paused queue resumes that queue.
        """
        if self.busy or len(self.queue):
            item = self.queue.push(text, attachments)
            if not self.busy and self.queue.paused:
                self.queue.resume()
                await self.advance()
            return item
        self.queue.resume()
        return await self._start(self, text, attachments)

    def resume(self) -> None:
        """Let a paused queue run again (the next item starts in the background)."""
        self.queue.resume()
        if self.busy or not len(self.queue):
            return
        task = asyncio.get_running_loop().create_task(self.advance(), name=f"resume-{self.session_id}")
        self._advancing.add(task)
        task.add_done_callback(self._advancing.discard)

    async def stop(self, *, keep_queue: bool = True) -> None:
        """Cancel what runs and wait until the session is free; keep the queue (paused) or clear it."""
        self.queue.pause()
        task = self._task
        if task is None and self._held_by is not None:
            self._stop_asked = True  # the hold's work has not started: it will not
        if task is not None and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await self._free.wait()
        if not keep_queue:
            self.queue.clear()
            self.queue.resume()

    async def interrupt(self, item_id: str) -> None:
        """Stop what runs, then send the chosen queued message next."""
        self.queue.move(item_id, 0)
        await self.stop()
        self.queue.resume()
        await self.advance()

    async def advance(self) -> None:
        """Start the first queued message if the session is free and the queue not paused.

        When another process holds the session meanwhile, the message goes back
        to the head of the queue, the queue pauses and a notice says why.
        """
        if self.busy or self.queue.paused:
            return
        nxt = self.queue.pop()
        if nxt is not None:
            try:
                await self._start(self, nxt.item.text, nxt.attachments)
            except SessionBusyElsewhere as exc:
                self.queue.put_back(nxt)
                self.queue.pause()
                said = (f"This session is {exc.params.get('what', 'busy')} {owner_place(exc.kind, exc.pid)}; "
                        "the queue is paused: resume it once that has finished.")
                self._bus.publish(Notice(self.session_id, "warning", said, "queue_paused_elsewhere",
                                         exc.params))

    # ---- one VP of the running turn ------------------------------------------------------

    def track_vp(self, speaker: str, run: asyncio.Task[Any]) -> None:
        """Remember the running turn's task for one VP, so :meth:`stop_vp` can end it alone."""
        self._vp_runs[speaker] = run

    async def stop_vp(self, speaker: str) -> bool:
        """Stop one VP's run in the current turn; its siblings go on. ``False`` if it is not running."""
        run = self._vp_runs.get(speaker)
        if run is None or run.done():
            return False
        run.cancel()
        await asyncio.gather(run, return_exceptions=True)
        return True

    def cancel_self(self) -> None:
        """Cancel the running turn from inside it (a rejection without feedback stops every VP)."""
        if self._task is not None:
            self._task.cancel()

    def _mark(self, task: asyncio.Task[Any] | None) -> None:
        if task is not None:
            self._task = task
            task.add_done_callback(lambda _t: self._settle())
        self._free.clear()
        self._changed()

    def _settle(self) -> None:
        if not self.busy and not self._releasing:
            self._free.set()
        self._changed()


class Hold:
    """An operation holding a session; :meth:`run` makes its work what ``stop()`` cancels."""

    def __init__(self, owner: SessionOwner) -> None:
        self.owner = owner

    async def run(self, work: Coroutine[Any, Any, T], *, stopped: str) -> T:
        """Run ``work`` as the session's task; a stop raises :class:`OperationStopped` (``stopped``)."""
        owner = self.owner
        if owner._stop_asked:  # stopped while the hold was still getting ready
            work.close()
            raise OperationStopped(stopped, session_id=owner.session_id)
        task = asyncio.create_task(work, name=f"held-{owner.session_id}")
        owner._task = task
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            raise
        finally:
            if owner._task is task:
                owner._task = None
        if task.cancelled():
            raise OperationStopped(stopped, session_id=owner.session_id)
        return task.result()
