"""A streamed reply is held at about its own size, however small its deltas (``StreamedText``).

The provider bounds what one reply may accumulate (``providers.budget``); that bound means
something only if holding the reply costs about what it counts. Kept as one ``str`` per delta,
8-character deltas cost ~65 bytes each beyond their text: 8x the reply.
"""

from __future__ import annotations

import tracemalloc

from foya_desktop.core.llm import ReasoningDelta, TextDelta
from foya_desktop.core.messages import ReasoningPart, TextPart
from foya_desktop.engine.request.step import StepAccumulator, StreamedText

DELTAS = 200_000


def test_tiny_deltas_cost_about_their_text() -> None:
    step = StepAccumulator()
    tracemalloc.start()
    try:
        for n in range(DELTAS):
            step.feed(TextDelta(f"{n:08d}"))  # a new string per delta, as a stream gives them
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    text = DELTAS * 8
    assert held < 1.5 * text, f"{held / text:.1f} bytes held per character"
    assert step.partial() == (TextPart("".join(f"{n:08d}" for n in range(DELTAS))),)


def test_pieces_keep_their_order_and_emptiness() -> None:
    pieces = StreamedText()
    assert not pieces and "".join(pieces) == ""
    for n in range(StreamedText.RUN * 3 + 5):
        pieces.append(str(n % 10))
    assert "".join(pieces) == "".join(str(n % 10) for n in range(StreamedText.RUN * 3 + 5))
    step = StepAccumulator()
    step.feed(ReasoningDelta(""))
    assert step.partial() == (ReasoningPart("", ""),)  # an empty delta still makes the part, as before
