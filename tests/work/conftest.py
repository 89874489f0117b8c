"""A data folder with the fake provider, Linus (implements) and Martin (reviews), and a source
session bound to a project folder in ``auto`` approval mode (nobody is at a window to approve)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec, last_user_text, system_prompt
from tests.helpers.agent_script import call_id

LINUS = "LINUS-SOUL: you implement."
MARTIN = "MARTIN-SOUL: you review."
WRITE_DRAFT = "printf draft > impl.txt; echo ran >> ledger.txt"
WRITE_FIXED = "printf fixed > impl.txt; echo ran >> ledger.txt"


def foya(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m foya_desktop ARGS`` with ``FOYA_HOME=home``."""
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    return subprocess.run([sys.executable, "-m", "foya_desktop", *args], capture_output=True, text=True,
                          env=env, timeout=timeout, check=False)


def ok_json(home: Path, *args: str) -> Any:
    """Run a ``--json`` command that must succeed; its output."""
    out = foya(home, *args, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def team_responder(body: dict[str, Any]) -> Reply:
    """Linus writes impl.txt with a command (``draft``, then ``fixed`` once sent back); Martin sends
    the first version back and accepts the rework."""
    system = system_prompt(body)
    messages = body.get("messages", [])
    if messages and messages[-1].get("role") == "tool":
        return Reply(text="I wrote impl.txt.")
    text = last_user_text(body)
    if MARTIN in system:
        if "Result of rework-" in text:
            return Reply(text="Now it says fixed.\nACCEPT")
        return Reply(text="It says draft.\nSEND BACK: write fixed, not draft")
    if LINUS in system and "Goal:" in text:
        command = WRITE_FIXED if "sent the work back" in text or "failed:" in text else WRITE_DRAFT
        return Reply(tool_calls=[ToolCallSpec("run_command", {"command": command}, id=call_id())])
    return Reply(text="hi")


@dataclass
class Team:
    home: Path
    project: Path
    session: str
    server: FakeProviderServer


@pytest.fixture
def team(tmp_path: Path) -> Iterator[Team]:
    home, project = tmp_path / "home", tmp_path / "proj"
    project.mkdir()
    with FakeProviderServer() as server:
        server.responder = team_responder
        assert foya(home, "connections", "add", "fake", "--kind", "openai", "--base-url", server.base_url,
                    "--model", "fake-model").returncode == 0
        for name, soul in (("Linus", LINUS), ("Martin", MARTIN)):
            added = foya(home, "vps", "add", name, "--soul", soul, "--tools", "read_file,run_command")
            assert added.returncode == 0, added.stderr
        run = foya(home, "run", "--project", str(project), "--approval", "auto", "--vp", "Linus", "hello")
        assert run.returncode == 0, run.stderr
        [session] = ok_json(home, "sessions", "list")
        yield Team(home, project, session["id"], server)
