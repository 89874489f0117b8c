"""Reading a received request body the same way for both wire formats.

Responders route on these (e.g. pick a persona's reply by its system prompt),
and tests assert on them without caring which adapter sent the request.
"""

from __future__ import annotations

from typing import Any


def system_prompt(body: dict[str, Any]) -> str:
    """The system prompt: Anthropic's top-level ``system`` or OpenAI's system message."""
    system = body.get("system")
    if system is not None:
        return _text_of(system)
    for message in body.get("messages", []):
        if message.get("role") in ("system", "developer"):
            return _text_of(message.get("content"))
    return ""


def last_user_text(body: dict[str, Any]) -> str:
    """The text of the newest user message (tool results and images ignored)."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            text = _text_of(message.get("content"))
            if text:
                return text
    return ""


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(block.get("text", "") for block in content
                       if isinstance(block, dict) and block.get("type") == "text")
    return ""
