"""MCP tool calls under the shared approval policy (``engine/permissions/policy.py``).

Seed ids: S1-APPROVAL (approvals the person controls).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.permissions.policy import decide, grant_key
from foya_desktop.tools.base import ToolContext, ToolOutput
from foya_desktop.tools.mcp.tool import McpTool, mcp_tool_name, outside_paths


async def _never(name: str, args: dict[str, object]) -> ToolOutput:
    raise AssertionError("not called")


def _tool(read_only: bool = False, open_world: bool = True) -> McpTool:
    return McpTool("files", "files", "read", "Reads.", {"type": "object", "properties": {}},
                   read_only=read_only, open_world=open_world, caller=_never)


def _ctx(tmp_path: Path) -> ToolContext:
    return ToolContext(session_id="s", workdir=tmp_path, data_dir=tmp_path / "data")


@pytest.mark.parametrize("mode", list(ApprovalMode))
def test_mcp_tools_ask_by_default_in_every_mode_but_read_only(mode: ApprovalMode, tmp_path: Path) -> None:
    action = _tool().plan({"q": "x"}, _ctx(tmp_path))
    verdict = decide(action, mode, tmp_path, set())
    assert verdict.decision == ("deny" if mode == ApprovalMode.READ_ONLY else "ask")


def test_always_rule_is_narrow_per_tool(tmp_path: Path) -> None:
    action = _tool().plan({}, _ctx(tmp_path))
    key = grant_key(action, tmp_path)
    assert key == "mcp:mcp__files__read"
    assert decide(action, ApprovalMode.ASK, tmp_path, {key}).decision == "allow"
    other = McpTool("files", "files", "write", "", {}, read_only=False, open_world=True, caller=_never)
    assert decide(other.plan({}, _ctx(tmp_path)), ApprovalMode.ASK, tmp_path, {key}).decision == "ask"


def test_read_only_hint_lowers_friction_only_for_local_tools_inside_the_project(tmp_path: Path) -> None:
    local = _tool(read_only=True, open_world=False)
    inside = local.plan({"path": "src/a.py"}, _ctx(tmp_path))
    assert decide(inside, ApprovalMode.AUTO_EDIT, tmp_path, set()).decision == "allow"
    assert decide(inside, ApprovalMode.ASK, tmp_path, set()).decision == "ask"
    outside = local.plan({"path": "/etc/shadow", "nested": [{"p": "../../x"}]}, _ctx(tmp_path))
    assert outside.outside and grant_key(outside, tmp_path) is None
    verdict = decide(outside, ApprovalMode.AUTO, tmp_path, {"mcp:mcp__files__read"})
    assert verdict.decision == "ask" and "outside the project" in verdict.reason
    networked = _tool(read_only=True, open_world=True).plan({}, _ctx(tmp_path))
    assert decide(networked, ApprovalMode.AUTO, tmp_path, set()).decision == "ask"


def test_outside_paths_and_names(tmp_path: Path) -> None:
    assert outside_paths({"a": "plain words", "b": "src/x", "c": str(tmp_path / "in")}, tmp_path) == []
    assert outside_paths(["~/.ssh/id_rsa"], tmp_path) == [Path.home() / ".ssh" / "id_rsa"]
    assert mcp_tool_name("srv", "do.it") == "mcp__srv__do_it"
    assert len(mcp_tool_name("s" * 40, "t" * 40)) == 64
