"""Hard links count as outside (class 6) and plain safe reads run unasked (issue 8, "also").

Every reading file tool refuses a hard-linked file; every listed read command
that would reach one asks; ``id``, ``sed -n 1,20p FILE`` and
``grep -R PATTERN -n || true`` run without a prompt when nothing they read is
hard-linked, secret-looking or behind a link out of the project.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.files import GrepTool, ReadFileTool
from foya_desktop.tools.shell import scrub_env
from foya_desktop.tools.shell_policy import classify_command
from foya_desktop.tools.view_image import ViewImageTool

SAFE_READS = ["id", "sed -n 1,20p notes.txt", "grep -R hello -n || true", "grep -rn hello .",
              "cat notes.txt", "git status", "git log --oneline -3"]


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    outside = tmp_path / "outside.txt"
    outside.write_text("OUTSIDE-CANARY hello\n")
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "notes.txt").write_text("hello\n")
    return root


def _link(proj: Path) -> None:
    os.link(proj.parent / "outside.txt", proj / "linked.txt")


async def test_file_tools_refuse_hard_links(proj: Path) -> None:
    _link(proj)
    ctx = ToolContext(session_id="s", workdir=proj, data_dir=proj.parent / "data")
    for tool, args in ((ReadFileTool(), {"path": "linked.txt"}), (ViewImageTool(), {"path": "linked.txt"}),
                       (GrepTool(), {"pattern": "CANARY", "path": "linked.txt"}),
                       (GrepTool(), {"pattern": "CANARY"})):
        out = await tool.run(args, ctx)
        assert "OUTSIDE-CANARY" not in out.content, (tool.name, out.content)


def test_read_commands_on_hard_links_ask(proj: Path) -> None:
    _link(proj)
    for command in ("cat linked.txt", "sed -n 1p linked.txt", "grep -R CANARY -n", "grep -r CANARY .",
                    "head linked.txt", "rg CANARY"):
        verdict = classify_command(command, proj)
        assert verdict.decision == "ask" and verdict.outside, (command, verdict)


def test_grep_dash_R_asks_for_links_out_of_the_project(proj: Path) -> None:
    (proj / "escape").symlink_to(proj.parent)
    assert classify_command("grep -R CANARY -n", proj).decision == "ask"
    assert classify_command("grep -r CANARY -n", proj).decision == "allow"  # -r does not follow links


def test_plain_safe_reads_run_unasked(proj: Path) -> None:
    """False refusals of plain safe reads are counted (and must be zero)."""
    refused = [c for c in SAFE_READS if classify_command(c, proj).decision != "allow"]
    print(f"\nplain safe reads: {len(SAFE_READS)}, false refusals: {len(refused)} {refused}")
    assert refused == []


def test_unsafe_sed_still_asks(proj: Path) -> None:
    for command in ("sed -i 1d notes.txt", "sed -n 1w/tmp/x notes.txt", "sed 's/a/b/e' notes.txt",
                    "sed -f script.sed notes.txt", "sed -n 1,20p ../outside.txt"):
        assert classify_command(command, proj).decision == "ask", command


def test_connection_key_variables_never_reach_commands() -> None:
    env = {"OPENAI_KEY_PROD": "sk-prod-123", "COPY_OF_IT": "x sk-prod-123 y", "HOME": "/h"}
    assert scrub_env(env, {"OPENAI_KEY_PROD"}, {"sk-prod-123"}) == {"HOME": "/h"}
