"""``foya run`` with a model that gets its tool calls wrong, as small local models do: a real process,
a real data folder, the HTTP fake model. The model is told, corrects itself and the run succeeds;
the status counts the failure; a model that never gets it right ends at its step limit, said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake, foya, home, server
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec

__all__ = ["home", "server"]  # the fixtures of test_cli, used here by name


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "notes.md").write_text("remember the milk\n")
    return proj


def test_run_tells_the_model_its_bad_call_and_the_corrected_call_succeeds(
        home: Path, server: FakeProviderServer, project: Path) -> None:
    """Before: ``foya: error: The model called the tool 'read_file' with arguments that are not valid
    JSON.`` and exit 1, the model never told."""
    add_fake(home, server)
    server.script(Reply(tool_calls=[ToolCallSpec("read_file", '{"path": "notes.md"')]),
                  Reply(text="I", fault=Fault.llama_cpp_error()),
                  Reply(tool_calls=[ToolCallSpec("read_file", {"path": "notes.md"})]),
                  Reply(text="The note says: remember the milk."))
    run = foya(home, "run", "--project", str(project), "What does notes.md say?")
    assert run.returncode == 0, run.stderr
    assert "The note says: remember the milk." in run.stdout
    assert "[read_file not run: The arguments of this read_file call are not valid JSON" in run.stderr
    told = json.dumps(server.requests[1].body["messages"])
    assert "not valid JSON" in told and "read_file takes: path (string, required)" in told
    assert "the server could not read your previous reply" in json.dumps(server.requests[2].body["messages"])
    session_id = run.stderr.split("Session ", 1)[1].split()[0]
    status = foya(home, "sessions", "status", session_id)
    assert status.returncode == 0, status.stderr
    assert "model requests 4 · tool executions 1 · failed 1 (blocked 1)" in status.stdout
    assert "read_file: 1 executions, 1 failures, 1 blocked" in status.stdout


def test_run_of_a_model_that_keeps_failing_ends_at_the_step_limit_saying_so(
        home: Path, server: FakeProviderServer, project: Path) -> None:
    add_fake(home, server)
    server.default = Reply(tool_calls=[ToolCallSpec("open_file", {"path": "notes.md"})])
    run = foya(home, "run", "--project", str(project), "What does notes.md say?")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == (
        "foya: error: Omni: Omni reached its limit of 25 steps because its tool calls kept failing: in the last "
        "25 steps it sent none that could run (each failure was returned to it).")
    assert len(server.requests) == 25
    assert "[open_file not run: There is no tool named 'open_file', so it did not run." in run.stderr
