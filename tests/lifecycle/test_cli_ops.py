"""``foya sessions branch | rewind | delete | compact`` on a real data directory."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from foya_desktop.cli.main import main
from foya_desktop.core.model import ApprovalMode, Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from tests.fakeprovider import FakeProviderServer
from tests.helpers.agent_script import agent_responder
from tests.helpers.fake_keyring import MemoryKeyring


def _prepare(home: Home, fake: FakeProviderServer, project: Path) -> dict[str, str]:
    """A session with two turns (the second writes a file), made by a kernel that is then closed."""
    async def build() -> dict[str, str]:
        kernel = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
        try:
            await kernel.connections.add_connection(Connection("fake", ProviderKind.OPENAI, fake.base_url, "fake-model",
                                                   api_key_env="FOYA_TEST_KEY"))
            s = await kernel.sessions.create_session(title="cli", workdir=str(project), connection="fake",
                                            approval_mode=ApprovalMode.AUTO_EDIT)
            await kernel.turns.send(s.id, "hello")
            await kernel.turns.wait_idle()
            await kernel.turns.send(s.id, "write cli.txt made by a tool")
            await kernel.turns.wait_idle()
            msgs = await kernel.store.valid_messages(s.id)
            return {"session": s.id, "reply": msgs[1].id, "second": msgs[2].id}
        finally:
            await kernel.close()
    return asyncio.run(build())


def test_branch_rewind_compact_delete(home: Home, fake: FakeProviderServer, project: Path,
                                      monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FOYA_TEST_KEY", "k")
    fake.responder = agent_responder
    ids = _prepare(home, fake, project)
    sid = ids["session"]

    assert main(["sessions", "branch", sid, "--after", ids["reply"], "--json"]) == 0
    branch = json.loads(capsys.readouterr().out)
    assert branch["messages"] == 2 and branch["source_id"] == sid

    assert main(["sessions", "branch", sid, "--after", ids["second"]]) == 1
    assert "user message" in capsys.readouterr().err

    assert main(["sessions", "rewind", sid, "--to", ids["second"], "--preview"]) == 0
    out = capsys.readouterr().out
    assert "remove   cli.txt" in out and (project / "cli.txt").exists()

    assert main(["sessions", "rewind", sid, "--to", ids["second"]]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("write cli.txt made by a tool") and not (project / "cli.txt").exists()

    assert main(["sessions", "compact", sid]) == 0
    assert "SUMMARY of" in capsys.readouterr().out

    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["sessions", "delete", sid]) == 1
    assert "--yes" in capsys.readouterr().err
    assert main(["sessions", "delete", sid, "--yes"]) == 0
    assert f"Deleted 1 session(s): {sid}" in capsys.readouterr().out
    assert main(["sessions", "show", sid]) == 1
