"""Provider failures reach the person in plain words and lose nothing."""

from __future__ import annotations

import logging
from pathlib import Path

from foya_desktop.core.events import Notice
from foya_desktop.core.messages import MessageStatus
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.logging_setup import setup_logging
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.helpers.engine import Recorder, wait_turns
from tests.helpers.fake_keyring import MemoryKeyring


async def test_rate_limit_then_success_completes_with_notice(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(fault=Fault.status(429, retry_after=0.05)), Reply(text="made it"))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    assert any("Retrying" in n.text for n in rec.of(Notice))  # type: ignore[attr-defined]
    assert [m.text for m in await kernel.store.valid_messages(s.id)] == ["hi", "made it"]


async def test_cut_stream_is_kept_as_interrupted_never_complete(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="partial answer that goes on", chunk_size=4, fault=Fault.cut(after_chunks=3)))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "error" and done.error
    last = (await kernel.store.valid_messages(s.id))[-1]
    assert last.role == "assistant" and last.status == MessageStatus.INTERRUPTED
    assert last.text and last.text != "partial answer that goes on"


async def test_bad_key_is_reported_plainly(kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(fault=Fault.status(401)))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "error"
    assert "key" in done.error.lower()


async def test_no_connection_is_a_clear_error(kernel: Kernel, rec: Recorder) -> None:
    await kernel.connections.remove_connection("fake")
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "error" and "foya connections add" in done.error


async def test_canary_key_is_nowhere_in_data_dir_or_logs(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, home: Home,
        keyring_backend: MemoryKeyring, project: Path) -> None:
    canary = "sk-CANARY-7f3a9c1e5b"
    setup_logging(home, verbose=True)
    try:
        await kernel.connections.add_connection(Connection("keyed", ProviderKind.ANTHROPIC, fake.base_url, "claude-fake"),
                                    api_key=canary)
        assert ("foya-desktop", "keyed") in keyring_backend.secrets
        s = await kernel.sessions.create_session(workdir=str(project), connection="keyed")
        fake.script(Reply(fault=Fault.status(401)), Reply(fault=Fault.status(500)), Reply(fault=Fault.status(500)),
                    Reply(fault=Fault.status(500)), Reply(text="x", fault=Fault.midstream_error()),
                    Reply(text="fine"))
        for prompt in ("one", "two", "three", "four"):
            await kernel.turns.send(s.id, prompt)
        done = await wait_turns(rec, s.id, 4)
        assert [d.status for d in done] == ["error", "error", "error", "completed"]
        assert fake.requests[0].headers["x-api-key"] == canary  # the key did reach the provider
        texts = [str(e) for e in rec.events]
        assert not any(canary in t for t in texts)
    finally:
        for handler in logging.getLogger().handlers[:]:
            if getattr(handler, "baseFilename", "").startswith(str(home.root)):
                handler.close()
                logging.getLogger().removeHandler(handler)
    leaked = [p for p in home.root.rglob("*") if p.is_file() and canary.encode() in p.read_bytes()]
    assert leaked == []
    assert (home.logs / "foya.log").stat().st_size > 0
