"""Turns against what real local model servers do: a reply cut at the length limit, a request
refused before any text, a window far smaller than assumed, a chat template that drops tools.

Through the real kernel and the real HTTP fake provider speaking llama.cpp's and Ollama's own
shapes (``tests/fakeprovider/local_server.py``).
"""

from __future__ import annotations

from typing import Any

from foya_desktop.core.events import Notice, VPStatus
from foya_desktop.core.messages import Message, MessageStatus
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.request.summary import SUMMARY_SYSTEM
from foya_desktop.engine.turn.failures import CONTINUE_TEXT, FAILED_TURN, reply_action
from foya_desktop.store.history import valid_messages
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.fakeprovider.local_server import LlamaServer, OllamaServer, prompt_tokens
from tests.helpers.engine import Recorder, wait_turns


def _failures(done: Any) -> list[str]:
    return [str(f["code"]) for f in done.error_params.get("failures", ())]


async def _messages(kernel: Kernel, session_id: str) -> list[Message]:
    return list(await kernel.store.read(valid_messages, session_id))


# ---- a reply cut at the length limit ---------------------------------------------------------


async def test_reply_cut_at_the_length_limit_is_kept_cut_off_and_fails_the_turn(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="The first half of a long answer", finish_reason="length"))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "write a lot")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "error" and _failures(done) == ["reply_cut_off"]
    assert "cut off at the length limit" in done.error
    last = (await _messages(kernel, s.id))[-1]
    assert last.status == MessageStatus.INTERRUPTED and last.meta["interrupted_reason"] == "length"
    assert last.text == "The first half of a long answer"
    assert reply_action(last) == "continue"
    errors = [e for e in rec.of(VPStatus) if isinstance(e, VPStatus) and e.state == "error"]
    assert errors and errors[-1].error_code == "reply_cut_off"  # the status line says so too


async def test_anthropic_max_tokens_stop_is_cut_off_too(kernel: Kernel, fake: FakeProviderServer,
                                                         rec: Recorder) -> None:
    await kernel.connections.add_connection(Connection("claude", ProviderKind.ANTHROPIC, fake.base_url, "m"))
    fake.script(Reply(text="Half", finish_reason="max_tokens"))
    s = await kernel.sessions.create_session(connection="claude")
    await kernel.turns.send(s.id, "go")
    (done,) = await wait_turns(rec, s.id, 1)
    assert _failures(done) == ["reply_cut_off"]
    assert (await _messages(kernel, s.id))[-1].status == MessageStatus.INTERRUPTED


async def test_continue_asks_the_vp_to_go_on_and_the_model_sees_its_cut_reply(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="Part one", finish_reason="length"), Reply(text=" and part two."))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "write a lot")
    await wait_turns(rec, s.id, 1)
    cut = (await _messages(kernel, s.id))[-1]
    await kernel.turns.act_on_reply(s.id, cut.id)
    (_, done) = await wait_turns(rec, s.id, 2)
    assert done.status == "completed"
    sent = fake.requests[-1].body["messages"]
    assert sent[-1] == {"role": "user", "content": CONTINUE_TEXT}
    assert sent[-2]["content"].startswith("Part one") and "cut off at the length limit" in sent[-2]["content"]


async def test_max_tokens_is_what_the_window_leaves(kernel: Kernel, fake: FakeProviderServer,
                                                    rec: Recorder) -> None:
    fake.llama = LlamaServer(n_ctx=8192)
    fake.script(Reply(text="ok"))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    await wait_turns(rec, s.id, 1)
    body = fake.requests[-1].body
    assert body["max_tokens"] + prompt_tokens(body) <= 8192
    assert body["max_tokens"] >= 256


# ---- a failed turn leaves a row --------------------------------------------------------------


async def test_a_refused_request_leaves_a_failure_row_the_model_never_sees(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(fault=Fault.status(400, body={"error": {"message": "unknown parameter: foo",
                                                              "type": "invalid_request_error"}})),
                Reply(text="fine now"))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hello")
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "error"
    row = (await _messages(kernel, s.id))[-1]
    assert row.role == "assistant" and row.status == MessageStatus.ERROR and not row.parts
    assert "unknown parameter: foo" in row.meta["error"] and row.meta[FAILED_TURN] == "provider_error"
    assert reply_action(row) == "retry"
    await kernel.turns.act_on_reply(s.id, row.id)  # Retry: the same message once more
    (_, again) = await wait_turns(rec, s.id, 2)
    assert again.status == "completed"
    sent = fake.requests[-1].body["messages"]
    assert [m["content"] for m in sent if m["role"] == "user"] == ["hello", "hello"]
    assert all(m["role"] != "assistant" for m in sent)  # the failure row is the person's, not the model's


