"""The engine in a child process, doing random work until the test kills it with SIGKILL.

``python -m tests.durability.driver --home H --project P --base-url URL --seed N --target KIND``

It reports on stdout, one flushed line per fact, what the parent needs to
check after the kill:

* ``READY`` — start-up (with recovery) is done;
* ``COMMIT <session> <message> <status>`` — a message was committed (events are
  published only after commit, so a reported message must survive the kill);
* ``PHASE <stream|tool|branch|rewind|delete>`` — an operation of that kind is in
  progress right now (the parent kills shortly after it sees the one it wants);
* ``BRANCH-START <src> <after> <count>`` / ``BRANCH-DONE <src> <after> <new> <count>``;
* ``REWIND-START <session> <message> <json {path: [sha now, sha after]}>`` / ``REWIND-DONE …``;
* ``DELETE-START <session> <json [ids]>`` / ``DELETE-DONE <session>``.

Store writes are delayed by a random 0–4 ms so the kill lands inside the
multi-step operations (between a rewind's journal and its commit, say) often.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
import types
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import FoyaError, InvalidOperation
from foya_desktop.core.events import Event, MessageAdded, MessageUpdated, PartDelta
from foya_desktop.core.messages import MessageStatus, ToolState
from foya_desktop.core.model import ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops import rewind_files
from foya_desktop.engine.ops.rewind import _survey
from foya_desktop.providers.base import RetryPolicy, Timeouts
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.history import valid_messages
from foya_desktop.store.home import Home
from foya_desktop.store.sessions import descendants
from tests.helpers.fake_keyring import MemoryKeyring

Op = Callable[[Kernel, random.Random], Awaitable[None]]


def say(line: str) -> None:
    """One report line, flushed at once (the process may die any moment)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Reporter:
    """Turns bus events into report lines."""

    def __init__(self) -> None:
        self._streams: set[str] = set()

    def __call__(self, event: Event) -> None:
        if isinstance(event, MessageAdded):
            say(f"COMMIT {event.session_id} {event.message.id} {event.message.status}")
        elif isinstance(event, MessageUpdated) and any(
                c.state == ToolState.RUNNING for c in event.message.tool_calls):
            say("PHASE tool")
        elif isinstance(event, PartDelta) and event.kind == "text" and event.message_id not in self._streams:
            self._streams.add(event.message_id)
            say("PHASE stream")


