"""The secret scrubber reads the project's ``.env`` files confined, like every project file Foya
reads by itself ("Approvals and safety").

It used to follow links: a repository's ``.env`` pointing at a file outside the project was read
(its values then betray themselves by being redacted, so output could be matched against a file
of the person's), one pointing at ``/proc/self/environ`` read Foya's environment, and a FIFO named
``.env`` hung every tool call for good. The end-to-end tests run the real kernel against the real
fake provider with an obedient model in auto mode reading a plain file; they look at the tool
result the provider receives next.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.permissions.secrets import MAX_SECRET_FILE_BYTES, REDACTED, known_secrets
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_turns

OUTSIDE_VALUE = "outside-canary-5d0e71"
"""A value only a file outside the project holds."""
INSIDE_SECRET = "inside-canary-a93b4c"
"""A value of a normal ``.env`` in the project (still scrubbed)."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with a normal ``app/.env`` and a ``notes.txt`` quoting both values."""
    root = tmp_path / "proj"
    (root / "app").mkdir(parents=True)
    (root / "app" / ".env").write_text(f"API_TOKEN={INSIDE_SECRET}\n")
    (root / "notes.txt").write_text(f"one {OUTSIDE_VALUE}\ntwo {INSIDE_SECRET}\nplain words\n")
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file of the person's outside the project, in ``.env`` form."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "settings.txt").write_text(f"NOTE={OUTSIDE_VALUE}\n")
    return folder / "settings.txt"


async def _notes_as_the_model_sees_them(kernel: Kernel, fake: FakeProviderServer, rec: Recorder,
                                        project: Path) -> str:
    """An auto-mode turn in which the model reads ``notes.txt``; the result the provider got next."""
    fake.script(Reply(tool_calls=[ToolCallSpec("read_file", {"path": "notes.txt"})]), Reply(text="read"))
    session = await kernel.sessions.create_session(title="t", workdir=str(project), connection="fake",
                                                   approval_mode=ApprovalMode.AUTO)
    await kernel.turns.send(session.id, "read the notes")
    (done,) = await wait_turns(rec, session.id, 1)
    assert done.status == "completed"
    result = fake.requests[1].body["messages"][-1]
    assert result["role"] == "tool" and "plain words" in result["content"]
    content: str = result["content"]
    assert INSIDE_SECRET not in content and REDACTED in content  # a normal .env still counts
    return content


@pytest.mark.parametrize("link", ["symbolic", "hard"])
async def test_a_dotenv_linked_to_a_file_outside_the_project_is_not_read(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, outside: Path,
        link: str) -> None:
    """Were it read, its value would come back redacted: Foya would have read the person's file."""
    (os.symlink if link == "symbolic" else os.link)(outside, project / ".env")
    content = await _notes_as_the_model_sees_them(kernel, fake, rec, project)
    assert f"one {OUTSIDE_VALUE}" in content


@pytest.fixture
def fifo(project: Path) -> Iterator[Path]:
    """A FIFO named ``.env``; afterwards a reader stuck on it (without the fix) is let go."""
    path = project / ".env"
    os.mkfifo(path)
    yield path
    with contextlib.suppress(OSError):  # ENXIO: nobody was reading it
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


async def test_a_fifo_named_dotenv_does_not_hang_the_tool_call(
        kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path, fifo: Path) -> None:
    await _notes_as_the_model_sees_them(kernel, fake, rec, project)


def test_a_dotenv_linked_to_foyas_own_environment_is_not_read(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/proc/self/environ`` is Foya's environment; a plain variable's value never becomes known."""
    monkeypatch.setenv("FOYA_TEST_PLAIN_SETTING", "environ-canary-7c2f90")
    (project / ".env").symlink_to("/proc/self/environ")
    (project / "app" / ".env.local").symlink_to("../../../proc/self/environ")
    found = known_secrets(project, environ={})
    assert found == {INSIDE_SECRET}


def test_a_dotenv_over_the_size_cap_is_not_read(project: Path) -> None:
    (project / ".env").write_text("BIG_TOKEN=big-canary-0e5f61\n" + "#" * MAX_SECRET_FILE_BYTES)
    assert known_secrets(project, environ={}) == {INSIDE_SECRET}
