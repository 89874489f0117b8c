"""Text for a terminal: control characters shown, never obeyed.

Model text, model-chosen tool names and provider error messages are
untrusted. Printed raw, escape sequences would set the window title, write
the clipboard (OSC 52), clear the screen or move the cursor to fake lines
such as ``[run_command …]``. Every C0/C1 control character except newline
and tab, and the Unicode bidirectional overrides, are rendered as visible
``\\xNN``/``\\u202e`` escapes instead.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control character (but newline and tab) shown as an escape."""
    return _UNSAFE.sub(_escape, text)