def slow_writes(kernel: Kernel, rnd: random.Random) -> None:
    """Delay every store write a little to widen the windows between transactions."""
    original = kernel.store.write

    async def write(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(rnd.uniform(0, 0.004))
        return await original(fn, *args, **kwargs)
    kernel.store.write = write  # type: ignore[method-assign]


class _PausingOs(types.ModuleType):
    """``os`` for ``rewind_files`` with a pause before each rename of a written temporary over its
    target: a kill then lands in the rewind's file phase with a ``.foya-rewind-*`` file on disk
    and the journal committed, which recovery must roll forward and clean up (issue 14)."""

    def __init__(self) -> None:
        super().__init__("os")
        self.rnd = random.Random()
        self.announce = False

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def replace(self, src: str, dst: str) -> None:
        if self.announce:
            say("PHASE rewind")
            time.sleep(self.rnd.uniform(0.02, 0.05))
        os.replace(src, dst)


PAUSE = _PausingOs()
"""Installed by ``drive``; off until a rewind asks for it."""


async def _sessions(kernel: Kernel) -> list[str]:
    return sorted(s.id for s in await kernel.sessions.list_sessions())


async def op_create(kernel: Kernel, rnd: random.Random) -> None:
    await kernel.sessions.create_session(title="crash", workdir=PROJECT, approval_mode=ApprovalMode.AUTO)


async def _send(kernel: Kernel, rnd: random.Random, word: str) -> None:
    sid = rnd.choice(await _sessions(kernel))
    await kernel.turns.send(sid, f"{word} {rnd.randrange(10**6)}")
    await kernel.turns.wait_idle()


async def op_work(kernel: Kernel, rnd: random.Random) -> None:
    await _send(kernel, rnd, "work")


async def op_talk(kernel: Kernel, rnd: random.Random) -> None:
    await _send(kernel, rnd, "talk")


async def op_branch(kernel: Kernel, rnd: random.Random) -> None:
    sid = rnd.choice(await _sessions(kernel))
    msgs = await kernel.store.read(valid_messages, sid)
    ok = [i for i, m in enumerate(msgs) if m.role == "tool" or (
        m.role == "assistant" and m.status == MessageStatus.COMPLETE and not m.tool_calls)]
    if not ok:
        return
    i = rnd.choice(ok)
    say(f"BRANCH-START {sid} {msgs[i].id} {i + 1}")
    say("PHASE branch")
    try:
        new = await kernel.lifecycle.branch(sid, msgs[i].id)
    except InvalidOperation:
        say(f"BRANCH-REFUSED {sid} {msgs[i].id}")
        return
    say(f"BRANCH-DONE {sid} {msgs[i].id} {new.id} {await kernel.history.message_count(new.id)}")


async def op_rewind(kernel: Kernel, rnd: random.Random) -> None:
    sid = rnd.choice(await _sessions(kernel))
    users = [m for m in await kernel.store.read(valid_messages, sid) if m.role == "user"]
    if not users:
        return
    target = rnd.choice(users)
    preview = await kernel.lifecycle.rewind_preview(sid, target.id)
    _, plan = await _survey(kernel.svc, sid, target.id)
    files = {op.path: [op.undo, op.target] for op in plan.ops}
    say(f"REWIND-START {sid} {target.id} {json.dumps(files)}")
    if files and rnd.random() < 0.5:
        PAUSE.announce = True  # the kill comes while a temporary waits to be renamed
    else:
        say("PHASE rewind")  # the kill comes in the journal and database steps
    await kernel.lifecycle.rewind_confirm(sid, preview)
    say(f"REWIND-DONE {sid} {target.id}")


async def op_delete(kernel: Kernel, rnd: random.Random) -> None:
    tops = [s.id for s in await kernel.sessions.list_sessions() if s.parent_id is None]
    if len(tops) < 2:
        return
    sid = rnd.choice(sorted(tops))
    tree = [*await kernel.store.read(descendants, sid), sid]
    say(f"DELETE-START {sid} {json.dumps(tree)}")
    say("PHASE delete")
    await kernel.lifecycle.delete_session(sid)
    say(f"DELETE-DONE {sid}")


OPS: dict[str, Op] = {"create": op_create, "work": op_work, "talk": op_talk, "branch": op_branch,
                      "rewind": op_rewind, "delete": op_delete}
FOR_TARGET = {"stream": "talk", "tool": "work", "branch": "branch", "rewind": "rewind", "delete": "delete"}
PROJECT = ""


async def drive(args: argparse.Namespace) -> None:
    rnd = random.Random(args.seed)
    kernel = build_kernel(Home(Path(args.home)), keystore=KeyStore(MemoryKeyring()),
                          timeouts=Timeouts(connect=2, first_byte=5, idle=5, total=30),
                          retry=RetryPolicy(max_attempts=1))
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, args.base_url, "fake-model"))
    slow_writes(kernel, rnd)
    PAUSE.rnd = rnd
    rewind_files.os = PAUSE  # type: ignore[attr-defined]
    kernel.bus.subscribe(Reporter())
    if len(await _sessions(kernel)) < 2:
        await op_create(kernel, rnd)
    say("READY")
    favourite = FOR_TARGET[args.target]
    while True:
        name = favourite if rnd.random() < 0.35 else rnd.choice(list(OPS))
        if name == "create" and len(await _sessions(kernel)) > 6:
            continue
        try:
            await OPS[name](kernel, rnd)
        except FoyaError as exc:
            say(f"ERROR {name} {type(exc).__name__}: {exc}")


def main() -> int:
    parser = argparse.ArgumentParser()
    for name in ("--home", "--project", "--base-url", "--target"):
        parser.add_argument(name, required=True)
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args()
    global PROJECT
    PROJECT = args.project
    asyncio.run(drive(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
