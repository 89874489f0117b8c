"""``foya projects trust DIR [--revoke]``, ``foya run`` in an untrusted project, ``foya mcp list``.

Through the real entry point (in-process ``main``), a real data folder, a real FastMCP
stdio server and the fake provider. Seed ids: Y-WORKDIR, S1-APPROVAL.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foya_desktop.tools.mcp.config import project_config_path
from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.mcp.conftest import processes_with, stdio_entry, wait_gone, write_config


@pytest.fixture
def foya(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Foya:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    return Foya(capsys)


def test_run_in_untrusted_project_starts_nothing_then_trust_and_revoke(
        foya: Foya, tmp_path: Path, tag: str) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    write_config(project_config_path(project), {"fake": stdio_entry(tag), "broken": {"args": []}})
    with FakeProviderServer() as server:
        assert foya("connections", "add", "fake", "--kind", "openai", "--base-url", server.base_url,
                    "--model", "fake-model")[0] == 0
        server.script(Reply(text="no servers"))
        code, out, err = foya("run", "--project", str(project), "hello")
        assert code == 0, err
        assert "not trusted" in err and f"foya projects trust {project.resolve()}" in err
        tools = [t["function"]["name"] for t in server.requests[-1].body.get("tools", [])]
        assert not any(t.startswith("mcp__") for t in tools)
        assert processes_with(tag) == []

        code, out, err = foya("projects", "trust", str(project), "--yes")
        assert code == 0, err
        assert "Trusted for" in out and f"fake: {stdio_entry(tag)['command']}" in out
        assert "tests.mcp.fake_server stdio " + tag in out
        assert "cannot be used" in out and "needs \"command\"" in out

        server.script(Reply(tool_calls=[ToolCallSpec("mcp__fake__echo", {"text": "cli"})]), Reply(text="ok"))
        code, out, err = foya("run", "--project", str(project), "--approval", "auto", "use echo")
        assert code == 0, err
        sent = [t["function"]["name"] for t in server.requests[-2].body.get("tools", [])]
        assert "mcp__fake__echo" in sent
        tool_msg = [m for m in server.requests[-1].body["messages"] if m.get("role") == "tool"]
        assert "echo: cli" in json.dumps(tool_msg)  # a read-only, closed-world tool in auto mode
        assert wait_gone(tag) == []  # the run ended: its server ended with it

        code, out, err = foya("projects", "trust", str(project), "--revoke")
        assert code == 0 and "Took back the trust of 1" in out
        server.script(Reply(text="again nothing"))
        code, out, err = foya("run", "--project", str(project), "hi")
        assert code == 0 and "not trusted" in err


def test_mcp_list_shows_user_and_project_apart(foya: Foya, tmp_path: Path, tag: str) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    write_config(home / "mcp.json", {"mine": {"type": "http", "url": "http://127.0.0.1:9/mcp"}})
    project_config_path(project).write_text("{broken", encoding="utf-8")
    code, out, err = foya("mcp", "list", str(project))
    assert code == 0, err
    assert out.index("User level:") < out.index("mine: http http://127.0.0.1:9/mcp") < out.index("Project:")
    assert "is not valid JSON" in out
    code, out, _ = foya("mcp", "list", str(project), "--json")
    rows = json.loads(out)
    assert [r["scope"] for r in rows] == ["user", "project"]


def test_mcp_list_of_a_new_folder_reads_only(foya: Foya, tmp_path: Path, tag: str) -> None:
    """``foya mcp list DIR`` is a read (it opens the store read-only): a folder that is not a
    project yet is listed with its servers untrusted and is not registered — registering it on the
    read-only store said "Foya cannot write to the database" on a perfectly writable one. Once the
    folder is a project with trust recorded, the listing shows that trust."""
    project = tmp_path / "repo"
    project.mkdir()
    write_config(project_config_path(project), {"fake": stdio_entry(tag)})
    assert foya("vps", "list")[0] == 0  # the data folder exists (as after any first use)
    code, out, err = foya("mcp", "list", str(project))
    assert code == 0, err
    assert "fake:" in out and "[untrusted, waiting for trust]" in out, out
    code, out, _ = foya("projects", "list")
    assert code == 0 and str(project.resolve()) not in out
    code, _, err = foya("projects", "trust", str(project), "--yes")
    assert code == 0, err
    code, out, err = foya("mcp", "list", str(project))
    assert code == 0 and "[trusted, not started]" in out, (out, err)
    code, _, err = foya("mcp", "list", str(tmp_path / "nowhere"))
    assert code == 1 and "does not exist" in err and "Traceback" not in err
