"""Scoped recall of sibling sessions on the real kernel and real SQLite (SEED-CHECKLIST Y57–Y60)."""

from __future__ import annotations

from pathlib import Path

from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.memory.context import RECALL_HEADING, recall_text
from foya_desktop.store.recall import SiblingDigest
from tests.fakeprovider import FakeProviderServer, system_prompt
from tests.helpers.agent_script import agent_responder
from tests.helpers.engine import Recorder, wait_turns


async def _say(kernel: Kernel, rec: Recorder, sid: str, text: str, n: int) -> None:
    await kernel.turns.send(sid, text)
    done = await wait_turns(rec, sid, n)
    assert done[-1].status == "completed", done[-1].error


async def test_scoped_recall_is_off_by_default_and_the_instruction_never_recalls_siblings(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, tmp_path: Path) -> None:
    """Y57/Y60: one project instruction reaches member sessions; it alone brings no sibling in.
    Y59: enabled, siblings come as read-only summaries with their title and id, never transcripts;
    Y58: sessions of another project, and the session itself, are never recalled."""
    fake.responder = agent_responder
    alpha = await kernel.sessions.create_session(title="Alpha work", workdir=str(project))
    await _say(kernel, rec, alpha.id, "alpha opening question", 1)
    beta = await kernel.sessions.create_session(title="Beta work", workdir=str(project))
    await _say(kernel, rec, beta.id, "beta raw transcript detail", 1)
    await kernel.lifecycle.compact(beta.id)
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    stranger = await kernel.sessions.create_session(title="Other project", workdir=str(other_dir))
    await _say(kernel, rec, stranger.id, "elsewhere", 1)
    await kernel.projects.set_project_instruction(alpha.project_id or "", "Use the team style guide.")
    me = await kernel.sessions.create_session(title="Me", workdir=str(project))

    await _say(kernel, rec, me.id, "hello", 1)
    off = system_prompt(fake.requests[-1].body)
    assert "Use the team style guide." in off
    assert RECALL_HEADING not in off and "Alpha work" not in off and alpha.id not in off

    project_row = await kernel.memory.set_project_scoped_recall(me.project_id or "", True)
    assert project_row.scoped_recall
    await _say(kernel, rec, me.id, "hello again", 2)
    on = system_prompt(fake.requests[-1].body)
    recall = on[on.index(RECALL_HEADING):]
    assert f"Alpha work (session {alpha.id})" in recall and f"Beta work (session {beta.id})" in recall
    assert "alpha opening question" in recall  # no checkpoint: the opening request, clipped
    assert "SUMMARY of" in recall and "beta raw transcript detail" not in recall  # its compaction summary
    assert "Other project" not in on and stranger.id not in on and "(session " + me.id not in on

    await kernel.memory.set_project_scoped_recall(me.project_id or "", False)
    await _say(kernel, rec, me.id, "and again", 3)
    assert RECALL_HEADING not in system_prompt(fake.requests[-1].body)


def test_recall_summaries_are_clipped_within_the_budget() -> None:
    """Each summary is short and the section stays within its budget, saying what was left out."""
    digests = [SiblingDigest(f"ses_{i}", f"T{i}", "", "q" * 5000, "r" * 5000) for i in range(20)]
    text = recall_text(digests, budget=3000)
    assert len(text) <= 3200 and "more sibling session(s) not summarised" in text
    assert "q" * 500 not in text
    assert recall_text([]) == ""
