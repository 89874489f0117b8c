"""``foya run`` in a terminal: control characters are shown, not obeyed (class 8), and broad
projects need a flag (class 3). A real subprocess against the real fake provider."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from foya_desktop.core.terminal import visible
from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Fault, Reply, ToolCallSpec

OSC_TITLE = "\x1b]0;pwned\x07"
OSC_CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"
CLEAR = "\x1b[2J\x1b[H"
FAKE_LINE = "\r\x1b[2K[run_command {\"command\": \"ls\"}]"
BIDI = "\u202e"


@pytest.fixture
def server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as s:
        yield s


def test_visible_escapes_every_control_but_newline_and_tab() -> None:
    assert visible("a\tb\nc") == "a\tb\nc"
    assert visible(OSC_TITLE) == "\\x1b]0;pwned\\x07"
    assert visible("\x9b2J" + BIDI) == "\\x9b2J\\u202e"


def test_run_prints_no_raw_escape_sequences(tmp_path: Path, server: FakeProviderServer) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(tool_calls=[ToolCallSpec(f"evil{CLEAR}tool", {"x": OSC_CLIPBOARD})]),
                  Reply(text=f"hello {OSC_TITLE}{CLEAR}{FAKE_LINE}{BIDI} done"))
    run = foya(home, "run", "--project", str(proj), "hi")
    for stream in (run.stdout, run.stderr):
        assert "\x1b" not in stream and "\x07" not in stream and "\r" not in stream and BIDI not in stream
    assert "hello \\x1b]0;pwned\\x07" in run.stdout


def test_provider_error_is_shown_escaped(tmp_path: Path, server: FakeProviderServer) -> None:
    home, proj = tmp_path / "home", tmp_path / "proj"
    proj.mkdir()
    add_fake(home, server)
    server.script(Reply(fault=Fault.status(400, body={"error": {"message": f"bad {OSC_TITLE} request"}})))
    run = foya(home, "run", "--project", str(proj), "hi")
    assert run.returncode == 1
    assert "\x1b" not in run.stderr and "\x07" not in run.stderr


def test_broad_projects_need_the_flag(tmp_path: Path, server: FakeProviderServer) -> None:
    home = tmp_path / "home"
    add_fake(home, server)
    for project in ("/", str(Path.home()), str(tmp_path)):
        run = foya(home, "run", "--project", project, "hi")
        assert run.returncode != 0, project
        assert "--allow-broad-project" in run.stderr
    server.script(Reply(text="ok"))
    allowed = foya(home, "run", "--project", str(tmp_path), "--allow-broad-project", "hi")
    assert allowed.returncode == 0, allowed.stderr
