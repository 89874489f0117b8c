"""Small helpers both adapters need, kept here so the two stay consistent."""

from __future__ import annotations

import base64
import json
from typing import Any

from foya_desktop.core.errors import BadResponse
from foya_desktop.core.llm import InlineImage
from foya_desktop.providers.sse import SseEvent

_SNIPPET = 80


def b64(image: InlineImage) -> str:
    """The image bytes as base64 text, as both vendors want them."""
    return base64.b64encode(image.data).decode("ascii")


def parse_tool_arguments(raw: str, name: str) -> dict[str, Any]:
    """A finished tool call's JSON arguments. Empty means ``{}``; anything but an object is an
    error, because a tool run with made-up arguments is worse than a failed step."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        raise BadResponse(f"The model called the tool {name!r} with arguments that are not valid "
                          "JSON.") from None
    if not isinstance(value, dict):
        raise BadResponse(f"The model called the tool {name!r} with arguments that are not a JSON "
                          "object.")
    return value


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
