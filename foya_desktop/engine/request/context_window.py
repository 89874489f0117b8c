"""Building one model request within the context window.

A request is: system prompt (+ the VP's memory and, when the project enabled
it, scoped recall: ``engine.memory.context``; + the latest compaction summary) + the valid
messages after that checkpoint, compiled for the VP. Old tool outputs beyond
a budget are elided from the request (never from the store). When the
request would still exceed the configured share of the connection's context
window, the history before the current turn is compacted first.

Token counts are estimates (characters / 4): good enough to decide when to
compact, and free.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass, replace

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.llm import InlineImage, LlmMessage, LlmRequest, LlmToolResult, ToolSpec
from foya_desktop.core.messages import ReasoningPart, TextPart, ToolCallPart
from foya_desktop.core.model import VP, Session
from foya_desktop.engine.agents.spawning import spawnable_files
from foya_desktop.engine.agents.vps import all_vps
from foya_desktop.engine.memory.context import context_sections
from foya_desktop.engine.project_files.catalog import SKILL_TOOL, context_prompt
from foya_desktop.engine.project_files.session_files import session_files
from foya_desktop.engine.request.context import ContextCompiler
from foya_desktop.engine.request.prompt import system_prompt
from foya_desktop.engine.services import Services
from foya_desktop.store.catalog import get_project
from foya_desktop.store.history import valid_messages
from foya_desktop.store.ops_checkpoints import get_policy, latest_checkpoint, set_policy
from foya_desktop.store.store import Store

IMAGE_TOKENS = 1_000
SUMMARY_HEADING = "Summary of the earlier conversation (compacted; the full history is kept in the session):"
READ_CHUNK = 250
"""Messages read and compiled per step (about 10 ms of GIL each; see ``compile_history``)."""


@dataclass(frozen=True, slots=True)
class CompactionPolicy:
    """When to compact and how much tool output a request may carry."""

    threshold: float = 0.8
    """Compact when the next request would exceed this share of the model's context window."""
    tool_output_budget: int = 30_000
    """Estimated tokens of tool output kept verbatim, newest first; older outputs are elided."""


async def load_policy(store: Store) -> CompactionPolicy:
    """The stored policy, defaults for what was never set."""
    stored = await store.read(get_policy)
    default = CompactionPolicy()
    return CompactionPolicy(threshold=float(stored.get("threshold", default.threshold)),
                            tool_output_budget=int(stored.get("tool_output_budget",
                                                              default.tool_output_budget)))


async def save_policy(store: Store, policy: CompactionPolicy) -> None:
    """Persist the policy for every session."""
    await store.write(set_policy, asdict(policy))


async def compose(svc: Services, session: Session, vp: VP, roster: list[VP], turn_id: str,
                  model: str, policy: CompactionPolicy) -> LlmRequest:
    """The request as it would be sent now (no compaction triggered here)."""
    checkpoint = await svc.store.read(latest_checkpoint, session.id)
    messages = await compile_history(svc, session.id, checkpoint.covers_seq if checkpoint else 0, vp,
                                     {v.id: v.name for v in roster}, turn_id, policy.tool_output_budget * 4)
    project = await svc.store.read(get_project, session.project_id) if session.project_id else None
    files = await session_files(svc, session)
    offered = replace(files, agents=spawnable_files(files.agents, await all_vps(svc.store))) \
        if files.agents else files  # repository agent files the person never added are not offered
    system = system_prompt(vp, session, roster, project,
                           context_prompt(offered, subagent=session.parent_id is not None))
    extra = await context_sections(svc, session, vp.id, bool(project and project.scoped_recall))
    if extra:
        system = f"{system}\n\n{extra}"
    if checkpoint is not None:
        system = f"{system}\n\n{SUMMARY_HEADING}\n{checkpoint.summary}"
    if svc.mcp is not None and session.project_id:
        await svc.mcp.prepare(session, await _context_window(svc, session))
    return LlmRequest(model=model, system=system, messages=messages,
                      tools=tuple(t for t in svc.tools.specs_for(session, vp)
                                  if t.name != SKILL_TOOL or files.skills),
                      reasoning_effort=session.reasoning_effort)


