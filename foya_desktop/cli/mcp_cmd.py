"""``foya projects trust DIR [--revoke]`` and ``foya mcp list|secret``: MCP servers from a terminal.

A project's ``.mcp.json`` comes with the repository, so its servers start only once the
person trusted them for that project; ``trust`` prints exactly what it trusts (command
lines and URLs) and records it. User-level servers (``mcp.json`` in the data folder) are
the person's own and need no trust.
"""

from __future__ import annotations

import argparse
import getpass
import json
from typing import Any

from foya_desktop.core.errors import BadInput
from foya_desktop.core.terminal import visible
from foya_desktop.engine.kernel import Kernel


def add_trust_parser(sub: Any) -> None:
    """``projects trust`` (called from ``cli.projects``)."""
    tr = sub.add_parser("trust", help="trust (or --revoke) the MCP servers of a project's .mcp.json")
    tr.add_argument("dir", help="the project folder")
    tr.add_argument("--server", action="append", metavar="NAME", help="only this server (repeatable)")
    tr.add_argument("--revoke", action="store_true", help="take the trust back (servers stop)")


def add_mcp_parser(p: argparse.ArgumentParser) -> None:
    """``foya mcp``: list servers, keep header secrets in the keyring."""
    sub: Any = p.add_subparsers(dest="action", required=True)
    ls = sub.add_parser("list", help="configured MCP servers (user level and a project's) and problems")
    ls.add_argument("dir", nargs="?", help="a project folder (default: user level only)")
    ls.add_argument("--json", action="store_true")
    sec = sub.add_parser("secret", help="store the secret a ${keyring:NAME} header uses (prompted)")
    sec.add_argument("name")
    sec.add_argument("--delete", action="store_true")


async def trust_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """``foya projects trust DIR [--server NAME]… [--revoke]``."""
    project = await kernel.projects.add_project(args.dir)
    if args.revoke:
        removed = await kernel.mcp.revoke(project.id, args.server)
        print(f"Took back the trust of {removed} MCP server(s) of {project.path}; they will not start "
              "until you trust them again.")
        return 0
    listing = await kernel.mcp.listing(project.id)
    for problem in listing.problems:
        print(visible(f"warning: {problem}"))
    if not listing.of_scope("project"):
        print(f"{project.path} has no MCP servers in .mcp.json; nothing to trust.")
        return 0
    trusted = await kernel.mcp.trust(project.id, args.server)
    if not trusted:
        print("No usable server to trust (see the problems above).")
        return 1
    print(f"Trusted for {project.path}:")
    for t in trusted:
        print(visible(f"  {t.server.name}: {t.target}"))
    for t in await kernel.mcp.trust_report(project.id):
        if t.state == "unusable":
            print(visible(f"  not trusted, cannot be used: {t.server.problem}"))
    print("They start when a session of this project next needs them. If a server's command or URL "
          "changes, you are asked again. `foya projects trust DIR --revoke` takes it back.")
    return 0


async def mcp_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """``foya mcp list [DIR] [--json]`` / ``foya mcp secret NAME [--delete]``."""
    if args.action == "secret":
        if args.delete:
            await kernel.mcp.set_secret(args.name, None)
            print(f"Deleted the MCP secret {args.name} from the keyring.")
            return 0
        value = getpass.getpass(f"Secret for ${{keyring:{args.name}}}: ")
        if not value:
            raise BadInput("An empty secret was not stored.")
        await kernel.mcp.set_secret(args.name, value)
        print(f"Stored {args.name} in the OS keyring; headers written as ${{keyring:{args.name}}} use it.")
        return 0
    rows = await (kernel.mcp.overview_of_folder(args.dir) if args.dir else kernel.mcp.overview(None))
    if args.json:
        print(json.dumps([{"scope": r.scope, "name": r.name, "target": r.target, "trust": r.trust,
                           "state": r.state, "error": r.error, "source": r.source,
                           "warnings": list(r.warnings)} for r in rows], ensure_ascii=False, indent=1))
        return 0
    for scope, title in (("user", "User level"), ("project", "Project")):
        mine = [r for r in rows if r.scope == scope]
        if not mine:
            continue
        print(f"{title}:")
        for r in mine:
            line = f"  {r.name}: {r.target}  [{r.trust}, {r.state}]" if r.name else f"  problem: {r.error}"
            print(visible(line))
            if r.name and r.error:
                print(visible(f"    {r.error}"))
            for w in r.warnings:
                print(visible(f"    warning: {w}"))
    if not rows:
        print("No MCP servers are configured.")
    return 0
