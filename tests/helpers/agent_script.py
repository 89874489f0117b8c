"""A scripted "model" for lifecycle tests, driven by the user's own words.

The last user message is read as commands, one per line:

* ``write PATH CONTENT…`` → a ``write_file`` call (content may use ``\\n``);
* ``run COMMAND…`` → a ``run_command`` call;
* ``spawn TASK…`` → a ``spawn_agent`` call that waits for the answer;
* anything else → a plain text reply ``reply to: <text>``.

After tool results the model answers ``done``. Compaction requests get a
summary naming how many characters they summarised.
"""

from __future__ import annotations

import itertools
from typing import Any

from foya_desktop.engine.request.summary import SUMMARY_SYSTEM
from tests.fakeprovider import Reply, ToolCallSpec, last_user_text, system_prompt

_ids = itertools.count(1)


def call_id() -> str:
    """A unique tool-call id (the fake's default ids repeat across requests)."""
    return f"call_t{next(_ids)}"


def agent_responder(body: dict[str, Any]) -> Reply:
    """The reply for one request (OpenAI wire)."""
    if system_prompt(body) == SUMMARY_SYSTEM:
        return Reply(text=f"SUMMARY of {len(last_user_text(body))} characters")
    messages = body.get("messages", [])
    if messages and messages[-1].get("role") == "tool":
        return Reply(text="done")
    text = last_user_text(body)
    calls = [c for c in (_call(line) for line in text.splitlines()) if c is not None]
    if calls:
        return Reply(tool_calls=calls)
    return Reply(text=f"reply to: {text}")


def _call(line: str) -> ToolCallSpec | None:
    word, _, rest = line.strip().partition(" ")
    if word == "write":
        path, _, content = rest.partition(" ")
        return ToolCallSpec("write_file", {"path": path, "content": content.replace("\\n", "\n")},
                            id=call_id())
    if word == "run":
        return ToolCallSpec("run_command", {"command": rest}, id=call_id())
    if word == "spawn":
        return ToolCallSpec("spawn_agent", {"task": rest, "title": rest[:30]}, id=call_id())
    return None
