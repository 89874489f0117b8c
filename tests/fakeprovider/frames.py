"""The unit the fake server writes: one SSE event, tagged by its role in the stream.

Faults are injected by position: after ``after_chunks`` *content* frames, or
at the first *tail* frame (finish/usage/stop) if the reply is shorter, so a
cut stream never carries a terminal event.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

FrameRole = Literal["meta", "content", "tail"]


@dataclass(frozen=True)
class Frame:
    """One SSE event, ready to write."""

    data: bytes
    role: FrameRole


def sse(data: dict[str, Any] | str, event: str | None = None, role: FrameRole = "content") -> Frame:
    """Encode one SSE event (``data`` as JSON unless it is already a string)."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    head = f"event: {event}\n" if event else ""
    return Frame(f"{head}data: {text}\n\n".encode(), role)
