"""Usage ledger totals and debug traces on the real kernel.

Foya seed F49 (usage survives deletion); Yeaft Y05/Y18/Y39 (debug traces per
session, not copied by a branch, request/tools/tokens/stop reason shown).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.model import ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.connections.usage import cost_of, cost_text, usage_report
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.turn.debug_trace import traces
from foya_desktop.store.ledger import Price, set_price
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_turns


@pytest.mark.parametrize("kind", [ProviderKind.OPENAI, ProviderKind.ANTHROPIC])
async def test_both_vendors_count_input_including_cache(kernel: Kernel, fake: FakeProviderServer,
                                                        rec: Recorder, kind: ProviderKind) -> None:
    """Anthropic's input_tokens excludes cache reads, OpenAI's prompt_tokens includes them."""
    await kernel.connections.add_connection(Connection("vendor", kind, fake.base_url, "m1"))
    fake.script(Reply(text="hi", usage=(1000, 20), cached_tokens=600))
    s = await kernel.sessions.create_session(connection="vendor")
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    report = await usage_report(kernel.store, s.id)
    (line,) = report.lines
    assert (line.connection, line.model, line.requests) == ("vendor", "m1", 1)
    assert (line.usage.input_tokens, line.usage.cache_read_tokens, line.usage.output_tokens) == (1000, 600, 20)
    assert line.cost is None and cost_text(line.cost) == "no price"


async def test_cost_only_with_a_price_and_totals_survive_deletion(kernel: Kernel, fake: FakeProviderServer,
                                                                  rec: Recorder) -> None:
    fake.script(Reply(text="a", usage=(1_000_000, 100_000), cached_tokens=400_000), Reply(text="b"))
    s = await kernel.sessions.create_session(connection="fake")
    await kernel.turns.send(s.id, "one")
    await wait_turns(rec, s.id, 1)
    await kernel.store.write(set_price, Price("fake", "fake-model", 3.0, 15.0, cache_read_per_mtok=0.3))
    report = await usage_report(kernel.store, s.id)
    # 600k uncached × $3 + 400k cache reads × $0.30 + 100k output × $15 = 1.8 + 0.12 + 1.5
    assert report.cost == pytest.approx(3.42)
    other = await kernel.sessions.create_session(connection="fake", model="unpriced")
    await kernel.turns.send(other.id, "two")
    await wait_turns(rec, other.id, 1)
    await kernel.lifecycle.delete_session(s.id)
    everything = await usage_report(kernel.store)
    assert everything.requests == 2 and everything.unpriced_lines == 1
    assert everything.cost == pytest.approx(3.42)
    assert (await usage_report(kernel.store, s.id)).requests == 1, "the ledger outlives the session"
    assert cost_of(everything.lines[0].usage, None) is None


async def test_debug_traces_record_requests_and_tools_and_stay_with_their_session(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    (project / ".env").write_text("API_TOKEN=supersecretvalue123456\n")
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "README.md"})], usage=(50, 5)),
                Reply(text="The key is supersecretvalue123456", usage=(80, 9)))
    s = await kernel.sessions.create_session(workdir=str(project), approval_mode=ApprovalMode.AUTO,
                                    connection="fake")
    await kernel.sessions.update_session(s.id, reasoning_effort="low")
    await kernel.turns.send(s.id, "read the readme; my token is supersecretvalue123456")
    (done,) = await wait_turns(rec, s.id, 1)
    found = await kernel.store.read(traces, s.id, done.turn_id)
    assert [t["kind"] for t in found] == ["step", "tool", "step"]
    first, tool, second = found
    assert first["request"]["model"] == "fake-model" and first["connection"] == "fake"
    assert "read_file" in {t["name"] for t in first["request"]["tools"]}
    assert first["request"]["parameters"]["reasoning_effort"] == "low"
    assert first["usage"]["input_tokens"] == 50 and first["stop_reason"] == "tool_calls"
    assert first["duration_ms"] >= 0 and first["ttfb_ms"] is not None and first["retries"] == 0
    assert tool["tool"] == "read_file" and tool["arguments"] == {"path": "README.md"}
    assert tool["result_chars"] > 0 and not tool["blocked"]
    assert second["request"]["messages"][-1]["parts"][0]["kind"] == "tool_result"
    assert all("supersecretvalue123456" not in str(t) for t in found), "known secrets are scrubbed"
    history = await kernel.history.history_page(s.id)
    branch = await kernel.lifecycle.branch(s.id, history[-1].id)
    assert await kernel.store.read(traces, branch.id) == [], "a branch copies no debug trace"
    await kernel.lifecycle.delete_session(s.id)
    assert await kernel.store.read(traces, s.id) == [], "traces are deleted with their session"
