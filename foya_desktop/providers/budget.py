"""How much one reply may accumulate, counted where it accumulates: in the decoders.

The SSE parser bounds one line and one event (:mod:`.sse`), and ``Timeouts``
bound the time between events and for the whole call, but neither bounds a
reply of endless *small* events: each is fine, their sum is not. Text and
reasoning are held by whoever consumes the stream (the engine keeps the whole
reply to store it), tool-call arguments and signatures by the decoder until
the call ends, open content blocks and pending calls by the decoder too. A
hostile or broken server could grow any of them without limit (600 MB of
valid events took ``foya run`` to 5.7 GB). So each decoder charges one
:class:`ReplyBudget` per reply for everything it keeps or hands on, and the
reply ends with :class:`~foya_desktop.core.errors.ReplyTooLarge` past the
limit; the engine keeps what streamed before as an interrupted message.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

from foya_desktop.core.errors import ReplyTooLarge

log = logging.getLogger(__name__)

MIB = 1024 * 1024

MAX_REPLY_CHARS = 16 * MIB
"""Text, reasoning, tool names, call ids, tool-call arguments and signatures of one reply together,
in characters. A model's longest replies (128k output tokens) are about 0.5 M characters; a tool
call writing a large file a few M. 16 MB is far above both and still a bounded amount of memory."""

PART_CHARS = 1024
"""What opening a content block or a tool call is charged, for its bookkeeping: a reply of endless
empty blocks or nameless calls ends too (after 16,384 of them at the default limit)."""

REPLY_LIMIT_ENV = "FOYA_REPLY_LIMIT_MB"
"""Environment variable that sets :attr:`ReplyLimits.max_chars` in MB (tests lower it)."""


@dataclass(frozen=True, slots=True)
class ReplyLimits:
    """What one reply may accumulate before it is stopped."""

    max_chars: int = MAX_REPLY_CHARS
    """See :data:`MAX_REPLY_CHARS`."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ReplyLimits:
        """The defaults, with :data:`REPLY_LIMIT_ENV` applied when it holds a positive number."""
        env = os.environ if environ is None else environ
        megabytes = positive_number(env, REPLY_LIMIT_ENV)
        return cls() if megabytes is None else cls(max_chars=max(1, int(megabytes * MIB)))


DEFAULT_LIMITS = ReplyLimits()
"""Shared default instance (the dataclass is frozen), usable as a parameter default."""


def positive_number(environ: Mapping[str, str], name: str) -> float | None:
    """The positive number in ``environ[name]``; ``None`` when unset, or (logged) not such a number.

    A typo in a tuning variable must not stop the window from opening: the default is used and
    the log says why.
    """
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        log.warning("%s=%r is not a positive number; the default is used", name, raw)
        return None
    return value


def megabytes(chars: int) -> str:
    """``16 MB``, ``0.5 MB``: a limit in characters as the sentences say it."""
    return f"{chars / MIB:.3g} MB"


class ReplyBudget:
    """One reply's running total against :attr:`ReplyLimits.max_chars`."""

    __slots__ = ("_host", "_limit", "_used")

    def __init__(self, host: str, limits: ReplyLimits = DEFAULT_LIMITS) -> None:
        self._host = host
        self._limit = limits.max_chars
        self._used = 0

    @property
    def used(self) -> int:
        """Characters charged so far."""
        return self._used

    def charge(self, text: str) -> str:
        """Count ``text`` (kept or handed on by the decoder) and return it."""
        self._add(len(text))
        return text

    def open_part(self) -> None:
        """Count a new content block or tool call (:data:`PART_CHARS`)."""
        self._add(PART_CHARS)

    def _add(self, chars: int) -> None:
        self._used += chars
        if self._used > self._limit:
            raise ReplyTooLarge(
                f"The reply from {self._host} exceeded {megabytes(self._limit)} (text, reasoning and "
                "tool-call arguments together) and was stopped so it cannot fill the memory; the "
                "server or a proxy in between is broken.")
