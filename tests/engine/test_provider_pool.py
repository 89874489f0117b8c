"""The provider pool closes the HTTP clients it drops (issue 7), but never under a request in flight."""

from __future__ import annotations

from typing import Any

from foya_desktop.core.events import PartDelta
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.engine import Recorder, wait_for, wait_turns


def _http_client(pooled: Any) -> Any:
    """The httpx client under a pooled provider (the adapter's own, real one)."""
    return pooled._provider._http._client


async def test_forget_closes_the_dropped_client(kernel: Kernel, fake: FakeProviderServer) -> None:
    s = await kernel.sessions.create_session()
    provider, _ = await kernel.svc.providers.resolve(s, (await kernel.vps.list_vps())[0])
    client = _http_client(provider)
    assert not client.is_closed
    await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model"))
    assert client.is_closed
    again, _ = await kernel.svc.providers.resolve(s, (await kernel.vps.list_vps())[0])
    assert again is not provider and not _http_client(again).is_closed


async def test_a_request_in_flight_finishes_before_its_client_closes(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="word " * 100, chunk_size=5, delay_per_chunk=0.01))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "long one")
    await wait_for(lambda: any(isinstance(e, PartDelta) for e in rec.events))
    (pooled,) = kernel.svc.providers._cache.values()
    await kernel.connections.remove_connection("fake")  # the turn's next step would need it; this one finishes
    assert not _http_client(pooled).is_closed
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed"
    assert (await kernel.store.valid_messages(s.id))[-1].text == ("word " * 100)
    assert _http_client(pooled).is_closed
