"""Context compiler: valid history → the messages one VP's next model step sees.

Each VP sees user messages, its own replies and tool traffic verbatim, and
other VPs' replies as quoted notes (never their tool traffic). Tool calls
without a result — a crash or a stop mid-tool — get a synthetic
"interrupted" result so every vendor accepts the request. A reply of its own
that the server could not read (``UNREADABLE_REPLY``) is followed by a note
saying so, so the model can try again (``turn.runner``).

Compiling is plain synchronous work over the whole valid history (50,000
messages take a quarter of a second), so it runs on a worker thread
(``context_window.compose``), never on the event loop, which is the GUI thread
in the window (issue 14: the first message into a long session froze it) — and
a chunk at a time (``ContextCompiler``), since a worker holding the GIL for long
stalls the loop just the same.
Images are read with a blocking loader on that thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from foya_desktop.core.llm import InlineImage, LlmMessage, LlmPart, LlmToolResult
from foya_desktop.core.messages import (
    ImagePart,
    Message,
    MessageStatus,
    ReasoningPart,
    TextPart,
    ToolCallPart,
)
from foya_desktop.core.model import VP
from foya_desktop.engine.agents.route_forward import ROUTE_FORWARD

"""The hand-off tool's name (``engine.route_forward`` defines the tool itself)."""

INTERRUPTED_RESULT = (
    "The tool call was interrupted before it reported a result (the app stopped or the turn "
    "was cancelled). It may or may not have completed; check before repeating it."
)

UNREADABLE_REPLY = "unreadable_reply"
"""Meta key of a reply the server could not read as a tool call or text (its error message)."""
UNREADABLE_NOTE = (
    "[Foya: the server could not read your previous reply as a tool call or as text, so nothing "
    "ran. It said: {error}. If you meant to call a tool, call it again using the tool-call format, "
    "with its arguments as one JSON object; otherwise answer in plain text.]")

FAILED_TURN = "failed_turn"
"""Meta key of a failure row (``turn.failures``): it says why a VP's run failed, to the person; the
model never sees it."""
CUT_AT_LIMIT = "length"
"""``interrupted_reason`` of a reply that ended at the length limit (``turn.failures``)."""
CUT_NOTE = "\n\n[This reply was cut off at the length limit.]"

ArtifactLoader = Callable[[str], bytes]
"""Blocking: the bytes of an artifact; ``FileNotFoundError``/``ValueError`` when it is gone."""


@dataclass
class _State:
    out: list[LlmMessage]
    notes: list[str]
    open_calls: dict[str, str]
    routes: dict[str, ToolCallPart]
    """``route_forward`` calls of any VP by call id: a successful one addressed to this VP
    becomes the hand-off message it answers."""


def compile_messages(history: list[Message], vp: VP, names: dict[str, str],
                     load: ArtifactLoader, *, exclude_turn: str = "") -> list[LlmMessage]:
    """Translate ``history`` for ``vp``; messages of others in ``exclude_turn`` are left out.

    Blocking (see the module docstring): call it on a worker thread.
    """
    compiler = ContextCompiler(vp, names, load, exclude_turn=exclude_turn)
    compiler.feed(history)
    return compiler.finish()


class ContextCompiler:
    """``compile_messages`` a chunk at a time: ``feed`` consecutive slices of the history (oldest
    first), then ``finish``. The result is the same as compiling the whole list at once; each
    ``feed`` is short, so a long history never holds the GIL for long (issue 14)."""

    def __init__(self, vp: VP, names: dict[str, str], load: ArtifactLoader, *,
                 exclude_turn: str = "") -> None:
        self._vp, self._names, self._load, self._exclude = vp, names, load, exclude_turn
        self._st = _State(out=[], notes=[], open_calls={}, routes={})

    def feed(self, messages: list[Message]) -> None:
        """Compile the next slice of the history."""
        st, vp, names, load = self._st, self._vp, self._names, self._load
        for msg in messages:
            if msg.meta.get(FAILED_TURN):
                continue
            mine = msg.speaker == vp.id
            st.routes.update({c.call_id: c for c in msg.tool_calls if c.name == ROUTE_FORWARD})
            if msg.role == "user":
                _close_calls(st)
                _flush_notes(st)
                st.out.append(LlmMessage("user", _user_parts(msg, load)))
            elif msg.role == "assistant" and mine:
                _close_calls(st)
                _flush_notes(st)
                st.out.append(_assistant(msg))
                st.open_calls = {c.call_id: c.name for c in msg.tool_calls}
                if msg.meta.get(UNREADABLE_REPLY):
                    note = UNREADABLE_NOTE.format(error=msg.meta[UNREADABLE_REPLY])
                    st.out.append(LlmMessage("user", (TextPart(note),)))
            elif msg.role == "tool" and mine:
                _own_result(st, msg, load)
            elif msg.role == "tool" and (handoff := _handoff_to(vp, msg, st, names)) is not None:
                _close_calls(st)
                _flush_notes(st)
                st.out.append(LlmMessage("user", (TextPart(handoff),)))
            elif msg.role == "assistant" and msg.text and msg.turn_id != self._exclude:
                who = names.get(msg.speaker or "", msg.speaker or "another VP")
                st.notes.append(f"[{who} replied]\n{msg.text}")

    def finish(self) -> list[LlmMessage]:
        """The compiled messages (open calls closed, pending notes flushed)."""
        _close_calls(self._st)
        _flush_notes(self._st)
        return self._st.out