async def compile_history(svc: Services, session_id: str, after_seq: int, vp: VP, names: dict[str, str],
                          turn_id: str, tool_output_chars: int) -> tuple[LlmMessage, ...]:
    """The request's messages: the valid history after ``after_seq`` compiled for ``vp``, older
    tool outputs elided.

    Read and compiled ``READ_CHUNK`` messages at a time, each read on the store's reader thread
    and each compile on a worker thread, the loop free in between: decoding and compiling hold
    the GIL, and one call over 50,000 messages held it for seconds, stalling the loop (the GUI
    thread in the window) as surely as running on it (issue 14). Chunks follow each other by
    seq, so a message appended meanwhile is simply one more at the end (a rewind or delete
    cannot run during the session's turn).
    """
    compiler = ContextCompiler(vp, names, svc.store.files.get, exclude_turn=turn_id)
    after = after_seq
    while True:
        chunk = await svc.store.read(valid_messages, session_id, after, READ_CHUNK)
        if chunk:
            await asyncio.to_thread(compiler.feed, chunk)
            after = chunk[-1].seq
        if len(chunk) < READ_CHUNK:
            break
    return tuple(await asyncio.to_thread(_finish, compiler, tool_output_chars))


def _finish(compiler: ContextCompiler, tool_output_chars: int) -> list[LlmMessage]:
    return elide_tool_outputs(compiler.finish(), tool_output_chars)


async def _context_window(svc: Services, session: Session) -> int:
    try:
        return (await svc.providers.connection_for(session)).context_window
    except FoyaError:
        return 128_000


def elide_tool_outputs(messages: list[LlmMessage], budget_chars: int) -> list[LlmMessage]:
    """Keep the newest tool outputs up to ``budget_chars``; replace older ones with a short note.

    Outputs after the last user message (the step the VP is working on) are always kept.
    """
    out = list(messages)
    current = max((i for i, m in enumerate(out) if m.role == "user"), default=-1)
    used = 0
    for i in range(len(out) - 1, -1, -1):
        parts = out[i].parts
        if out[i].role != "tool" or not parts or not isinstance(parts[0], LlmToolResult):
            continue
        result = parts[0]
        used += len(result.content)
        if i < current and used > budget_chars and len(result.content) > 200:
            note = (f"[Output of {result.name} elided from this request to save context "
                    f"({len(result.content)} characters). It is kept in the session; run the tool "
                    "again if you need it.]")
            if result.images:
                note += (f"\n[{len(result.images)} image(s) of this result not included in this request "
                         "(context budget).]")
            out[i] = replace(out[i], parts=(replace(result, content=note, images=()),))
    return out


def estimate_tokens(request: LlmRequest) -> int:
    """Characters / 4 over everything sent, plus a flat cost per image."""
    chars = len(request.system) + sum(_spec_chars(t) for t in request.tools)
    images = 0
    for message in request.messages:
        for part in message.parts:
            if isinstance(part, (TextPart, ReasoningPart)):
                chars += len(part.text)
            elif isinstance(part, ToolCallPart):
                chars += len(part.name) + len(json.dumps(part.arguments))
            elif isinstance(part, LlmToolResult):
                chars += len(part.content)
                images += len(part.images)
            elif isinstance(part, InlineImage):
                images += 1
    return chars // 4 + images * IMAGE_TOKENS


def _spec_chars(spec: ToolSpec) -> int:
    return len(spec.name) + len(spec.description) + len(json.dumps(spec.parameters))


MAX_REPLY_TOKENS = 8_192
"""The most a reply may take (``max_tokens``) when the window leaves room for it."""
MIN_REPLY_TOKENS = 256
"""The least a reply is given, however full the window: less is no useful answer."""
ESTIMATE_SLACK = 0.9
"""Token counts are estimates (characters / 4): only this share of the window is counted on."""


def reply_tokens(window: int, prompt_tokens: int) -> int:
    """``max_tokens`` for a request of about ``prompt_tokens`` in a ``window``: what the window leaves
    after the prompt (with slack for the estimate), at most :data:`MAX_REPLY_TOKENS`.

    NOTE: 8,192 on every request asked a 4,096-token llama.cpp slot for more than it holds; a
    server may refuse a request whose prompt and ``max_tokens`` exceed its window, or cut the reply
    at the window's end (``finish_reason: "length"``).
    """
    room = int(window * ESTIMATE_SLACK) - prompt_tokens
    return max(MIN_REPLY_TOKENS, min(MAX_REPLY_TOKENS, room))
