"""A real HTTP fake model provider (OpenAI Chat Completions and Anthropic Messages) for tests.

Typical use::

    with FakeProviderServer() as server:
        server.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "a.txt"})]),
                      Reply(text="Done."))
        provider = OpenAIProvider(server.base_url, "sk-test")
        ...
        assert server.requests[0].body["model"] == "m"
"""

from tests.fakeprovider.bodies import last_user_text, system_prompt
from tests.fakeprovider.script import Fault, Reply, ToolCallSpec, fault_from_json, reply_from_json
from tests.fakeprovider.server import FakeProviderServer, RecordedRequest, Responder

__all__ = [
    "FakeProviderServer",
    "Fault",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ToolCallSpec",
    "fault_from_json",
    "last_user_text",
    "reply_from_json",
    "system_prompt",
]
