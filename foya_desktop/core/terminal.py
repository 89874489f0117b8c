"""Text for a terminal: control characters shown, never obeyed.

Model text, model-chosen tool names and provider error messages are
untrusted. Printed raw, escape sequences would set the window title, write
the clipboard (OSC 52), clear the screen or move the cursor to fake lines
such as ``[run_command …]``. Every C0/C1 control character except newline
and tab, and the Unicode bidirectional overrides, are rendered as visible
``\\xNN``/``\\u202e`` escapes instead. A field that is one line (a title, a
folder, a name) is printed with ``one_line=True``: its newlines and tabs are
shown as ``\\n``/``\\t`` too, so it cannot start a line of its own.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` with every control character (but newline and tab) shown as an escape; with
    ``one_line``, newlines, tabs and Unicode line separators as well."""
    return (_UNSAFE_IN_LINE if one_line else _UNSAFE).sub(_escape, text)
