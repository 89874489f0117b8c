"""``foya projects trust DIR [--revoke]`` and ``foya mcp list|secret``: MCP servers from a terminal.

A project's ``.mcp.json`` comes with the repository, so its servers start only once the
person trusted them for that project; ``trust`` prints everything it trusts (command
line or URL, env and header values and the files the command runs, ``${VAR}`` as
written) and what changed since an earlier trust, then records it; ``mcp list DIR``
shows the same without trusting anything. User-level servers (``mcp.json`` in the data folder) are
the person's own and need no trust.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import sys
from typing import Any

from foya_desktop.core.errors import BadInput
from foya_desktop.core.terminal import visible
from foya_desktop.engine.kernel import Kernel
from foya_desktop.tools.mcp.trust_spec import Change, TrustSpec, change_lines, describe


def add_trust_parser(sub: Any) -> None:
    """``projects trust`` (called from ``cli.projects``)."""
    tr = sub.add_parser("trust", help="trust (or --revoke) the MCP servers of a project's .mcp.json")
    tr.add_argument("dir", help="the project folder")
    tr.add_argument("--server", action="append", metavar="NAME", help="only this server (repeatable)")
    tr.add_argument("--revoke", action="store_true", help="take the trust back (servers stop)")
    tr.add_argument("--yes", action="store_true",
                    help="do not ask at a terminal (what it trusts is still listed)")


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
    """``foya projects trust DIR [--server NAME]… [--revoke] [--yes]``.

    Lists everything it is about to trust (``_server_lines``); at a terminal it asks first
    (``--yes`` does not), and it records trust of exactly what it listed: a server that
    changed in between is refused, never trusted unseen."""
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
    report = await kernel.mcp.trust_report(project.id)
    chosen = [t for t in report if t.server.scope == "project" and t.state != "unusable"
              and (args.server is None or t.server.name in args.server)]
    if chosen:
        print(f"{project.path}'s .mcp.json starts these servers on your computer, with your permissions "
              "(${VAR} is filled in from your environment only when a server starts):")
        for t in chosen:
            for line in _server_lines(t.server.name, t.target, t.spec, t.changes):
                print(visible(line))
        if sys.stdin.isatty() and not args.yes and not await asyncio.to_thread(_confirmed):
            print("Nothing was trusted.")
            return 1
    trusted = await kernel.mcp.trust(project.id, args.server, {t.server.name: t.fingerprint for t in chosen})
    if not trusted:
        print("No usable server to trust (see the problems above).")
        return 1
    print(f"Trusted for {project.path}: {', '.join(t.server.name for t in trusted)}.")
    for t in report:
        if t.state == "unusable":
            print(visible(f"  not trusted, cannot be used: {t.server.problem}"))
    print("They start when a session of this project next needs them. If anything listed above "
          "changes (the entry, an environment or header value, a file it runs), you are asked again. "
          "`foya projects trust DIR --revoke` takes it back.")
    return 0


def _confirmed() -> bool:
    return input("Trust them? [y/N] ").strip().lower() in ("y", "yes")


def _server_lines(name: str, target: str, spec: TrustSpec | None,
                  changed: tuple[Change, ...], indent: str = "  ") -> list[str]:
    """One server for a terminal: its command line or URL, everything else trust covers, and
    what changed since it was trusted (a diff for a changed file)."""
    lines = [f"{indent}{name}: {target}"]
    if spec is not None:
        lines += [f"{indent}  {line}" for line in describe(spec)[1:]]
    if changed:
        lines.append(f"{indent}  changed since you trusted it:")
        lines += [f"{indent}    {line}" for c in changed for line in change_lines(c)]
    return lines


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
                           "warnings": list(r.warnings), "fingerprint": r.fingerprint,
                           "covers": describe(r.spec) if r.spec is not None else [],
                           "changes": [line for c in r.changes for line in change_lines(c)]}
                          for r in rows], ensure_ascii=False, indent=1))
        return 0
    for scope, title in (("user", "User level"), ("project", "Project")):
        mine = [r for r in rows if r.scope == scope]
        if not mine:
            continue
        print(f"{title}:")
        for r in mine:
            if not r.name:
                print(visible(f"  problem: {r.error}"))
                continue
            lines = _server_lines(r.name, r.target, r.spec, r.changes)
            lines[0] += f"  [{r.trust}, {r.state}]"
            lines[1:1] = [f"    {r.error}"] if r.error else []
            lines += [f"    warning: {w}" for w in r.warnings]
            for line in lines:
                print(visible(line))
    if not rows:
        print("No MCP servers are configured.")
    return 0
