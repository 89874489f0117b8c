"""Secret scrubbing on the paths that store and send output ("Approvals and safety": tool output, and
background-task output before it is stored, is scrubbed of the values in the project's secret files,
of credential environment variables and of the connections' own keys).

Each test runs the real kernel on a real SQLite file against the real HTTP fake provider, approves
the command through the approval broker as the window does, and then looks where a leaked value
would end up: every row of the database file (read with ``sqlite3``, not through the store), the
requests the fake provider received, and the events the window is sent. A command the person
approved runs unconfined, so nothing but the scrub stands between ``cat .env`` and the model.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from foya_desktop.core.events import ApprovalRequested, TaskChanged
from foya_desktop.core.model import ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.permissions.secrets import CUT, REDACTED, scrub
from foya_desktop.engine.tasks.manager import TAIL_BYTES
from foya_desktop.tools.process import OutputBuffer
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_for, wait_turns

ENV_SECRET = "envfile-canary-7f3a91c2"
"""A value in the project's ``.env``."""
CREDENTIAL = "credvar-canary-52be08d4"
"""The value of a credential environment variable of Foya's own process."""
KEY_VARIABLE = "ACME_LLM_PROD"
"""The connection's key variable: a name no credential pattern matches, so only the connection's
own key list can catch its value."""
CONNECTION_KEY = "connkey-canary-c81d6e0b"
SECRETS = (ENV_SECRET, CREDENTIAL, CONNECTION_KEY)
COMMAND = "cat .env notes.txt"


@pytest.fixture
def leaky_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose ``.env`` holds a secret and whose plain ``notes.txt`` holds a copy of the
    credential variable's value and of the connection's key (a log or a config a key was pasted into)."""
    monkeypatch.setenv("ACME_API_TOKEN", CREDENTIAL)
    monkeypatch.setenv(KEY_VARIABLE, CONNECTION_KEY)
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".env").write_text(f"DATABASE_PASSWORD={ENV_SECRET}\n")
    (root / "notes.txt").write_text(f"token {CREDENTIAL}\nkey {CONNECTION_KEY}\nplain words\n")
    return root


async def _keyed_session(kernel: Kernel, fake: FakeProviderServer, project: Path) -> str:
    """An ``ask`` session on a connection whose key comes from ``KEY_VARIABLE`` (sent to the fake
    provider, so it is one of the keys this process sent)."""
    await kernel.connections.add_connection(Connection("keyed", ProviderKind.OPENAI, fake.base_url,
                                                       "fake-model", api_key_env=KEY_VARIABLE))
    kernel.asks.set_interactive(True)
    session = await kernel.sessions.create_session(workdir=str(project), connection="keyed",
                                                   approval_mode=ApprovalMode.ASK)
    return session.id


async def _approve_once(kernel: Kernel, rec: Recorder, seen: int, command: str) -> None:
    """Answer the next approval request with *Allow once*, as the approval card does."""
    await wait_for(lambda: len(rec.of(ApprovalRequested)) > seen)
    request = rec.of(ApprovalRequested)[seen]
    assert isinstance(request, ApprovalRequested) and request.command == command
    assert kernel.asks.answer_approval(request.request_id, "once")


def _database_text(database: Path) -> str:
    """Every row of every table of the database file (the WAL included), as SQL text."""
    con = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return "\n".join(con.iterdump())
    finally:
        con.close()


def _assert_scrubbed(text: str, where: str) -> None:
    leaked = [s for s in SECRETS if s in text]
    assert not leaked, f"{where} holds {leaked}"


async def test_approved_unconfined_command_output_is_scrubbed(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, leaky_project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("run_command", {"command": COMMAND})]), Reply(text="read it"))
    sid = await _keyed_session(kernel, fake, leaky_project)
    await kernel.turns.send(sid, "show me the settings")
    await _approve_once(kernel, rec, 0, COMMAND)
    (done,) = await wait_turns(rec, sid, 1)
    assert done.status == "completed"
    assert fake.requests[0].headers["authorization"] == f"Bearer {CONNECTION_KEY}"  # the key was sent

    result = fake.requests[1].body["messages"][-1]
    assert result["role"] == "tool" and "plain words" in result["content"]  # the command did run
    assert result["content"].count(REDACTED) == 3, result["content"]
    _assert_scrubbed(str(fake.requests[1].body), "the next provider request")
    stored = _database_text(kernel.store.home.database)
    assert REDACTED in stored and "plain words" in stored
    _assert_scrubbed(stored, "the database")
    _assert_scrubbed(repr(rec.events), "the events sent to the window")


async def test_background_task_output_is_scrubbed_before_it_is_stored(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, leaky_project: Path) -> None:
    fake.script(Reply(tool_calls=[ToolCallSpec("run_background", {"command": COMMAND})]),
                Reply(text="started"))
    sid = await _keyed_session(kernel, fake, leaky_project)
    await kernel.turns.send(sid, "read the settings in the background")
    await _approve_once(kernel, rec, 0, COMMAND)
    await wait_turns(rec, sid, 1)
    (task,) = await kernel.tasks.list_tasks(sid)
    await wait_for(lambda: any(isinstance(e, TaskChanged) and e.task.id == task.id
                               and e.task.state == "completed" for e in rec.events))

    con = sqlite3.connect(f"file:{kernel.store.home.database}?mode=ro", uri=True)
    try:
        (tail,) = con.execute("SELECT output_tail FROM task_row WHERE id = ?", (task.id,)).fetchone()
    finally:
        con.close()
    assert "plain words" in tail and tail.count(REDACTED) == 3, tail  # stored, scrubbed

    fake.script(Reply(tool_calls=[ToolCallSpec("task_result", {"task_id": task.id})]), Reply(text="ok"))
    await kernel.turns.send(sid, "collect it")
    await wait_turns(rec, sid, 2)
    result = fake.requests[-1].body["messages"][-1]
    assert result["role"] == "tool" and "plain words" in result["content"]
    assert REDACTED in result["content"]
    _assert_scrubbed(str(fake.requests[-1].body), "the next provider request")
    _assert_scrubbed(_database_text(kernel.store.home.database), "the database")
    _assert_scrubbed(repr(rec.events), "the events sent to the window")


def _cut(data: bytes, head: int, tail: int) -> str:
    """What a command's output keeps of ``data``: its head and tail around a cut marker."""
    buffer = OutputBuffer(head, tail)
    for start in range(0, len(data), 4096):
        buffer.feed(data[start:start + 4096])
    return buffer.text()