async def test_an_in_stream_error_before_any_text_leaves_a_failure_row(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="never shown", fault=Fault.midstream_error("server_error", "slot unavailable",
                                                                       after_chunks=0)))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    row = (await _messages(kernel, s.id))[-1]
    assert row.status == MessageStatus.ERROR and "slot unavailable" in row.meta["error"]


async def test_a_reply_kept_after_the_server_died_offers_retry_and_is_its_only_row(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.script(Reply(text="partial answer that goes on", chunk_size=4, fault=Fault.cut(after_chunks=3)))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    _user, kept = await _messages(kernel, s.id)  # no failure row besides: the kept reply says why
    assert kept.status == MessageStatus.INTERRUPTED and kept.meta["interrupted_reason"]
    assert reply_action(kept) == "retry"


# ---- the server's real context window --------------------------------------------------------


async def test_the_window_is_learned_from_llama_props_at_first_use(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.llama = LlamaServer(n_ctx=4096, n_ctx_train=8192)
    fake.script(Reply(text="ok"))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    await wait_turns(rec, s.id, 1)
    assert (await kernel.connections.get_connection("fake")).context_window == 4096


async def test_connection_test_reads_llama_models_and_ollama_show(fake: FakeProviderServer,
                                                                  kernel: Kernel) -> None:
    conn = await kernel.connections.get_connection("fake")
    fake.llama = LlamaServer(n_ctx=4096)
    facts = await kernel.connections.server_facts(conn)
    assert (facts.window, facts.source) == (4096, "/props")
    assert (await kernel.connections.get_connection("fake")).context_window == 4096  # stored
    fake.llama = None
    fake.ollama = OllamaServer(context_length=2048)
    facts = await kernel.connections.server_facts(conn)
    assert (facts.window, facts.source) == (2048, "/api/show")
    fake.ollama = None
    assert (await kernel.connections.server_facts(conn)).window is None  # says nothing: kept as is


async def test_a_session_that_outgrows_a_small_window_is_compacted_before_it_overflows(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.llama = LlamaServer(n_ctx=6000)
    fake.responder = lambda body: Reply(text="Noted.")
    s = await kernel.sessions.create_session()
    for n in range(6):
        await kernel.turns.send(s.id, f"Note {n}: " + "lorem ipsum dolor sit amet " * 120)
        (*_, done) = await wait_turns(rec, s.id, n + 1)
        assert done.status == "completed", done.error
    assert all(fake.llama.overflow(r.body) is None for r in fake.requests)  # never refused
    summaries = [r for r in fake.requests if r.body["messages"][0]["content"] == SUMMARY_SYSTEM]
    assert summaries  # the history was compacted on the way


async def test_a_context_length_error_is_compacted_and_retried_once_with_a_sentence(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.responder = lambda body: Reply(text="Noted.")
    s = await kernel.sessions.create_session()
    for n in range(3):
        await kernel.turns.send(s.id, f"Note {n}: " + "lorem ipsum dolor sit amet " * 60)
        await wait_turns(rec, s.id, n + 1)
    overflow = {"error": {"code": 400, "message": "request (9100 tokens) exceeds the available context size "
                                                  "(8192 tokens), try increasing it",
                          "type": "exceed_context_size_error", "n_prompt_tokens": 9100, "n_ctx": 8192}}
    fake.script(Reply(fault=Fault.status(400, body=overflow)))
    await kernel.turns.send(s.id, "and now?")
    (*_, done) = await wait_turns(rec, s.id, 4)
    assert done.status == "completed", done.error
    said = [n for n in rec.of(Notice) if isinstance(n, Notice) and n.code == "context_overflow_retried"]
    assert len(said) == 1 and "8,192 tokens" in said[0].text and said[0].params["compacted"]
    assert (await kernel.connections.get_connection("fake")).context_window == 8192


async def test_a_second_context_length_error_fails_with_the_window_in_the_sentence(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.llama = LlamaServer(n_ctx=300)  # the system prompt alone does not fit
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hi")
    (done,) = await wait_turns(rec, s.id, 1)
    assert _failures(done) == ["context_too_long"]
    assert "longer than this model's context window of 300 tokens; compact it or start a branch" in done.error
    assert (await _messages(kernel, s.id))[-1].meta[FAILED_TURN] == "context_too_long"


# ---- tools a chat template drops -------------------------------------------------------------


async def test_tools_a_template_drops_are_announced_once_and_not_sent(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder) -> None:
    fake.llama = LlamaServer(n_ctx=32_768, supports_tools=False)
    fake.responder = lambda body: Reply(text="ok")
    s = await kernel.sessions.create_session()
    for n in range(2):
        await kernel.turns.send(s.id, f"hi {n}")
        await wait_turns(rec, s.id, n + 1)
    said = [n for n in rec.of(Notice) if isinstance(n, Notice) and n.code == "tools_not_passed"]
    assert len(said) == 1
    assert "chat template does not pass tools to the model; tools are off" in said[0].text
    assert all("tools" not in r.body for r in fake.requests)
