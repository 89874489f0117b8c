"""The API key never shows up in an error, a repr, a traceback or a log record.

The fake server echoes the key it received in its 401 body (as some vendors
do, partly masked) and we put it into an in-stream error message too: the
worst cases an adapter has to survive.
"""

from __future__ import annotations

import logging
import traceback

import pytest

from foya_desktop.core.errors import ProviderError
from foya_desktop.providers.base import RetryPolicy
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.providers.conftest import CANARY_KEY, MakeProvider, RetryLog, collect_until_error
from tests.providers.test_failures import free_port

FAULTS = {
    "401 echoing the key": [Reply(fault=Fault.status(401))],
    "403": [Reply(fault=Fault.status(403))],
    "429 then 429": [Reply(fault=Fault.status(429, retry_after=0)), Reply(fault=Fault.status(429))],
    "500 with key in body": [Reply(fault=Fault.status(500, body={"error": {
        "type": "server_error", "message": f"upstream said: invalid key {CANARY_KEY} (partial "
                                           f"{CANARY_KEY[:-4]}****)"}}))] * 2,
    "plain-text body with the key": [
        Reply(fault=Fault.status(400, body=f"bad header x-api-key: {CANARY_KEY}"))],
    "midstream error quoting the key": [Reply(text="abc", fault=Fault.midstream_error(
        "authentication_error", f"key {CANARY_KEY} revoked"))],
    "cut": [Reply(text="abcdefgh", fault=Fault.cut())],
    "bad json": [Reply(text="abcdefgh", fault=Fault.bad_json())],
    # bad tool arguments are no error any more (the engine tells the model); llama.cpp's parse failure
    # quotes the model's output, which may hold anything
    "unreadable reply quoting the key": [Reply(text="abc", fault=Fault.llama_cpp_error(
        f"Failed to parse input at pos 3: <tool_call>{CANARY_KEY}"))],
}


def assert_clean(text: str) -> None:
    assert CANARY_KEY not in text
    assert CANARY_KEY[-16:] not in text  # no long fragment of it either


def assert_error_clean(error: BaseException) -> None:
    assert_clean(str(error))
    assert_clean(repr(error))
    assert_clean(repr(error.args))
    assert_clean("".join(traceback.format_exception(error)))
    assert_clean(repr(vars(error)))


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_canary_key_never_leaks(server: FakeProviderServer, make_provider: MakeProvider,
                                      retries: RetryLog, caplog: pytest.LogCaptureFixture,
                                      fault: str) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, httpx and httpcore included
    server.script(*FAULTS[fault])
    provider = make_provider(retry=RetryPolicy(max_attempts=2, base_delay=0.01, max_retry_after=0.05))
    _, error = await collect_until_error(provider)
    assert server.requests[0].headers.get("authorization", "").endswith(CANARY_KEY) or \
        server.requests[0].headers.get("x-api-key") == CANARY_KEY  # the key was really sent
    assert_error_clean(error)
    for _, _, retry_error in retries.calls:
        assert_error_clean(retry_error)
    assert_clean(repr(provider))
    for record in caplog.records:
        assert_clean(record.getMessage())
        assert_clean(logging.Formatter().format(record))
    assert caplog.records or fault != "429 then 429"  # retries are logged


async def test_canary_key_never_leaks_when_connection_fails(make_provider: MakeProvider,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    url = f"http://user:{CANARY_KEY}@127.0.0.1:{free_port()}/v1"  # even a key pasted into the URL
    _, error = await collect_until_error(make_provider(base_url=url))
    assert isinstance(error, ProviderError)
    assert_error_clean(error)
    for record in caplog.records:
        assert_clean(logging.Formatter().format(record))
