"""Streams leave nothing for the garbage collector to finalise.

qasync's event loop (the app's loop) installs no async-generator hooks, so an
async generator abandoned mid-iteration — ours or httpx's — is finalised by
the GC outside the loop and fails ("async generator ignored GeneratorExit").
These tests run the adapters with the hooks removed, as under qasync, and
check that every path (complete, error, timeout, early stop) cleans up.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from foya_desktop.core.errors import ProviderError
from foya_desktop.providers.base import Timeouts
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.providers.conftest import MakeProvider, collect, simple_request


@contextlib.contextmanager
def like_qasync() -> Iterator[list[Any]]:
    """Inside a running loop: drop its async-generator hooks and collect what the GC reports.

    Must be entered inside the test coroutine: ``run_forever`` re-installs the
    hooks each time pytest-asyncio starts the loop.
    """
    unraisable: list[Any] = []
    old_hook = sys.unraisablehook
    old_hooks = sys.get_asyncgen_hooks()
    sys.unraisablehook = unraisable.append
    sys.set_asyncgen_hooks(firstiter=None, finalizer=None)
    try:
        yield unraisable
        gc.collect()
    finally:
        sys.set_asyncgen_hooks(*old_hooks)
        sys.unraisablehook = old_hook


SCENARIOS = {
    "complete": Reply(text="all of it", chunk_size=2),
    "cut": Reply(text="abcdefgh", chunk_size=2, fault=Fault.cut(after_chunks=2)),
    "midstream error": Reply(text="abcdefgh", chunk_size=2, fault=Fault.midstream_error(after_chunks=2)),
    "bad json": Reply(text="abcdefgh", chunk_size=2, fault=Fault.bad_json(after_chunks=2)),
    "bad tool json": Reply(tool_calls=[], text="x", finish_reason=None),
    "idle timeout": Reply(text="abcdefgh", chunk_size=2, delay_per_chunk=0.5),
    "http error": Reply(fault=Fault.status(400)),
    "retry then complete": Reply(fault=Fault.status(500)),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_no_generator_is_left_for_the_gc(server: FakeProviderServer, make_provider: MakeProvider,
                                               scenario: str) -> None:
    server.script(SCENARIOS[scenario], Reply(text="second"))
    provider = make_provider(timeouts=Timeouts(connect=2, first_byte=2, idle=0.2, total=10))
    with like_qasync() as unraisable:
        with contextlib.suppress(ProviderError):
            await collect(provider)
        with contextlib.suppress(ProviderError):
            await collect(provider)
        gc.collect()
    assert [f"{u.exc_value} in {u.object!r}" for u in unraisable] == []


async def test_early_stop_leaves_nothing_for_the_gc(server: FakeProviderServer,
                                                    make_provider: MakeProvider) -> None:
    server.script(Reply(text="long " * 50, chunk_size=2), Reply(text="next"))
    provider = make_provider()
    with like_qasync() as unraisable:
        stream = provider.stream(simple_request())
        await anext(stream)
        await stream.aclose()
        assert await collect(provider)
        gc.collect()
    assert [f"{u.exc_value} in {u.object!r}" for u in unraisable] == []
