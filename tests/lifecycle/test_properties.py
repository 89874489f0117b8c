"""Hypothesis stateful test: random send, tool write, outside edit, branch, rewind, delete and
restart sequences against a small in-memory model of what Foya promises.

Checked after every step: each live session's valid history equals the model's
(branch isolation), every project file — tracked or not — is byte-identical to
the model (rewind restores exactly the tracked files, never touches the rest),
deleted sessions have no rows left and stay tombstoned, every session is idle.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from foya_desktop.core.errors import NotFound, SessionDeleted
from foya_desktop.core.messages import Message, TextPart
from foya_desktop.core.model import ApprovalMode, Connection, Phase, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.store.ops_delete import leftover_rows
from tests.engine.conftest import FAST_RETRY, FAST_TIMEOUTS
from tests.fakeprovider import FakeProviderServer
from tests.helpers.agent_script import agent_responder
from tests.helpers.fake_keyring import MemoryKeyring

TRACKED = ("a.txt", "sub/c.txt")
UNIVERSE = (*TRACKED, "README.md", "notes.txt")
CONTENT = st.text(alphabet="abcxyz123", max_size=8)
PLAIN = st.sampled_from(["hi", "hello there", "what now", "ok then"])

Write = tuple[str, bytes | None, bytes]


@dataclass
class Turn:
    """One user message and what it should have left in the valid history."""

    user: str
    rows: list[tuple[str, str]]
    writes: list[Write] = field(default_factory=list)
    """(path, before, after) recorded by this session's tools (empty for copied turns)."""


@dataclass
class ModelSession:
    turns: list[Turn] = field(default_factory=list)

    def history(self) -> list[tuple[str, str]]:
        return [row for t in self.turns for row in t.rows]


class LifecycleMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = Path(tempfile.mkdtemp(prefix="foya-prop-"))
        self.project = self.tmp / "proj"
        self.project.mkdir()
        self.files: dict[str, bytes | None] = dict.fromkeys(UNIVERSE)
        self._edit("README.md", b"# readme\n")
        self._edit("notes.txt", b"never touched by tools\n")
        self._edit("a.txt", b"original a\n")
        self.fake = FakeProviderServer().start()
        self.fake.responder = agent_responder
        self.keyring = MemoryKeyring()
        self.loop = asyncio.new_event_loop()
        self.kernel = self._build()
        self.run(self.kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, self.fake.base_url, "m")))
        self.sessions: dict[str, ModelSession] = {}
        self.deleted: set[str] = set()
        self._new_session()

    # ---- plumbing ----------------------------------------------------------------

    def _build(self) -> Kernel:
        return build_kernel(Home(self.tmp / "home"), keystore=KeyStore(self.keyring),
                            timeouts=FAST_TIMEOUTS, retry=FAST_RETRY)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.kernel.close())
        self.loop.close()
        self.fake.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _edit(self, path: str, data: bytes | None) -> None:
        target = self.project / path
        if data is None:
            target.unlink(missing_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        self.files[path] = data

    def _new_session(self) -> None:
        s = self.run(self.kernel.sessions.create_session(workdir=str(self.project), approval_mode=ApprovalMode.AUTO_EDIT))
        self.sessions[s.id] = ModelSession()

    def _turn(self, sid: str, text: str) -> None:
        async def go() -> None:
            await self.kernel.turns.send(sid, text)
            await self.kernel.turns.wait_idle()
        self.run(go())

    def _pick(self, data: st.DataObject) -> str:
        return data.draw(st.sampled_from(sorted(self.sessions)))

    # ---- rules -------------------------------------------------------------------

    @precondition(lambda self: len(self.sessions) < 4)
    @rule()
    def create(self) -> None:
        self._new_session()

    @precondition(lambda self: self.sessions)
    @rule(data=st.data(), text=PLAIN)
    def send(self, data: st.DataObject, text: str) -> None:
        sid = self._pick(data)
        self._turn(sid, text)
        self.sessions[sid].turns.append(Turn(text, [("user", text), ("assistant", f"reply to: {text}")]))

    @precondition(lambda self: self.sessions)
    @rule(data=st.data(), path=st.sampled_from(TRACKED), content=CONTENT)
    def tool_write(self, data: st.DataObject, path: str, content: str) -> None:
        sid = self._pick(data)
        text = f"write {path} {content}"
        before, after = self.files[path], content.encode()
        self._turn(sid, text)
        self.files[path] = after
        rows = [("user", text), ("assistant", ""), ("tool", ""), ("assistant", "done")]
        self.sessions[sid].turns.append(Turn(text, rows, [(path, before, after)]))

    @rule(path=st.sampled_from(UNIVERSE), content=st.one_of(st.none(), CONTENT))
    def outside_edit(self, path: str, content: str | None) -> None:
        self._edit(path, None if content is None else content.encode())

    @precondition(lambda self: any(s.turns for s in self.sessions.values()))
    @rule(data=st.data())
    def branch(self, data: st.DataObject) -> None:
        sid = data.draw(st.sampled_from(sorted(k for k, s in self.sessions.items() if s.turns)))
        model = self.sessions[sid]
        cut = data.draw(st.integers(1, len(model.turns)))
        valid = self.run(self.kernel.store.valid_messages(sid))
        boundary = valid[len([r for t in model.turns[:cut] for r in t.rows]) - 1]
        branch = self.run(self.kernel.lifecycle.branch(sid, boundary.id))
        self.sessions[branch.id] = ModelSession([Turn(t.user, list(t.rows)) for t in model.turns[:cut]])

    @precondition(lambda self: any(s.turns for s in self.sessions.values()))
    @rule(data=st.data())
    def rewind(self, data: st.DataObject) -> None:
        sid = data.draw(st.sampled_from(sorted(k for k, s in self.sessions.items() if s.turns)))
        model = self.sessions[sid]
        k = data.draw(st.integers(0, len(model.turns) - 1))
        offset = len([r for t in model.turns[:k] for r in t.rows])
        target = self.run(self.kernel.store.valid_messages(sid))[offset]
        preview = self.run(self.kernel.lifecycle.rewind_preview(sid, target.id))
        restore, remove, unsafe = self._expected_rewind(model.turns[k:])
        assert (preview.restore, preview.remove) == (tuple(sorted(restore)), tuple(sorted(remove)))
        assert tuple(u.path for u in preview.unsafe) == tuple(sorted(unsafe))
        event(f"rewind: restore={bool(restore)} remove={bool(remove)} unsafe={bool(unsafe)}")
        result = self.run(self.kernel.lifecycle.rewind_confirm(sid, preview))
        assert result.text == model.turns[k].user
        for path, content in {**restore, **dict.fromkeys(remove)}.items():
            self.files[path] = content
        del model.turns[k:]

    def _expected_rewind(self, removed: list[Turn]) -> tuple[dict[str, bytes], list[str], list[str]]:
        writes: dict[str, list[Write]] = {}
        for turn in removed:
            for w in turn.writes:
                writes.setdefault(w[0], []).append(w)
        restore: dict[str, bytes] = {}
        remove: list[str] = []
        unsafe: list[str] = []
        for path, ws in writes.items():
            if self.files[path] != ws[-1][2]:
                unsafe.append(path)
            elif ws[0][1] != self.files[path]:
                if ws[0][1] is None:
                    remove.append(path)
                else:
                    restore[path] = ws[0][1]
        return restore, remove, unsafe

    @precondition(lambda self: self.sessions)
    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        sid = self._pick(data)
        self.run(self.kernel.lifecycle.delete_session(sid))
        del self.sessions[sid]
        self.deleted.add(sid)

    @rule()
    def restart(self) -> None:
        self.run(self.kernel.close())
        self.kernel = self._build()

    # ---- invariants --------------------------------------------------------------

    @invariant()
    def histories_match(self) -> None:
        for sid, model in self.sessions.items():
            valid = self.run(self.kernel.store.valid_messages(sid))
            assert [(m.role, m.text) for m in valid] == model.history()

    @invariant()
    def files_match(self) -> None:
        for path, content in self.files.items():
            target = self.project / path
            assert (target.read_bytes() if target.exists() else None) == content, path

    @invariant()
    def deleted_stay_deleted(self) -> None:
        for sid in self.deleted:
            assert self.run(self.kernel.store.read(leftover_rows, sid)) == {}
            try:
                self.run(self.kernel.store.append_message(Message("msg_late", sid, "user", (TextPart("x"),))))
            except SessionDeleted:
                pass
            else:
                raise AssertionError("a late write for a deleted session was accepted")
            try:
                self.run(self.kernel.sessions.get_session(sid))
            except NotFound:
                pass
            else:
                raise AssertionError("a deleted session is still listed")

    @invariant()
    def all_idle(self) -> None:
        assert all(s.phase == Phase.IDLE for s in self.run(self.kernel.sessions.list_sessions()))


LifecycleMachine.TestCase.settings = settings(
    # Deterministic: the same sequences every run (no random seed, no example database), and
    # every precondition and draw reads the model only, never engine timing.
    derandomize=True, database=None,
    max_examples=50, stateful_step_count=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
# The whole run (50 sequences of real turns) outlasts the suite's per-test timeout of 120 s
# on a loaded machine; a timeout firing inside a step made Hypothesis report the run as
# flaky (FlakyFailure/FlakyStrategyDefinition) instead of failing plainly.
TestLifecycleProperties = pytest.mark.timeout(900)(LifecycleMachine.TestCase)