def _own_result(st: _State, msg: Message, load: ArtifactLoader) -> None:
    result = msg.tool_result
    if result is not None and result.call_id in st.open_calls:
        st.open_calls.pop(result.call_id)
        images = tuple([InlineImage(i.mime, _load(load, i.artifact)) for i in result.images])
        gone = [_image_label(i) for i, got in zip(result.images, images, strict=True) if not got.data]
        content = result.content + "".join(
            f"\n[image {label} is no longer available]" for label in gone)
        st.out.append(LlmMessage("tool", (LlmToolResult(
            result.call_id, result.name, content, result.is_error,
            tuple(i for i in images if i.data)),)))


def _handoff_to(vp: VP, msg: Message, st: _State, names: dict[str, str]) -> str | None:
    """The text of a successful hand-off to ``vp`` in this tool result, else ``None``."""
    result = msg.tool_result
    if result is None or result.name != ROUTE_FORWARD or result.is_error:
        return None
    call = st.routes.get(result.call_id)
    ref = str(call.arguments.get("vp", "")).strip().lstrip("@").casefold() if call else ""
    if ref not in (vp.name.casefold(), vp.id.casefold()) or call is None:
        return None
    sender = names.get(msg.speaker or "", msg.speaker or "another VP")
    return (f"[{sender} handed this to you with route_forward — answer it as {vp.name}]\n"
            f"{call.arguments.get('message', '')}")


def _assistant(msg: Message) -> LlmMessage:
    parts: list[LlmPart] = []
    for p in msg.parts:
        if isinstance(p, (TextPart, ReasoningPart, ToolCallPart)):
            parts.append(p)
    if msg.meta.get("interrupted_reason") == CUT_AT_LIMIT:
        parts.append(TextPart(CUT_NOTE))
    elif msg.status != MessageStatus.COMPLETE and not msg.tool_calls and not msg.meta.get(UNREADABLE_REPLY):
        parts.append(TextPart("\n\n[This reply was interrupted before it finished.]"))
    return LlmMessage("assistant", tuple(parts) or (TextPart("[no output]"),))


def _user_parts(msg: Message, load: ArtifactLoader) -> tuple[LlmPart, ...]:
    parts: list[LlmPart] = []
    for p in msg.parts:
        if isinstance(p, TextPart):
            parts.append(p)
        elif isinstance(p, ImagePart):
            data = _load(load, p.artifact)
            parts.append(InlineImage(p.mime, data) if data else
                         TextPart(f"[image {_image_label(p)} is no longer available]"))
    return tuple(parts) or (TextPart(""),)


def _image_label(part: ImagePart) -> str:
    return part.name or part.artifact[:12]


def _load(load: ArtifactLoader, sha: str) -> bytes:
    try:
        return load(sha)
    except (FileNotFoundError, ValueError):
        return b""


def _close_calls(st: _State) -> None:
    for call_id, name in st.open_calls.items():
        st.out.append(LlmMessage("tool", (LlmToolResult(call_id, name, INTERRUPTED_RESULT, True),)))
    st.open_calls = {}


def _flush_notes(st: _State) -> None:
    if st.notes and not st.open_calls:
        st.out.append(LlmMessage("user", (TextPart("\n\n".join(st.notes)),)))
        st.notes = []
