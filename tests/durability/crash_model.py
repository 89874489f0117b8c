"""The crash test's scripted model and its after-the-kill checks.

Every complete assistant text is ``reply_text(n)`` for some ``n``, so a
partial reply that was wrongly marked complete is caught by comparing. Tool
turns write a file and append a unique id to ``marker.log`` with a shell
command: a line seen twice would mean a tool ran twice.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import NotFound
from foya_desktop.core.messages import ToolState
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.rewind_files import TEMP_PREFIX
from foya_desktop.store.events_log import events_of
from foya_desktop.store.history import get_message, is_valid, replay, valid_messages
from foya_desktop.store.ops_delete import leftover_rows
from foya_desktop.store.sessions import is_tombstoned
from tests.fakeprovider import Reply, ToolCallSpec, last_user_text

BEGIN = re.compile(r"^BEGIN (\d+) ")


def reply_text(n: int) -> str:
    """The one complete text reply number ``n`` may have."""
    return f"BEGIN {n} " + " ".join(f"w{i}" for i in range(20 + n % 15)) + f" END {n}"


class CrashScript:
    """Responder: ``work …`` → write_file + marker command; ``talk …`` or after tools → slow text."""

    def __init__(self) -> None:
        self._n = itertools.count(1)
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            n = next(self._n)
        messages = body.get("messages", [])
        if messages and messages[-1].get("role") != "tool" and last_user_text(body).startswith("work"):
            calls = [ToolCallSpec("write_file", {"path": ("a.txt", "b.txt", "dir/c.txt")[n % 3],
                                                 "content": f"content {n}\n"}, id=f"call_{n}_w"),
                     ToolCallSpec("run_command", {"command": f"echo m{n} >> marker.log"}, id=f"call_{n}_m")]
            return Reply(tool_calls=calls, chunk_size=6, delay_per_chunk=0.002)
        return Reply(text=reply_text(n), chunk_size=6, delay_per_chunk=0.003)


def file_sha(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None


@dataclass
class Ledger:
    """What every run so far reported as committed (kept across kills)."""

    commits: dict[str, tuple[str, str]] = field(default_factory=dict)
    """message id → (session id, status)."""
    branch_starts: dict[tuple[str, str], int] = field(default_factory=dict)
    figures: Counter[str] = field(default_factory=Counter)

    def absorb(self, lines: list[str]) -> tuple[str, list[str]] | None:
        """Record a run's lines; return the operation that was in flight at the kill, if any."""
        open_op: tuple[str, list[str]] | None = None
        for line in lines:
            kind, *rest = line.split(" ", 3)
            if kind == "COMMIT":
                self.commits[rest[1]] = (rest[0], rest[2])
            elif kind == "BRANCH-START":
                self.branch_starts[(rest[0], rest[1])] = int(rest[2])
            if kind.endswith("-START"):
                open_op = (kind.removesuffix("-START"), rest)
            elif kind.endswith(("-DONE", "-REFUSED")):
                open_op = None
        return open_op


def raw_checks(db: Path) -> tuple[str, int, int]:
    """Before recovery touches anything: ``PRAGMA integrity_check``, rewind journals left, and
    assistant messages with a tool call still pending or running."""
    con = sqlite3.connect(db)
    try:
        ok = con.execute("PRAGMA integrity_check").fetchone()[0]
        journals = con.execute("SELECT count(*) FROM rewind_journal_row").fetchone()[0]
        open_calls = con.execute(
            "SELECT count(*) FROM message_row WHERE valid AND role = 'assistant' AND "
            "(parts LIKE '%\"state\": \"running\"%' OR parts LIKE '%\"state\": \"pending\"%')").fetchone()[0]
    finally:
        con.close()
    return str(ok), int(journals), int(open_calls)


async def check_kernel(kernel: Kernel, ledger: Ledger, project: Path,
                       in_flight: tuple[str, list[str]] | None) -> None:
    """Everything that must hold after a restart; raises ``AssertionError`` naming what broke."""
    sessions = await kernel.sessions.list_sessions()
    live = {s.id for s in sessions}
    assert all(s.phase == "idle" for s in sessions), "a session is not idle after restart"
    for s in sessions:
        await _check_session(kernel, s.id)
    await _check_commits(kernel, ledger, live)
    _check_marker(project)
    _check_no_rewind_leftovers(project, ledger)
    await _check_branches(kernel, ledger, sessions)
    if in_flight is not None:
        await _check_in_flight(kernel, project, in_flight)
        ledger.figures[f"in-flight {in_flight[0]}"] += 1


