"""In-flight replies of every session, so switching sessions mid-stream loses nothing.

Streamed deltas are never stored. The timeline model only follows the session
on screen, so without this record a person who switches away and back during a
reply would see it resume mid-sentence. This keeps the text of every open
stream (cheap string appends) until its stored message arrives.

A stream is named by the id of the message it becomes (the engine allocates
it when the stream starts), so the stored message finds its stream by id.
"""

from __future__ import annotations

from dataclasses import dataclass

from foya_desktop.core.events import MessageAdded, StreamEnded, StreamStarted, TurnFinished


@dataclass(slots=True)
class LiveStream:
    """Text received so far for one open model step."""

    message_id: str
    """The id of the message this stream becomes when it is stored."""
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
        streams[event.message_id] = LiveStream(event.message_id, event.speaker, event.turn_id)

    def delta(self, session_id: str, message_id: str, _speaker: str, kind: str, text: str) -> None:
        """Coalesced streamed text (the bridge's ``stream_delta``)."""
        stream = self._sessions.get(session_id, {}).get(message_id)
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
        stream = self._sessions.get(event.session_id, {}).get(event.message_id)
        if stream is not None:
            stream.ended = True

    def message_added(self, event: MessageAdded) -> None:
        """A stored message replaces the stream it completes (the one with its id)."""
        self._sessions.get(event.message.session_id, {}).pop(event.message.id, None)

    def turn_finished(self, event: TurnFinished) -> None:
        """Anything still open for a finished turn will never complete."""
        streams = self._sessions.get(event.session_id, {})
        for message_id in [s.message_id for s in streams.values() if s.turn_id == event.turn_id]:
            del streams[message_id]

    def drop_session(self, session_id: str) -> None:
        """A deleted session."""
        self._sessions.pop(session_id, None)

    def of(self, session_id: str) -> list[LiveStream]:
        """Open streams of one session, oldest first."""
        return list(self._sessions.get(session_id, {}).values())
