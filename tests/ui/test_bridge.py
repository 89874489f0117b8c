"""EngineBridge: buffering until the window connects, ordered delivery, ≤ 30 Hz delta coalescing."""

from __future__ import annotations

import asyncio
import itertools
import time

from foya_desktop.core.events import MessageAdded, PartDelta, PhaseChanged, StreamEnded, StreamStarted
from foya_desktop.core.model import Phase
from foya_desktop.engine.bus import EventBus
from foya_desktop.ui.bridge import FLUSH_INTERVAL_MS, EngineBridge
from tests.ui.helpers import reply, settle


def _record(bridge: EngineBridge) -> list[tuple[str, object]]:
    seen: list[tuple[str, object]] = []
    bridge.stream_started.connect(lambda e: seen.append(("started", e.message_id)))
    bridge.stream_delta.connect(lambda sid, st, sp, kind, text: seen.append(("delta", (st, kind, text))))
    bridge.stream_ended.connect(lambda e: seen.append(("ended", e.message_id)))
    bridge.message_added.connect(lambda e: seen.append(("message", e.message.id)))
    bridge.phase_changed.connect(lambda sid, phase: seen.append(("phase", phase)))
    return seen


async def test_events_wait_for_release_then_arrive_in_order() -> None:
    bus = EventBus()
    bridge = EngineBridge(bus)
    seen = _record(bridge)
    bus.publish(PhaseChanged("s", Phase.TURN))
    bus.publish(StreamStarted("s", "st1", "omni", "t1"))
    bus.publish(PartDelta("s", "st1", "omni", "text", "Hel"))
    bus.publish(PartDelta("s", "st1", "omni", "text", "lo"))
    bus.publish(StreamEnded("s", "st1", "omni"))
    bus.publish(MessageAdded("s", reply("Hello", mid="m1")))
    await settle()
    assert seen == [] and bridge.buffering
    bridge.release()
    assert seen == [("phase", "turn"), ("started", "st1"), ("delta", ("st1", "text", "Hello")),
                    ("ended", "st1"), ("message", "m1")]


async def test_deltas_are_merged_per_stream_and_kind() -> None:
    bus = EventBus()
    bridge = EngineBridge(bus)
    seen = _record(bridge)
    bridge.release()
    for i in range(50):
        bus.publish(PartDelta("s", "a", "omni", "text", f"{i},"))
        bus.publish(PartDelta("s", "b", "linus", "reasoning", "."))
    assert seen == []  # nothing until the timer fires
    await asyncio.sleep(FLUSH_INTERVAL_MS / 1000 * 3)
    assert seen == [("delta", ("a", "text", "".join(f"{i}," for i in range(50)))),
                    ("delta", ("b", "reasoning", "." * 50))]


async def test_any_other_event_flushes_pending_text_first() -> None:
    bus = EventBus()
    bridge = EngineBridge(bus)
    seen = _record(bridge)
    bridge.release()
    bus.publish(PartDelta("s", "a", "omni", "text", "tail"))
    bus.publish(StreamEnded("s", "a", "omni"))
    assert seen == [("delta", ("a", "text", "tail")), ("ended", "a")]


async def test_flush_rate_stays_at_or_below_60_hz() -> None:
    bus = EventBus()
    bridge = EngineBridge(bus)
    flushes: list[float] = []
    bridge.stream_delta.connect(lambda *args: flushes.append(time.monotonic()))
    bridge.release()
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < 0.5:  # ~1000 tokens/s
        bus.publish(PartDelta("s", "a", "omni", "text", "x"))
        sent += 1
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.05)
    assert sent > 100
    assert len(flushes) <= 0.55 * 62, len(flushes)
    gaps = [b - a for a, b in itertools.pairwise(flushes)]
    assert min(gaps) >= 0.8 * FLUSH_INTERVAL_MS / 1000


async def test_close_unsubscribes() -> None:
    bus = EventBus()
    bridge = EngineBridge(bus)
    seen = _record(bridge)
    bridge.release()
    bridge.close()
    bus.publish(PhaseChanged("s", Phase.IDLE))
    assert seen == []
