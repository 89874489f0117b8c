"""The built-in tools by name: all of them, and the read-only set for plan mode."""

from __future__ import annotations

from foya_desktop.tools.base import Tool
from foya_desktop.tools.files import ListDirTool, ReadFileTool
from foya_desktop.tools.search import GlobTool, GrepTool
from foya_desktop.tools.shell import RunCommandTool
from foya_desktop.tools.view_image import ViewImageTool
from foya_desktop.tools.writes import EditFileTool, WriteFileTool

READ_ONLY_NAMES = ("read_file", "list_dir", "glob", "grep", "view_image")


def default_tools() -> dict[str, Tool]:
    """Fresh instances of every built-in file, search, image and shell tool."""
    tools: list[Tool] = [ReadFileTool(), ListDirTool(), GlobTool(), GrepTool(), ViewImageTool(),
                         WriteFileTool(), EditFileTool(), RunCommandTool()]
    return {tool.name: tool for tool in tools}


def read_only_tools() -> dict[str, Tool]:
    """The tools that never change anything (plan mode): reads, listings, searches, images."""
    tools = default_tools()
    return {name: tools[name] for name in READ_ONLY_NAMES}
