"""Every path-escape vector through every file tool: refused in plan, refused in run, nothing changed.

The world (see ``conftest.build_world``) plants symlinks, a hard link, a loop
and a data folder inside the project; the outside folder, the sibling
``proj2``, ``.git`` and the data folder are snapshotted before and compared
after every call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.errors import PathOutsideProject, ToolError
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.registry import default_tools
from tests.tools.tool_vectors import (
    ESCAPE,
    FILE_TOOL_NAMES,
    GLOB_PATTERN_VECTORS,
    PATH_VECTORS,
    WRITE_ONLY_VECTORS,
)
from tests.tools.world import SECRET, snapshot

TOOLS = default_tools()


def _args(tool: str, path: str) -> dict[str, Any]:
    """Arguments that would leak or change something if ``path`` were honoured."""
    return {
        "read_file": {"path": path},
        "list_dir": {"path": path},
        "glob": {"pattern": "*", "path": path},
        "grep": {"pattern": "SECRET", "path": path},
        "view_image": {"path": path},
        "write_file": {"path": path, "content": "pwned"},
        "edit_file": {"path": path, "old_string": "TOP", "new_string": "PWNED"},
    }[tool]


async def _assert_refused(tool_name: str, template: str, kind: str, world: tuple[Path, Path, Path],
                          ctx: ToolContext) -> None:
    base = world[0]
    path = template.replace("{base}", str(base))
    args = _args(tool_name, path)
    tool = TOOLS[tool_name]
    before = snapshot(base)
    expected = PathOutsideProject if kind == ESCAPE else ToolError
    with pytest.raises(expected) as caught:
        tool.plan(args, ctx)
    assert str(caught.value)
    if kind != ESCAPE:
        assert "protected" in str(caught.value)
    result = await tool.run(args, ctx)
    assert result.is_error, result.content
    assert SECRET.decode().strip() not in result.content
    assert not result.images
    assert not result.changes
    assert snapshot(base) == before


@pytest.mark.parametrize("tool_name", FILE_TOOL_NAMES)
@pytest.mark.parametrize(("template", "kind"), PATH_VECTORS, ids=[repr(v[0]) for v in PATH_VECTORS])
async def test_path_vector_refused(tool_name: str, template: str, kind: str,
                                   world: tuple[Path, Path, Path], world_ctx: ToolContext) -> None:
    await _assert_refused(tool_name, template, kind, world, world_ctx)


@pytest.mark.parametrize("tool_name", ["write_file", "edit_file"])
@pytest.mark.parametrize(("template", "kind"), WRITE_ONLY_VECTORS, ids=[v[0] for v in WRITE_ONLY_VECTORS])
async def test_hardlink_write_refused(tool_name: str, template: str, kind: str,
                                      world: tuple[Path, Path, Path], world_ctx: ToolContext) -> None:
    await _assert_refused(tool_name, template, kind, world, world_ctx)


@pytest.mark.parametrize("pattern", GLOB_PATTERN_VECTORS)
async def test_glob_pattern_cannot_escape(pattern: str, world: tuple[Path, Path, Path],
                                          world_ctx: ToolContext) -> None:
    tool = TOOLS["glob"]
    with pytest.raises(PathOutsideProject):
        tool.plan({"pattern": pattern}, world_ctx)
    result = await tool.run({"pattern": pattern}, world_ctx)
    assert result.is_error
    assert "secret.txt" not in result.content


async def test_broad_glob_lists_nothing_outside(world_ctx: ToolContext) -> None:
    result = await TOOLS["glob"].run({"pattern": "**/*"}, world_ctx)
    assert not result.is_error
    listed = result.content.splitlines()
    assert "README.md" in listed
    assert "src/a.py" in listed
    for forbidden in ("link_dir", "link_file", "link_abs", "dangling_out", "loop_a", "link_etc",
                      "secret.txt", "inner.txt", ".git/", ".foya-data"):
        assert not any(forbidden in line for line in listed), forbidden


async def test_broad_grep_reads_nothing_through_links(world_ctx: ToolContext) -> None:
    result = await TOOLS["grep"].run({"pattern": "SECRET|bare|SQLite", "glob": "*[!t]"}, world_ctx)
    assert "No matches" in result.content, result.content


async def test_listing_marks_links_without_following(world_ctx: ToolContext) -> None:
    result = await TOOLS["list_dir"].run({}, world_ctx)
    names = result.content.splitlines()[1:]
    assert "link_dir@" in names
    assert "src/" in names
    assert "README.md" in names
