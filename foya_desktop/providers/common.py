"""Small helpers both adapters need, kept here so the two stay consistent."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from foya_desktop.core.errors import BadResponse
from foya_desktop.core.llm import InlineImage
from foya_desktop.providers.sse import SseEvent

_SNIPPET = 80


def b64(image: InlineImage) -> str:
    """The image bytes as base64 text, as both vendors want them."""
    return base64.b64encode(image.data).decode("ascii")


def read_tool_arguments(raw: str) -> tuple[dict[str, Any], str]:
    """A finished tool call's JSON arguments and, when they cannot be used, why (else ``""``).

    Empty means ``{}``. Anything but a JSON object is not run — a tool run with made-up
    arguments is worse than a failed call — but it no longer fails the step either: the engine
    returns the reason to the model as the call's failed result, so it can send the call again
    (small local models often get the JSON wrong once).
    """
    if not raw.strip():
        return {}, ""
    try:
        value = json.loads(raw)
    except ValueError as exc:
        return {}, f"not valid JSON ({exc})"
    if not isinstance(value, dict):
        return {}, f"a JSON {_json_kind(value)}, not a JSON object"
    return value, ""


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "boolean" if isinstance(value, bool) else "number"


TOOL_CALL_PARSE_FAILURE = re.compile(r"\bFailed to parse input at pos \d+")
"""llama.cpp's message when the model's output does not parse as its chat format (a tool call
written wrongly, stray text where the template expects a call). ``common/chat.cpp``
(``common_chat_peg_parse``) throws ``"Failed to parse input at pos " + pos [+ ": " + rest]``;
``tools/server`` sends the failed result inside the already started stream as
``data: {"error": {"code": 500, "message": …, "type": "server_error"}}`` (OpenAI wire,
``format_oai_sse(json {{ "error", res_json }})``) or ``event: error`` with that object as its
data (Anthropic wire), and ends the stream without ``[DONE]``."""


def unreadable_reply(message: str) -> bool:
    """Whether an in-stream error says the server could not read the model's reply (see
    :data:`TOOL_CALL_PARSE_FAILURE`): the model can be told and try again."""
    return TOOL_CALL_PARSE_FAILURE.search(message) is not None


def load_event_json(event: SseEvent, host: str) -> dict[str, Any]:
    """The JSON object in an SSE event's data, or :class:`BadResponse` in plain words."""
    try:
        value = json.loads(event.data)
    except ValueError:
        snippet = event.data[:_SNIPPET]
        raise BadResponse(f"{host} sent a stream event Foya cannot read (invalid JSON: "
                          f"{snippet!r}).") from None
    if not isinstance(value, dict):
        raise BadResponse(f"{host} sent a stream event that is not a JSON object.")
    return value


def optional_int(value: Any) -> int | None:
    """An integer token count, or ``None`` when the vendor did not report one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value)
