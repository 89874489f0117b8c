"""Status mapping, Retry-After parsing and redaction, as pure functions."""

from __future__ import annotations

import email.utils

import pytest

from foya_desktop.core.errors import (
    AuthError,
    ContextTooLong,
    Overloaded,
    ProviderError,
    RateLimited,
)
from foya_desktop.providers.base import RetryPolicy
from foya_desktop.providers.http import backoff_delay, host_of
from foya_desktop.providers.http_errors import error_for_status, parse_retry_after, redact, vendor_error


@pytest.mark.parametrize(("status", "kind", "message", "expected"), [
    (401, "", "", AuthError),
    (403, "permission_error", "no", AuthError),
    (429, "", "", RateLimited),
    (408, "", "", Overloaded),
    (409, "", "", Overloaded),
    (500, "", "", Overloaded),
    (503, "", "", Overloaded),
    (529, "overloaded_error", "Overloaded", Overloaded),
    (400, "context_length_exceeded", "", ContextTooLong),
    (400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum", ContextTooLong),
    (413, "", "Input exceeds the model's context window", ContextTooLong),
    (400, "invalid_request_error", "messages: text content blocks must be non-empty", ProviderError),
    (422, "", "unprocessable", ProviderError),
])
def test_status_mapping(status: int, kind: str, message: str, expected: type[ProviderError]) -> None:
    error = error_for_status(status, "api.example.com", vendor_type=kind, vendor_message=message)
    assert type(error) is expected
    assert error.status == status


def test_auth_error_wording_leaves_out_vendor_text() -> None:
    error = error_for_status(401, "api.example.com", vendor_message="Incorrect API key provided: sk-abc")
    assert str(error) == ("The API key was rejected by api.example.com (HTTP 401). Check the key stored "
                          "for this connection.")


def test_retryable_flags() -> None:
    assert error_for_status(429, "h").retryable
    assert error_for_status(503, "h").retryable
    assert not error_for_status(401, "h").retryable
    assert not error_for_status(400, "h", vendor_message="maximum context length").retryable


def test_vendor_text_is_one_short_line() -> None:
    error = error_for_status(400, "h", vendor_message="line one\n  line two " + "x" * 1000)
    assert "\n" not in str(error)
    assert len(str(error)) < 400
    assert str(error).endswith("…")


def test_vendor_error_reads_both_vendor_shapes() -> None:
    assert vendor_error(b'{"error": {"message": "m", "type": "t"}}') == ("t", "m")
    assert vendor_error(b'{"type": "error", "error": {"type": "overloaded_error", "message": "O"}}') == (
        "overloaded_error", "O")
    assert vendor_error(b'{"error": "plain"}') == ("", "plain")
    assert vendor_error(b"<html>Bad Gateway</html>") == ("", "<html>Bad Gateway</html>")
    assert vendor_error(b"") == ("", "")


@pytest.mark.parametrize(("headers", "expected"), [
    ({"retry-after": "7"}, 7.0),
    ({"retry-after": "1.5"}, 1.5),
    ({"retry-after": "-3"}, 0.0),
    ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
    ({"retry-after": "soon"}, None),
    ({}, None),
])
def test_parse_retry_after(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_parse_retry_after_http_date() -> None:
    now = 1_700_000_000.0
    assert parse_retry_after({"retry-after": email.utils.formatdate(now + 30, usegmt=True)}, now=now) == 30
    assert parse_retry_after({"retry-after": email.utils.formatdate(now - 30, usegmt=True)}, now=now) == 0


def test_redact_whole_and_partial_keys() -> None:
    key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
    text = f"Incorrect API key provided: {key}. Also sk-proj-abcdefghijklmn****6789."
    cleaned = redact(text, key)
    assert key not in cleaned
    assert "abcdefghijklmn" not in cleaned
    assert cleaned.startswith("Incorrect API key provided: [redacted].")
    assert redact("nothing secret here", key) == "nothing secret here"
    assert redact("text", None) == "text"


def test_redact_short_placeholder_keys_only_where_they_stand_alone() -> None:
    assert redact("Number of request tokens exceeded", "k") == "Number of request tokens exceeded"
    assert redact("bad key: k.", "k") == "bad key: [redacted]."
    assert redact("sk-1 was rejected; sk-12 is fine", "sk-1") == "[redacted] was rejected; sk-12 is fine"


def test_backoff_delay() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0, max_retry_after=10.0)
    assert backoff_delay(policy, 1, RateLimited("x", retry_after=3.0)) == 3.0
    assert backoff_delay(policy, 1, RateLimited("x", retry_after=60.0)) == 10.0
    assert 0.5 <= backoff_delay(policy, 1, Overloaded("x")) <= 1.0
    assert 2.0 <= backoff_delay(policy, 3, Overloaded("x")) <= 4.0
    assert 2.5 <= backoff_delay(policy, 10, Overloaded("x")) <= 5.0


def test_host_of_never_includes_userinfo() -> None:
    assert host_of("https://user:secret@api.example.com/v1/messages") == "api.example.com"
    assert host_of("http://127.0.0.1:8080/v1") == "127.0.0.1:8080"
    assert host_of("not a url") == "the server"
