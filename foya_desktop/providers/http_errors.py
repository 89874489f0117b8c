"""Turning HTTP failures into the plain-words :class:`ProviderError` tree.

A person reads these messages in the timeline, so they say what happened and
what to do, never show a stack of vendor JSON, and never repeat the API key:
some vendors echo the key they received in their 401 body, so vendor text is
left out of auth errors entirely and redacted everywhere else.
"""

from __future__ import annotations

import email.utils
import json
import re
import time
from collections.abc import Mapping
from typing import Any

from foya_desktop.core.errors import (
    AuthError,
    ContextTooLong,
    Overloaded,
    ProviderError,
    RateLimited,
)

_VENDOR_TEXT_LIMIT = 300
_MIN_SECRET_LEN = 8
_TOKEN_RE = re.compile(r"[A-Za-z0-9_\-.+/=]{12,}")
_CONTEXT_RE = re.compile(
    r"context[ _-]?(length|window|size)|maximum context|prompt is too long|too many (input )?tokens"
    r"|reduce the length|tokens? ?> ?\d+|exceeds? the (model's )?(max|maximum|limit)",
    re.IGNORECASE,
)
_OVERLOADED_STATUSES = frozenset({408, 409, 529})


def redact(text: str, secret: str | None) -> str:
    """Remove ``secret`` and any long fragment of it (vendors echo keys partly masked).

    A very short "key" (a placeholder such as ``x`` for a local server) is only
    removed where it stands alone, so ordinary words keep their letters.
    """
    if not secret:
        return text
    if len(secret) < _MIN_SECRET_LEN:
        return re.sub(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", "[redacted]", text)
    text = text.replace(secret, "[redacted]")

    def _hide(match: re.Match[str]) -> str:
        token = match.group(0)
        return "[redacted]" if token in secret or secret in token else token

    return _TOKEN_RE.sub(_hide, text)


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds the server asks us to wait: ``retry-after-ms``, or ``Retry-After`` in seconds
    or as an HTTP-date. ``None`` when absent or unreadable."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def vendor_error(body: bytes) -> tuple[str, str]:
    """``(type, message)`` from an OpenAI- or Anthropic-style error body; best effort."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        data: Any = json.loads(text)
    except ValueError:
        return "", text[:_VENDOR_TEXT_LIMIT]
    return vendor_error_from_json(data)


def vendor_error_from_json(data: Any) -> tuple[str, str]:
    """Like :func:`vendor_error` for already-decoded JSON (also used for in-stream errors)."""
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, str):
        return "", error
    if not isinstance(error, dict):
        return "", ""
    kind = error.get("type") or error.get("code") or ""
    message = error.get("message") or error.get("detail") or ""
    return str(kind), str(message)


def error_for_status(status: int, host: str, *, vendor_type: str = "", vendor_message: str = "",
                     retry_after: float | None = None, secret: str | None = None,
                     window: int | None = None) -> ProviderError:
    """Map an HTTP status plus the vendor's error type/message to the error tree (``window``: the
    context window the error body states, see :func:`stated_window`)."""
    detail = vendor_detail(vendor_type, vendor_message, secret)
    suffix = f": {detail}" if detail else "."
    if status == 401:
        return AuthError(f"The API key was rejected by {host} (HTTP 401). Check the key stored for "
                         "this connection.", status=status)
    if status == 403:
        return AuthError(f"The API key was rejected by {host} (HTTP 403, not allowed){suffix}",
                         status=status)
    if _is_context_error(status, vendor_type, vendor_message):
        if window:
            return ContextTooLong(f"The conversation is longer than this model's context window of "
                                  f"{window:,} tokens; compact it or start a branch{suffix}",
                                  status=status, window=window)
        return ContextTooLong(f"The conversation is too long for the model's context window{suffix}",
                              status=status)
    if status == 429:
        return RateLimited(f"{host} is limiting how many requests we may send (HTTP 429){suffix}",
                           status=status, retry_after=retry_after)
    if status in _OVERLOADED_STATUSES or status >= 500:
        return Overloaded(f"{host} is overloaded or failing for now (HTTP {status}){suffix}",
                          status=status, retry_after=retry_after)
    if status == 404:
        return ProviderError(f"{host} answered 404 Not Found: check the base URL and the model "
                             f"name{suffix}", status=status)
    return ProviderError(f"{host} rejected the request (HTTP {status}){suffix}", status=status)


def stated_window(body: bytes) -> int | None:
    """The context window an error body states: llama.cpp's ``tools/server`` answers an oversized
    prompt with HTTP 400 and ``{"error": {"code": 400, "message": "request (8759 tokens) exceeds the
    available context size (4096 tokens), …", "type": "exceed_context_size_error", "n_prompt_tokens":
    8759, "n_ctx": 4096}}`` (``server_task_result_error::to_json`` adds ``n_prompt_tokens`` and
    ``n_ctx`` for ``ERROR_TYPE_EXCEED_CONTEXT_SIZE``). ``None`` for any other body."""
    try:
        data: Any = json.loads(body)
    except ValueError:
        return None
    error = data.get("error") if isinstance(data, dict) else None
    n_ctx = error.get("n_ctx") if isinstance(error, dict) else None
    return n_ctx if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0 else None


def error_in_ok_body(status: int, host: str, *, vendor_type: str = "", vendor_message: str = "",
                     secret: str | None = None, window: int | None = None) -> ProviderError:
    """A server that answered a success status (200) with an error object instead of a reply (some
    proxies and local servers do): a refused request — one about the context window is still
    :class:`ContextTooLong` — named with the status it really sent, never an HTTP 400 it did not."""
    if _is_context_error(400, vendor_type, vendor_message):
        return error_for_status(400, host, vendor_type=vendor_type, vendor_message=vendor_message,
                                secret=secret, window=window)
    detail = vendor_detail(vendor_type, vendor_message, secret)
    suffix = f": {detail}" if detail else "."
    return ProviderError(f"{host} answered with an error instead of a reply (HTTP {status}){suffix}",
                         status=status)


def _is_context_error(status: int, vendor_type: str, vendor_message: str) -> bool:
    return status in (400, 413) and mentions_context_length(f"{vendor_type} {vendor_message}")


def mentions_context_length(text: str) -> bool:
    """Whether a vendor error text says the prompt exceeds the context window."""
    return bool(_CONTEXT_RE.search(text))


def vendor_detail(vendor_type: str, vendor_message: str, secret: str | None) -> str:
    """The vendor's words, one line, redacted and shortened, for the end of a message."""
    text = vendor_message.strip() or vendor_type.strip()
    text = redact(" ".join(text.split()), secret)
    if len(text) > _VENDOR_TEXT_LIMIT:
        text = text[:_VENDOR_TEXT_LIMIT].rstrip() + "…"
    return text
