"""In-flight replies of every session, so switching sessions mid-stream loses nothing.

Streamed deltas are never stored. The timeline model only follows the session
on screen, so without this record a person who switches away and back during a
reply would see it resume mid-sentence. This keeps the text of every open
stream (cheap string appends) until its stored message arrives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from foya_desktop.core.events import MessageAdded, StreamEnded, StreamStarted, TurnFinished
from foya_desktop.core.messages import Message


class StreamLike(Protocol):
    """What stream matching needs to know about a stream."""

    @property
    def stream_id(self) -> str: ...
    @property
    def speaker(self) -> str: ...
    @property
    def turn_id(self) -> str: ...
    @property
    def ended(self) -> bool: ...


def match_stream[S: StreamLike](streams: Iterable[S], message: Message) -> S | None:
    """The stream a stored assistant message completes: same speaker (and turn), ended first."""
    if message.role != "assistant":
        return None
    same = [s for s in streams if s.speaker == (message.speaker or "")
            and (not message.turn_id or not s.turn_id or s.turn_id == message.turn_id)]
    for stream in same:
        if stream.ended:
            return stream
    return same[0] if same else None


@dataclass(slots=True)
class LiveStream:
    """Text received so far for one open model step."""

    stream_id: str
    speaker: str
    turn_id: str
    text: str = ""
    reasoning: str = ""
    tool_args: str = ""
    ended: bool = False


class LiveStreams:
    """Open streams per session, fed from the bridge for every session."""

    def __init__(self) -> None:
        self._sessions: dict[str, dict[str, LiveStream]] = {}

    def start(self, event: StreamStarted) -> None:
        """A VP began a model step."""
        streams = self._sessions.setdefault(event.session_id, {})
        streams[event.stream_id] = LiveStream(event.stream_id, event.speaker, event.turn_id)

    def delta(self, session_id: str, stream_id: str, _speaker: str, kind: str, text: str) -> None:
        """Coalesced streamed text (the bridge's ``stream_delta``)."""
        stream = self._sessions.get(session_id, {}).get(stream_id)
        if stream is None:
            return
        if kind == "text":
            stream.text += text
        elif kind == "reasoning":
            stream.reasoning += text
        else:
            stream.tool_args += text

    def end(self, event: StreamEnded) -> None:
        """The step stopped streaming; its message follows."""
        stream = self._sessions.get(event.session_id, {}).get(event.stream_id)
        if stream is not None:
            stream.ended = True

    def message_added(self, event: MessageAdded) -> None:
        """A stored message replaces the stream it completes."""
        message = event.message
        streams = self._sessions.get(message.session_id, {})
        found = match_stream(streams.values(), message)
        if found is not None:
            del streams[found.stream_id]

    def turn_finished(self, event: TurnFinished) -> None:
        """Anything still open for a finished turn will never complete."""
        streams = self._sessions.get(event.session_id, {})
        for stream_id in [s.stream_id for s in streams.values() if s.turn_id == event.turn_id]:
            del streams[stream_id]

    def drop_session(self, session_id: str) -> None:
        """A deleted session."""
        self._sessions.pop(session_id, None)

    def of(self, session_id: str) -> list[LiveStream]:
        """Open streams of one session, oldest first."""
        return list(self._sessions.get(session_id, {}).values())
