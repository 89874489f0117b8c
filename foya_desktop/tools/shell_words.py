"""What bash will do with one word of a command, read from its source text.

The parser gives each word as a span of the source; the question that matters
for safety is which characters bash will *expand*. This module re-reads the
word's source: an unquoted ``*`` globs, ``$`` and backticks expand inside
double quotes too, an unquoted ``{a,b}`` brace-expands, ``~`` at the start or
after ``=``/``:`` becomes a home folder. It also computes the quote-removed
text, and flags an unquoted blank or operator inside the span: bash would
split the word there, so the parser's reading is not trusted.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

_GLOB = "*?["
_DQ_ESCAPABLE = '$`"\\\n'
_METACHARACTERS = " \t\n|&;<>()"


@dataclass(frozen=True, slots=True)
class Word:
    """One shell word, as bash will see it."""

    text: str
    """The value after quote removal (what the program receives when nothing expands)."""
    raw: str
    """The source text, quotes included."""
    expands: str = ""
    """Why the value cannot be known before running ("" when it can)."""
    glob: bool = False
    """Contains unquoted ``*`` or ``?``: bash will match it against file names."""
    pattern: str = ""
    """The word as a Python glob pattern (quoted glob characters escaped)."""


def _escape(char: str) -> str:
    return f"[{char}]" if char in _GLOB else char


class _Reader:
    """A tiny state machine over one word's source."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.text: list[str] = []
        self.pattern: list[str] = []
        self.reasons: list[str] = []
        self.glob = False

    def literal(self, char: str) -> None:
        self.text.append(char)
        self.pattern.append(_escape(char))

    def unquoted(self, i: int) -> None:
        char = self.raw[i]
        prev = self.raw[i - 1] if i else ""
        if char in "$`":
            self.reasons.append("expands a variable or command")
        elif char == "[":
            self.reasons.append("uses a bracket glob")
        elif char in "*?":
            self.glob = True
            self.text.append(char)
            self.pattern.append(char)
            return
        elif char in "{}" and self.raw != "{}":
            self.reasons.append("uses brace expansion")
        elif char == "~" and (i == 0 or prev in "=:"):
            self.reasons.append("uses '~' (home folder)")
        elif char in _METACHARACTERS:
            self.reasons.append("holds an unquoted blank or shell operator (the parser and bash may "
                                "split it differently)")
        self.literal(char)

    def read(self) -> Word:
        raw, i, quote = self.raw, 0, ""
        while i < len(raw):
            char = raw[i]
            if quote == "'":
                quote = "" if char == "'" else quote
                if quote:
                    self.literal(char)
            elif quote == '"':
                i = self._in_double(i)
                quote = "" if char == '"' else quote
            elif char in "'\"":
                quote = char
            elif char == "\\":
                if raw[i + 1:i + 2] not in ("", "\n"):
                    self.literal(raw[i + 1])
                i += 1
            else:
                self.unquoted(i)
            i += 1
        if quote:
            self.reasons.append("has an unbalanced quote")
        return Word("".join(self.text), raw, "; ".join(dict.fromkeys(self.reasons)),
                    self.glob, "".join(self.pattern))

    def _in_double(self, i: int) -> int:
        """One character inside double quotes; returns the index of the last character used."""
        char = self.raw[i]
        if char == '"':
            return i
        if char == "\\" and self.raw[i + 1:i + 2] and self.raw[i + 1] in _DQ_ESCAPABLE:
            if self.raw[i + 1] != "\n":
                self.literal(self.raw[i + 1])
            return i + 1
        if char in "$`":
            self.reasons.append("expands a variable or command")
        self.literal(char)
        return i


def read_word(raw: str) -> Word:
    """Analyse one word's source text."""
    return _Reader(raw).read()


def odd_characters(text: str) -> str:
    """A reason when ``text`` holds characters that could hide what it does, else ``""``.

    Control characters, invisible format characters (bidi overrides, zero-width
    spaces) and non-ASCII spaces or symbols are refused; non-ASCII letters and
    digits are fine (``grep 你好 .``) and checked per word by the caller.
    """
    for char in text:
        if char in "\n\t" or " " <= char <= "~":
            continue
        if ord(char) < 128:
            return f"contains the control character {char!r}"
        category = unicodedata.category(char)
        if category[0] not in "LN":
            return f"contains the character U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})"
    return ""
