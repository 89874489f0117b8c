"""``foya projects list | set | info``: projects, their instruction and the files they offer.

A project is named by its id, its name or its folder path. The instruction applies to every
session of the project from its next request (the window's *Project instruction…* does the same).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from foya_desktop.cli.mcp_cmd import add_trust_parser, trust_command
from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.model import Project
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.project_files.report import report_text


def add_projects_parser(p: argparse.ArgumentParser) -> None:
    """The ``projects`` subcommands."""
    sub: Any = p.add_subparsers(dest="action", required=True)
    ls = sub.add_parser("list", help="list projects with their instruction")
    ls.add_argument("--json", action="store_true")
    st = sub.add_parser("set", help="change a project's instruction or scoped recall")
    st.add_argument("project", help="the project's id, name or folder")
    st.add_argument("--instruction", metavar="TEXT", help="'' removes it")
    st.add_argument("--scoped-recall", choices=["on", "off"],
                    help="member sessions get read-only summaries of their sibling sessions (off by default)")
    info = sub.add_parser("info", help="rules, skills, agent files and MCP servers found in a folder, "
                                       "what failed to load, and what was refused (a link out of the "
                                       "project, a hard link, a pseudo-file, too large)")
    info.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the folder (default: here)")
    info.add_argument("--json", action="store_true")
    add_trust_parser(sub)


async def _find(kernel: Kernel, ref: str) -> Project:
    projects = await kernel.projects.list_projects()
    path = str(await asyncio.to_thread(lambda: Path(ref).expanduser().resolve())) if ref else ""
    hits = [p for p in projects if ref in (p.id, p.name) or p.path == path]
    if not hits:
        raise NotFound(f"No project {ref!r}. See `foya projects list`.")
    if len(hits) > 1:
        raise InvalidOperation(f"Several projects are named {ref!r}; use the id or the folder instead.")
    return hits[0]


async def projects_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Run one ``foya projects`` action."""
    if args.action == "trust":
        return await trust_command(kernel, args)
    if args.action == "list":
        projects = await kernel.projects.list_projects()
        if args.json:
            print(json.dumps([{"id": p.id, "name": p.name, "path": p.path, "instruction": p.instruction,
                               "scoped_recall": p.scoped_recall}
                              for p in projects], ensure_ascii=False, indent=1))
        else:
            for p in projects:
                print(f"{p.id}  {p.name:<20} {p.path}" + (f"\n    instruction: {p.instruction}"
                                                          if p.instruction else "")
                      + ("\n    scoped recall: on" if p.scoped_recall else ""))
        return 0
    if args.action == "info":
        return await _info(kernel, args)
    return await _set(kernel, args)


async def _set(kernel: Kernel, args: argparse.Namespace) -> int:
    if args.instruction is None and args.scoped_recall is None:
        raise InvalidOperation("Nothing to change: give --instruction TEXT and/or --scoped-recall on|off.")
    project = await _find(kernel, args.project)
    if args.instruction is not None:
        project = await kernel.projects.set_project_instruction(project.id, args.instruction)
        saved = "saved; it applies from each session's next request."
        print(f"Project {project.name}: instruction "
              + (saved if project.instruction.strip() else "removed."))
    if args.scoped_recall is not None:
        project = await kernel.memory.set_project_scoped_recall(project.id, args.scoped_recall == "on")
        print(f"Project {project.name}: scoped recall " + (
            "on; member sessions see read-only summaries of their siblings from their next request."
            if project.scoped_recall else "off."))
    return 0


async def _info(kernel: Kernel, args: argparse.Namespace) -> int:
    report = await kernel.files.folder_report(args.dir)
    print(json.dumps(report, ensure_ascii=False, indent=1) if args.json else report_text(report))
    return 0
