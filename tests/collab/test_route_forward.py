"""RouteForward on the real kernel, real SQLite and the HTTP fake provider (Y31, Y34, Y28)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from foya_desktop.core.events import VPStatus
from foya_desktop.core.model import VP
from foya_desktop.engine.agents.route_forward import MAX_HOPS
from foya_desktop.engine.kernel import Kernel
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, system_prompt
from tests.helpers.engine import Recorder, wait_turns

Responder = Callable[[dict[str, Any]], Reply]


def _who(body: dict[str, Any]) -> str:
    prompt = system_prompt(body)
    return prompt.split("Your name in this session is ", 1)[1].split(" ", 1)[0]


def _last(body: dict[str, Any]) -> dict[str, Any]:
    return dict(body["messages"][-1])


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content)
    return str(content or "")


async def _three(kernel: Kernel, project: Path) -> str:
    await kernel.vps.add_vp(VP("", "Linus", "", "You implement."))
    await kernel.vps.add_vp(VP("", "Martin", "", "You review."))
    s = await kernel.sessions.create_session(title="trio", workdir=str(project), roster=["Linus", "Martin", "omni"],
                                    default_vp="Linus")
    return s.id


def _tool_names(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools", [])]


async def test_hand_off_is_recorded_and_the_target_answers_in_the_same_turn(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> None:
    """Linus routes to Martin; Martin gets the message and replies with his own identity."""
    seen: dict[str, list[dict[str, Any]]] = {"Linus": [], "Martin": [], "Omni": []}

    def respond(body: dict[str, Any]) -> Reply:
        who = _who(body)
        seen[who].append(body)
        if who == "Linus":
            if _last(body)["role"] == "tool":
                return Reply(text="Handed to Martin. @Omni this mention routes nothing.")
            return Reply(tool_calls=[ToolCallSpec("route_forward", {"vp": "Martin",
                                                                    "message": "Review fix.py please"},
                                                  id="rf1")])
        return Reply(text=f"{who} here: reviewed, looks right.")
    fake.responder = respond
    sid = await _three(kernel, project)
    await kernel.turns.send(sid, "fix the bug")
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "completed", done.error
    history = await kernel.history.history_page(sid)
    assert [(m.role, m.speaker) for m in history] == [
        ("user", None), ("assistant", "linus"), ("tool", "linus"), ("assistant", "linus"),
        ("assistant", "martin")]
    assert len({m.turn_id for m in history}) == 1
    call = history[1].tool_calls[0]
    assert (call.name, call.arguments["vp"], call.arguments["message"]) == ("route_forward", "Martin",
                                                                          "Review fix.py please")
    result = history[2].tool_result
    assert result is not None and not result.is_error and "Routed to Martin" in result.content
    assert f"of {MAX_HOPS} hand-offs left" in result.content
    assert history[4].text == "Martin here: reviewed, looks right."
    martin_first = seen["Martin"][0]
    assert "Linus handed this to you with route_forward" in _content(_last(martin_first))
    assert "Review fix.py please" in _content(_last(martin_first))
    assert seen["Omni"] == []  # Y34: the @Omni in Linus's text routed nothing
    assert "route_forward" in _tool_names(seen["Linus"][0]) and "route_forward" in _tool_names(martin_first)
    states = [(e.speaker, e.state) for e in rec.of(VPStatus)
              if isinstance(e, VPStatus) and e.session_id == sid and e.state == "done"]
    assert states == [("linus", "done"), ("martin", "done")]


async def test_unknown_target_and_self_are_error_results(kernel: Kernel, fake: FakeProviderServer,
                                                         rec: Recorder, project: Path) -> None:
    calls = iter([
        Reply(tool_calls=[ToolCallSpec("route_forward", {"vp": "Ghost", "message": "hi"}, id="a1")]),
        Reply(tool_calls=[ToolCallSpec("route_forward", {"vp": "linus", "message": "me"}, id="a2")]),
        Reply(text="fine, I answer myself"),
    ])
    fake.responder = lambda body: next(calls)
    sid = await _three(kernel, project)
    await kernel.turns.send(sid, "go")
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "completed", done.error
    results = [m.tool_result for m in await kernel.history.history_page(sid) if m.tool_result is not None]
    assert [r.is_error for r in results] == [True, True]
    assert "'Ghost' is not on this session's roster" in results[0].content
    assert "Martin, Omni" in results[0].content
    assert "route to another VP" in results[1].content


async def test_ping_pong_stops_at_the_hop_limit(kernel: Kernel, fake: FakeProviderServer,
                                                rec: Recorder, project: Path) -> None:
    """Two VPs that always hand back are stopped after MAX_HOPS, and told so in the result."""
    counter = iter(range(1000))

    def respond(body: dict[str, Any]) -> Reply:
        who = _who(body)
        if _last(body)["role"] == "tool":
            return Reply(text=f"{who} done")
        other = "Martin" if who == "Linus" else "Linus"
        return Reply(tool_calls=[ToolCallSpec("route_forward", {"vp": other, "message": "your turn"},
                                              id=f"pp{next(counter)}")])
    fake.responder = respond
    sid = await _three(kernel, project)
    await kernel.turns.send(sid, "ping")
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "completed", done.error
    results = [m.tool_result for m in await kernel.history.history_page(sid) if m.tool_result is not None]
    assert [r.is_error for r in results] == [False] * MAX_HOPS + [True]
    assert f"hop limit of {MAX_HOPS} hand-offs per user turn is reached" in results[-1].content
    replies = [m for m in await kernel.history.history_page(sid) if m.role == "assistant" and m.text]
    assert len(replies) == MAX_HOPS + 1


async def test_single_vp_sessions_are_not_offered_route_forward(kernel: Kernel, fake: FakeProviderServer,
                                                                rec: Recorder, project: Path) -> None:
    fake.script(Reply(text="hi"))
    s = await kernel.sessions.create_session(title="solo", workdir=str(project))
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    assert "route_forward" not in _tool_names(fake.requests[-1].body)
    assert "route_forward" not in json.dumps(fake.requests[-1].body.get("tools", []))