@pytest.mark.parametrize("inside", [3, 9, len(ENV_SECRET) - 3])
def test_a_secret_the_output_is_cut_through_is_redacted_on_both_sides(inside: int) -> None:
    """The head ends ``inside`` characters into the secret, or the tail starts there, or both:
    neither piece is left (a task's tail can be aimed at a value with padding)."""
    data = b"x" * 100 + ENV_SECRET.encode() + b"y" * 100
    rest = len(ENV_SECRET) - inside
    for head, tail in ((100 + inside, 50), (0, rest + 100), (100 + inside - 1, rest - 1 + 100)):
        kept = _cut(data, head, tail)
        assert "bytes truncated" in kept
        scrubbed = scrub(kept, {ENV_SECRET})
        assert REDACTED in scrubbed
        pieces = {ENV_SECRET[i:i + 3] for i in range(len(ENV_SECRET) - 2)}
        assert not [p for p in pieces if p in scrubbed], (kept, scrubbed)


def _redactions(text: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(REDACTED), text)]


@pytest.mark.parametrize("guessed", [2, 3, 8, len(ENV_SECRET) - 1])
def test_what_is_redacted_at_a_cut_tells_nothing_about_a_guess(guessed: int) -> None:
    """A model that aims the cut with padding and prints a guess of a secret's beginning there
    (or its end just after the cut) must not learn from the redaction whether it guessed right:
    a right and a wrong guess of the same length are redacted at the same places, and what is
    left shows neither."""
    wrong = "#" * guessed
    shapes = []
    for beginning, end in ((ENV_SECRET[:guessed], ENV_SECRET[-guessed:]), (wrong, wrong)):
        # the head ends with the guessed beginning; the tail starts with the guessed end
        head_side = scrub(_cut(b"x" * 100 + beginning.encode() + b"y" * 300, 100 + guessed, 100), {ENV_SECRET})
        tail_side = scrub(_cut(b"y" * 300 + end.encode() + b"z" * 100, 100, guessed + 100), {ENV_SECRET})
        left = [CUT.sub("", side).replace(REDACTED, "") for side in (head_side, tail_side)]
        assert beginning not in left[0] and end not in left[1]
        shapes.append((_redactions(head_side), len(head_side), _redactions(tail_side), len(tail_side)))
    assert shapes[0] == shapes[1]


def test_output_cut_where_no_secret_is_known_is_left_as_it_is() -> None:
    assert scrub(_cut(b"x" * 300, 100, 100), set()) == _cut(b"x" * 300, 100, 100)


async def test_a_task_tail_aimed_at_a_secret_keeps_no_piece_of_it(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, leaky_project: Path) -> None:
    """``cat .env`` then padding, so that the task's 64 KiB tail starts inside the value."""
    visible = 9  # characters of the value (and its newline) the tail starts with
    command = f"cat .env; head -c {TAIL_BYTES - visible - 1} /dev/zero | tr '\\0' y"
    fake.script(Reply(tool_calls=[ToolCallSpec("run_background", {"command": command})]), Reply(text="started"))
    sid = await _keyed_session(kernel, fake, leaky_project)
    await kernel.turns.send(sid, "pad it")
    await _approve_once(kernel, rec, 0, command)
    await wait_turns(rec, sid, 1)
    (task,) = await kernel.tasks.list_tasks(sid)
    await wait_for(lambda: any(isinstance(e, TaskChanged) and e.task.id == task.id
                               and e.task.state == "completed" for e in rec.events))
    stored = _database_text(kernel.store.home.database)
    assert "y" * 1000 in stored  # the tail was stored …
    assert ENV_SECRET[-visible:] not in stored and ENV_SECRET[-visible + 2:] not in stored  # … without the piece
