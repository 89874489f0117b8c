"""``foya connections add|list|remove``: the model connections, as a table or as JSON.

The key is asked for only with ``--ask-key``; a closed standard input or Ctrl+D at
the prompt ends with a sentence and saves nothing (docs/getting-started.md "Add a model connection").
"""

from __future__ import annotations

import argparse
import getpass
import json

from foya_desktop.core.errors import BadInput
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.core.terminal import visible
from foya_desktop.engine.kernel import Kernel


def add_connections_parser(p: argparse.ArgumentParser) -> None:
    """The ``connections`` subcommands and their options."""
    sub = p.add_subparsers(dest="action", required=True)
    add = sub.add_parser("add", help="add or replace a connection")
    add.add_argument("name")
    add.add_argument("--kind", choices=[k.value for k in ProviderKind], required=True)
    add.add_argument("--base-url", required=True, help="e.g. https://api.openai.com/v1")
    add.add_argument("--model", default="", help="default model for this connection")
    add.add_argument("--api-key-env", default="", metavar="VAR",
                     help="read the API key from this environment variable at run time")
    add.add_argument("--ask-key", action="store_true",
                     help="prompt for the API key and store it in the OS keyring")
    add.add_argument("--context-window", type=int, default=128_000)
    listing = sub.add_parser("list", help="list connections (a table; --json for scripts)")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    rm = sub.add_parser("remove", help="remove a connection (and its keyring entry)")
    rm.add_argument("name")


def ask_key(name: str) -> str:
    """The key typed at the prompt; no input at all (closed stdin, Ctrl+D) or an empty line is
    refused with a sentence instead of ending in ``EOFError``."""
    try:
        key = getpass.getpass(f"API key for {name}: ")
    except EOFError:
        raise BadInput("No API key was entered (standard input is closed); nothing was saved. "
                       "Run the command in a terminal, or use --api-key-env VAR.") from None
    if not key.strip():
        raise BadInput("The API key is empty; nothing was saved.")
    return key.strip()


async def connections_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Run one ``connections`` subcommand."""
    if args.action == "add":
        key = ask_key(args.name) if args.ask_key else None
        conn = Connection(args.name, ProviderKind(args.kind), args.base_url, args.model,
                          args.api_key_env, args.context_window)
        await kernel.connections.add_connection(conn, key)
        print(visible(f"Saved connection {args.name}" + (" (key in the OS keyring)" if key else "")))
    elif args.action == "list":
        print(visible(connections_table(await kernel.connections.list_connections(), as_json=args.json)))
    else:
        await kernel.connections.remove_connection(args.name)
        print(visible(f"Removed connection {args.name}"))
    return 0


def _key_source(c: Connection) -> str:
    return f"${c.api_key_env}" if c.api_key_env else "keyring or none"


def connections_table(connections: list[Connection], *, as_json: bool) -> str:
    """Aligned columns like ``sessions list``, or a JSON array (never the key itself)."""
    if as_json:
        return json.dumps([{"name": c.name, "kind": str(c.kind), "base_url": c.base_url, "model": c.model,
                            "key": _key_source(c), "context_window": c.context_window}
                           for c in connections], ensure_ascii=False, indent=1)
    if not connections:
        return ("No connections yet. Add one with: foya connections add NAME --kind openai "
                "--base-url URL --model MODEL")
    rows = [("NAME", "KIND", "MODEL", "KEY", "BASE URL")]
    rows += [(c.name, str(c.kind), c.model or "-", _key_source(c), c.base_url) for c in connections]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r[:4], widths, strict=True)) + "  " + r[4]
                     for r in rows)
