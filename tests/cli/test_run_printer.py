"""``foya run``'s text output with VPs replying in parallel: each reply prints as one block under
its VP's name, never words of two replies mixed (seen as "ImplemenReviewed.ted." on a loaded
machine, where the two streams' deltas interleave). Driven with the engine's own event types, in
the order a parallel turn can publish them."""

from __future__ import annotations

import pytest

from foya_desktop.cli.run import _Printer
from foya_desktop.core.events import PartDelta, TurnFinished, VPStatus

SID = "ses_1"


def _delta(speaker: str, text: str) -> PartDelta:
    return PartDelta(SID, f"msg_{speaker}", speaker, "text", text)


async def test_parallel_replies_print_as_whole_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    printer = _Printer(False, SID, {"linus": "Linus", "martin": "Martin"})
    for event in (_delta("linus", "Implemen"), _delta("martin", "Reviewed"), _delta("linus", "ted."),
                  _delta("martin", "."), VPStatus(SID, "t1", "martin", "done"), _delta("linus", " Done."),
                  VPStatus(SID, "t1", "linus", "done"), TurnFinished(SID, "t1", "completed")):
        printer(event)
    assert capsys.readouterr().out == "\n── Linus ──\nImplemented. Done.\n── Martin ──\nReviewed."


async def test_the_next_block_starts_when_the_first_vp_is_done_and_streams_live(
        capsys: pytest.CaptureFixture[str]) -> None:
    printer = _Printer(False, SID, {"linus": "Linus", "martin": "Martin"})
    printer(_delta("linus", "one"))
    printer(_delta("martin", "two"))
    printer(VPStatus(SID, "t1", "linus", "done"))
    assert capsys.readouterr().out == "\n── Linus ──\none\n── Martin ──\ntwo"
    printer(_delta("martin", " three"))  # Martin has the floor now: printed at once
    assert capsys.readouterr().out == " three"


async def test_one_vp_prints_without_a_header(capsys: pytest.CaptureFixture[str]) -> None:
    printer = _Printer(False, SID, {"omni": "Omni"})
    printer(_delta("omni", "Hello"))
    printer(TurnFinished(SID, "t1", "completed"))
    assert capsys.readouterr().out == "Hello"
