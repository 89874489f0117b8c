"""What each adapter sends: checked on the bodies the fake server received."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from foya_desktop.core.llm import InlineImage, LlmMessage, LlmRequest, LlmToolResult, ToolSpec
from foya_desktop.core.messages import ReasoningPart, TextPart, ToolCallPart
from foya_desktop.providers.anthropic import THINKING_BUDGETS, messages_url
from foya_desktop.providers.anthropic import build_body as anthropic_body
from foya_desktop.providers.openai import OpenAIProvider
from tests.fakeprovider import FakeProviderServer, Reply, last_user_text, system_prompt
from tests.providers.conftest import CANARY_KEY, MakeProvider, collect, simple_request

PNG = b"\x89PNG\r\n\x1a\nfake-image-bytes"
PNG_B64 = base64.b64encode(PNG).decode()
JPEG = b"\xff\xd8\xff\xe0fake-jpeg"
JPEG_B64 = base64.b64encode(JPEG).decode()
TOOL = ToolSpec("read_file", "Read a file in the project.",
                {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})

CONVERSATION = LlmRequest(
    model="fake-model",
    system="You are Omni.",
    tools=(TOOL,),
    messages=(
        LlmMessage("user", (TextPart("What is in these?"), InlineImage("image/png", PNG))),
        LlmMessage("assistant", (ReasoningPart("I should look.", signature="sig-A"),
                                 TextPart("Let me read them."),
                                 ToolCallPart("call_1", "read_file", {"path": "a.txt"}),
                                 ToolCallPart("call_2", "view_image", {"path": "b.jpg"}))),
        LlmMessage("tool", (LlmToolResult("call_1", "read_file", "hello"),)),
        LlmMessage("tool", (LlmToolResult("call_2", "view_image", "the image", is_error=False,
                                          images=(InlineImage("image/jpeg", JPEG),)),)),
        LlmMessage("assistant", (ReasoningPart("unsigned thoughts"), TextPart("Done."))),
        LlmMessage("user", (TextPart("Thanks"),)),
    ),
)


async def sent_body(server: FakeProviderServer, make_provider: MakeProvider,
                    request: LlmRequest) -> dict[str, Any]:
    server.script(Reply(text="ok"))
    await collect(make_provider(), request)
    return server.requests[-1].body


@pytest.mark.parametrize("wire", ["openai"])
async def test_openai_body(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    body = await sent_body(server, make_provider, CONVERSATION)
    assert server.requests[-1].path == "/v1/chat/completions"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_tokens"] == 8192
    assert "reasoning_effort" not in body
    assert body["tools"] == [{"type": "function", "function": {
        "name": "read_file", "description": TOOL.description, "parameters": TOOL.parameters}}]
    assert body["messages"] == [
        {"role": "system", "content": "You are Omni."},
        {"role": "user", "content": [
            {"type": "text", "text": "What is in these?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_B64}"}}]},
        {"role": "assistant", "content": "Let me read them.", "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "read_file", "arguments": '{"path": "a.txt"}'}},
            {"id": "call_2", "type": "function",
             "function": {"name": "view_image", "arguments": '{"path": "b.jpg"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "hello"},
        {"role": "tool", "tool_call_id": "call_2", "content": "the image"},
        {"role": "user", "content": [
            {"type": "text", "text": "Image(s) returned by the tool view_image (call call_2):"},
            {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{JPEG_B64}"}}]},
        {"role": "assistant", "content": "Done."},
        {"role": "user", "content": "Thanks"},
    ]


@pytest.mark.parametrize("wire", ["anthropic"])
async def test_anthropic_body(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    body = await sent_body(server, make_provider, CONVERSATION)
    assert server.requests[-1].path == "/v1/messages"
    ephemeral = {"type": "ephemeral"}
    assert body["stream"] is True
    assert body["max_tokens"] == 8192
    assert "thinking" not in body
    assert body["system"] == [{"type": "text", "text": "You are Omni.", "cache_control": ephemeral}]
    assert body["tools"] == [{"name": "read_file", "description": TOOL.description,
                              "input_schema": TOOL.parameters, "cache_control": ephemeral}]
    assert body["messages"] == [
        {"role": "user", "content": [
            {"type": "text", "text": "What is in these?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_B64}}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "I should look.", "signature": "sig-A"},
            {"type": "text", "text": "Let me read them."},
            {"type": "tool_use", "id": "call_1", "name": "read_file", "input": {"path": "a.txt"}},
            {"type": "tool_use", "id": "call_2", "name": "view_image", "input": {"path": "b.jpg"}}]},
        {"role": "user", "content": [  # both results in ONE user message
            {"type": "tool_result", "tool_use_id": "call_1", "content": "hello"},
            {"type": "tool_result", "tool_use_id": "call_2", "content": [
                {"type": "text", "text": "the image"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg",
                                             "data": JPEG_B64}}]}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},  # unsigned thinking dropped
        {"role": "user", "content": [{"type": "text", "text": "Thanks", "cache_control": ephemeral}]},
    ]


async def test_headers_carry_the_key_the_vendor_way(server: FakeProviderServer,
                                                    make_provider: MakeProvider, wire: str) -> None:
    await sent_body(server, make_provider, simple_request())
    headers = server.requests[-1].headers
    if wire == "openai":
        assert headers["authorization"] == f"Bearer {CANARY_KEY}"
        assert "x-api-key" not in headers
    else:
        assert headers["x-api-key"] == CANARY_KEY
        assert headers["anthropic-version"] == "2023-06-01"
        assert "authorization" not in headers


async def test_no_key_means_no_auth_header(server: FakeProviderServer, make_provider: MakeProvider) -> None:
    server.script(Reply(text="local"))
    await collect(make_provider(api_key=None))
    headers = server.requests[-1].headers
    assert "authorization" not in headers
    assert "x-api-key" not in headers


async def test_routing_helpers_read_both_formats(server: FakeProviderServer,
                                                 make_provider: MakeProvider) -> None:
    body = await sent_body(server, make_provider, CONVERSATION)
    assert system_prompt(body) == "You are Omni."
    assert last_user_text(body) == "Thanks"


async def test_tool_error_results_are_marked(server: FakeProviderServer, make_provider: MakeProvider,
                                             wire: str) -> None:
    request = LlmRequest(model="m", system="", messages=(
        LlmMessage("user", (TextPart("go"),)),
        LlmMessage("assistant", (ToolCallPart("c9", "run", {"cmd": "false"}),)),
        LlmMessage("tool", (LlmToolResult("c9", "run", "exit status 1", is_error=True),)),
    ))
    body = await sent_body(server, make_provider, request)
    if wire == "openai":
        assert body["messages"][0] == {"role": "user", "content": "go"}  # no empty system message
        assert body["messages"][1] == {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c9", "type": "function", "function": {"name": "run", "arguments": '{"cmd": "false"}'}}]}
        assert body["messages"][2] == {"role": "tool", "tool_call_id": "c9",
                                       "content": "Error: exit status 1"}
    else:
        assert "system" not in body
        assert body["messages"][2]["content"][0] == {
            "type": "tool_result", "tool_use_id": "c9", "content": "exit status 1", "is_error": True,
            "cache_control": {"type": "ephemeral"}}


@pytest.mark.parametrize("effort", ["low", "medium", "high"])
async def test_reasoning_effort(server: FakeProviderServer, make_provider: MakeProvider, wire: str,
                                effort: str) -> None:
    body = await sent_body(server, make_provider, simple_request(reasoning_effort=effort, max_tokens=4096))
    if wire == "openai":
        assert body["reasoning_effort"] == effort
    else:
        budget = THINKING_BUDGETS[effort]
        assert body["thinking"] == {"type": "enabled", "budget_tokens": budget}
        assert body["max_tokens"] > budget  # the API requires room beyond the thinking budget


async def test_extra_fields_are_passed_through(server: FakeProviderServer,
                                               make_provider: MakeProvider) -> None:
    body = await sent_body(server, make_provider, simple_request(extra={"temperature": 0.2}))
    assert body["temperature"] == 0.2


def test_openai_official_endpoint_gets_max_completion_tokens() -> None:
    body = OpenAIProvider("https://api.openai.com/v1", "k").build_body(simple_request(max_tokens=100))
    assert body["max_completion_tokens"] == 100
    assert "max_tokens" not in body


@pytest.mark.parametrize(("base", "url"), [
    ("https://api.anthropic.com", "https://api.anthropic.com/v1/messages"),
    ("https://api.anthropic.com/", "https://api.anthropic.com/v1/messages"),
    ("http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/messages"),
    ("https://example.com/anthropic", "https://example.com/anthropic/v1/messages"),
])
def test_anthropic_messages_url(base: str, url: str) -> None:
    assert messages_url(base) == url


def test_anthropic_body_without_messages_has_no_cache_marker_crash() -> None:
    body = anthropic_body(LlmRequest(model="m", system="", messages=()))
    assert body["messages"] == []