async def _check_session(kernel: Kernel, sid: str) -> None:
    valid = await kernel.store.read(valid_messages, sid)
    assert [m.id for m in valid] == [m.id for m in await kernel.store.read(replay, sid)], f"projection of {sid}"
    answered = {r.call_id for m in valid if (r := m.tool_result) is not None}
    for m in valid:
        for call in m.tool_calls:
            assert call.state not in (ToolState.PENDING, ToolState.RUNNING), f"open call {call.call_id}"
            assert call.call_id in answered, f"call {call.call_id} has no result"
        if m.role == "assistant" and m.status == "complete" and m.text:
            match = BEGIN.match(m.text)
            assert match and m.text == reply_text(int(match.group(1))), f"partial marked complete: {m.id}"


async def _check_commits(kernel: Kernel, ledger: Ledger, live: set[str]) -> None:
    checked = 0
    for mid, (sid, status) in ledger.commits.items():
        if sid not in live:
            assert await kernel.store.read(is_tombstoned, sid), f"session {sid} vanished without a tombstone"
            continue
        try:
            stored = await kernel.store.read(get_message, mid)
        except NotFound:
            assert await kernel.store.read(rewound_away, sid, mid), f"committed message {mid} lost"
            ledger.figures["rewound messages gone with the deleted branch that inherited them"] += 1
            continue
        assert str(stored.status) == status, f"message {mid} changed status"
        checked += 1
    ledger.figures["committed messages re-checked (last pass)"] = checked


def rewound_away(sid: str, mid: str) -> bool:
    """Whether ``mid`` left ``sid``'s history by a rewind: copy-on-write hands a rewound message a
    branch still shows over to that branch (``history_view.hand_over``), so deleting the branch
    later takes the row with it, rightly. Writer-free read (reader thread)."""
    seq = None
    for event_seq, type_, payload in events_of(sid):
        if type_ == "message_added" and payload.get("id") == mid:
            seq = event_seq
        elif type_ == "history_rewound" and seq is not None and payload["from_seq"] <= seq:
            return not is_valid(sid, mid)
    return False


def _check_marker(project: Path) -> None:
    marker = project / "marker.log"
    lines = marker.read_text().split() if marker.exists() else []
    counts = Counter(lines)
    twice = [k for k, v in counts.items() if v > 1]
    assert not twice, f"tool executed twice: {twice}"


def _check_no_rewind_leftovers(project: Path, ledger: Ledger) -> None:
    """Issue 14: a kill during a rewind's file phase leaves none of its temporary files in the
    person's project (recovery rolls the journal forward and removes them), in any folder."""
    left = sorted(str(p.relative_to(project)) for p in project.rglob(f"{TEMP_PREFIX}*"))
    assert not left, f"rewind temporary files left in the project: {left}"
    ledger.figures["projects checked free of rewind temporaries"] += 1


async def _check_branches(kernel: Kernel, ledger: Ledger, sessions: list[Any]) -> None:
    """A branch is whole or absent: it reads as the source's history up to the boundary it was
    made at (``BRANCH-START``'s count), never a part of it.

    A branch stores only its boundary turn (the copies, which name the message they were made
    from) and inherits the finished turns before it (copy-on-write), so "whole" is the position of
    the last copy in the branch's history as the store reads it, not the number of copied rows.
    A later rewind of the branch to before its boundary leaves nothing to check.
    """
    for s in sessions:
        if not s.origin.startswith("branch:"):
            continue
        copied = [e for e in await kernel.store.read(events_of, s.id)
                  if e[1] == "message_added" and "imported_from" in e[2].get("meta", {})]
        assert copied, f"branch {s.id} has no copy of its boundary turn"
        after = copied[-1][2]["meta"]["imported_from"]["message_id"]
        expected = ledger.branch_starts.get((s.origin.removeprefix("branch:"), after))
        assert expected is not None, f"branch {s.id} ends its copy at {after}, not where it was made"
        ids = [m.id for m in await kernel.store.read(valid_messages, s.id)]
        last = copied[-1][2]["id"]
        if last in ids:
            assert ids.index(last) + 1 == expected, f"branch {s.id} is partial"
        ledger.figures["branches checked whole"] += 1


async def _check_in_flight(kernel: Kernel, project: Path, op: tuple[str, list[str]]) -> None:
    kind, rest = op
    if kind == "REWIND":
        sid, mid, files = rest[0], rest[1], json.loads(rest[2])
        after = not await kernel.store.read(is_valid, sid, mid)
        for path, (before_sha, target_sha) in files.items():
            assert file_sha(project / path) == (target_sha if after else before_sha), \
                f"rewind of {sid} left {path} in a mixed state"
    elif kind == "DELETE":
        tree = json.loads(rest[1])
        gone = [await kernel.store.read(is_tombstoned, t) for t in tree]
        assert all(gone) or not any(gone), "a delete left part of the tree"
        if all(gone):
            for t in tree:
                assert await kernel.store.read(leftover_rows, t) == {}, f"rows of deleted {t} remain"
