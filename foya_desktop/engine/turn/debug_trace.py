"""Debug traces: each model step and tool call of a turn as it really went.

Per step: the provider request as sent (system prompt, messages, tools
offered, parameters) with known secrets scrubbed — API keys never reach the
request at all, they live in the provider's headers — the tokens reported,
the stop reason, time to first byte, duration and retries. Per tool call: its
arguments, result size and timing. Stored per session (deleted with it,
never copied by branch, fork or merge: those copy messages, not traces).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import peewee as pw

from foya_desktop.core.figures import DEBUG_WARNING, Usage
from foya_desktop.core.ids import now_ms
from foya_desktop.core.llm import InlineImage, LlmPart, LlmRequest, LlmToolResult
from foya_desktop.core.messages import ToolCallPart, part_to_json
from foya_desktop.engine.permissions.secrets import known_secrets, scrub
from foya_desktop.engine.services import Services
from foya_desktop.store.schema import DebugTraceRow

WARNING = DEBUG_WARNING

MAX_TRACE_CHARS = 400_000
"""A single trace is cut beyond this (very long histories); the cut is marked."""


@dataclasses.dataclass
class StepTiming:
    """Wall-clock marks of one provider request (epoch ms)."""

    started: int
    first_byte: int = 0
    ended: int = 0


def request_json(request: LlmRequest) -> dict[str, Any]:
    """The request in a neutral JSON shape: what the adapter turned into vendor JSON."""
    return {"model": request.model, "system": request.system,
            "messages": [{"role": m.role, "parts": [_part(p) for p in m.parts]} for m in request.messages],
            "tools": [{"name": t.name, "description": t.description, "parameters": t.parameters}
                      for t in request.tools],
            "parameters": {"reasoning_effort": request.reasoning_effort, "max_tokens": request.max_tokens,
                           **request.extra}}


def _part(part: LlmPart) -> Any:
    """A part as JSON; image bytes become their type and size (never the bytes)."""
    if isinstance(part, InlineImage):
        return {"kind": "image", "mime": part.mime, "bytes": len(part.data)}
    if isinstance(part, LlmToolResult):
        return {"kind": "tool_result", "call_id": part.call_id, "name": part.name, "content": part.content,
                "is_error": part.is_error, "images": [_part(i) for i in part.images]}
    return part_to_json(part)


async def record_step(svc: Services, session_id: str, turn_id: str, speaker: str, workdir: str, *,
                      connection: str, request: LlmRequest, usage: Usage, stop_reason: str | None,
                      timing: StepTiming, retries: int, error: str = "") -> None:
    """Store one model step's trace."""
    data = {"connection": connection, "request": request_json(request), "usage": dataclasses.asdict(usage),
            "stop_reason": stop_reason, "started_at": timing.started,
            "ttfb_ms": timing.first_byte - timing.started if timing.first_byte else None,
            "duration_ms": timing.ended - timing.started, "retries": retries, "error": error}
    await _store(svc, session_id, turn_id, speaker, "step", data, workdir)


async def record_tool(svc: Services, session_id: str, turn_id: str, speaker: str, workdir: str, *,
                      call: ToolCallPart, result: str, is_error: bool, blocked: bool, started: int) -> None:
    """Store one tool call's trace (the result itself stays in the timeline)."""
    data = {"tool": call.name, "call_id": call.call_id, "arguments": call.arguments,
            "result_chars": len(result), "is_error": is_error, "blocked": blocked,
            "started_at": started, "duration_ms": now_ms() - started}
    await _store(svc, session_id, turn_id, speaker, "tool", data, workdir)


async def _store(svc: Services, session_id: str, turn_id: str, speaker: str, kind: str,
                 data: dict[str, Any], workdir: str) -> None:
    text = json.dumps(data, ensure_ascii=False, default=str)
    if workdir:
        secrets = await asyncio.to_thread(known_secrets, Path(workdir))
        text = scrub(text, secrets)
    if len(text) > MAX_TRACE_CHARS:
        text = json.dumps({"truncated": True, "head": text[:MAX_TRACE_CHARS]})

    def insert() -> None:
        DebugTraceRow.insert(session=session_id, turn_id=turn_id, speaker=speaker, kind=kind, data=text,
                             created_at=now_ms()).execute()
    await svc.store.write(insert)


def traces(session_id: str, turn_id: str | None = None) -> list[dict[str, Any]]:
    """A session's traces, oldest first (sync; the reader thread)."""
    query = DebugTraceRow.select().where(DebugTraceRow.session == session_id)
    if turn_id is not None:
        query = query.where(DebugTraceRow.turn_id == turn_id)
    return [{"turn_id": r.turn_id, "speaker": r.speaker, "kind": r.kind, "created_at": r.created_at,
             **json.loads(r.data)} for r in query.order_by(pw.SQL("id"))]
