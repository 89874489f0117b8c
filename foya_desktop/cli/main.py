"""The ``foya`` command: the window by default, or headless commands on the
same engine and store (``connections``, ``run``, ``sessions``, ``search``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from foya_desktop.__main__ import version_line
from foya_desktop.cli.connections_cmd import add_connections_parser, connections_command
from foya_desktop.cli.doctor import add_doctor_parser, doctor_command
from foya_desktop.cli.install_desktop import add_install_desktop_parser, install_desktop_command
from foya_desktop.cli.mcp_cmd import add_mcp_parser, mcp_command
from foya_desktop.cli.memory_cmd import add_memory_parser, memory_command
from foya_desktop.cli.projects import add_projects_parser, projects_command
from foya_desktop.cli.restore_backup import add_restore_backup_parser, restore_backup_command
from foya_desktop.cli.run import read_prompt, run_command
from foya_desktop.cli.search_cmd import add_search_parser, search_command
from foya_desktop.cli.sessions_collab import add_collab_parsers, dispatch_collab
from foya_desktop.cli.sessions_ops import add_session_op_parsers, dispatch_session_op
from foya_desktop.cli.sessions_set import add_set_parser
from foya_desktop.cli.sessions_transfer import add_transfer_parsers, dispatch_transfer
from foya_desktop.cli.sessions_worktree import add_worktree_flags, add_worktree_parser, worktree_command
from foya_desktop.cli.settings import add_settings_flags, set_command
from foya_desktop.cli.status import add_status_parser, status_command
from foya_desktop.cli.usage import add_debug_parser, add_usage_parser, debug_command, usage_command
from foya_desktop.cli.views import sessions_table, show_session
from foya_desktop.cli.vps import add_vps_parser, vps_command
from foya_desktop.cli.work_cmd import add_work_parser, work_command
from foya_desktop.core.errors import FoyaError, StorageReadOnly
from foya_desktop.core.model import ApprovalMode
from foya_desktop.core.terminal import visible
from foya_desktop.engine.bootstrap import open_kernel
from foya_desktop.logging_setup import setup_logging
from foya_desktop.store.home import default_home

READ_ONLY_ACTIONS: dict[str, tuple[str | None, ...]] = {
    "sessions": ("list", "show", "export"),
    "projects": ("list", "info"),
    "connections": ("list",),
    "vps": ("list",),
    "mcp": ("list",),
    "memory": ("list",),
    "search": (None,),  # no action word: ``foya search QUERY``
}
"""``foya COMMAND ACTION`` pairs that only read: they open the database read-only (no lease, no
migration, no recovery, never the write lock), so they also work on a read-only data folder and
beside a running window."""


def build_parser() -> argparse.ArgumentParser:
    """All subcommands and options."""
    parser = argparse.ArgumentParser(prog="foya", description="Foya Desktop — a workbench for AI agents. "
                                     "With no command, opens the window (or brings the open one to "
                                     "the front); `foya FOLDER` also starts a new session in FOLDER.")
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(dest="command")
    add_connections_parser(sub.add_parser("connections", help="model connections"))
    _run_parser(sub.add_parser("run", help="run one turn headless and print the reply"))
    _sessions_parser(sub.add_parser("sessions", help="list, show, set, fork, merge, branch, rewind, …"))
    add_vps_parser(sub.add_parser("vps", help="the VP library: add, list, edit, duplicate, remove personas"))
    add_usage_parser(sub)
    add_search_parser(sub)
    add_projects_parser(sub.add_parser("projects", help="list projects, set a project's instruction, "
                                       "show the rules, skills, agents and servers a folder offers"))
    add_mcp_parser(sub.add_parser("mcp", help="MCP servers: list them, keep header secrets in the keyring"))
    add_memory_parser(sub.add_parser("memory", help="scoped memory: list, add, remove entries "
                                     "(user, vp, session-vp, session)"))
    add_work_parser(sub.add_parser("work", help="the Work Center: durable WorkItems "
                                   "(create, start, accept, send back, …)"))
    add_install_desktop_parser(sub)
    add_restore_backup_parser(sub)
    add_doctor_parser(sub)
    return parser


def _run_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("prompt", nargs="?", help="the message to send (use @Name to address VPs); "
                   "'-' reads it from standard input")
    p.add_argument("--prompt-file", metavar="FILE", help="read the message from this UTF-8 file")
    p.add_argument("--session", help="continue this session id")
    p.add_argument("--project", metavar="DIR",
                   help="bind a new session to this folder (with --session: must be its folder)")
    p.add_argument("--connection", metavar="NAME")
    p.add_argument("--model", metavar="M")
    p.add_argument("--vp", action="append", default=[], metavar="NAME",
                   help="roster of a new session (repeatable; the first is the default VP; with "
                   "--session: must match its roster)")
    p.add_argument("--approval", choices=[m.value for m in ApprovalMode],
                   help="approval mode; with no window every 'ask' is answered 'deny'")
    p.add_argument("--json", action="store_true", help="one JSON object per engine event")
    p.add_argument("--allow-broad-project", action="store_true",
                   help="accept a project at /, at the home folder or around Foya's data folder "
                        "(commands and tools can then reach nearly everything)")
    add_worktree_flags(p, "--project (or the current folder)")


def _sessions_parser(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True)
    ls = sub.add_parser("list", help="list sessions")
    ls.add_argument("--json", action="store_true")
    show = sub.add_parser("show", help="show a session's valid history")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    add_settings_flags(add_set_parser(sub))
    add_collab_parsers(sub)
    add_session_op_parsers(sub)
    add_transfer_parsers(sub)
    add_status_parser(sub)
    add_debug_parser(sub)
    add_worktree_parser(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``foya`` / ``foya-desktop`` / ``python -m foya_desktop``."""
    raw = list(argv) if argv is not None else sys.argv[1:]
    parser = build_parser()
    if raw and not raw[0].startswith("-") and raw[0] not in _commands(parser):
        if Path(raw[0]).expanduser().is_dir():  # ``foya PATH``: the window, with a session there
            from foya_desktop.app import main as app_main
            return app_main(raw)
        print(f"foya: error: {visible(raw[0])!r} is neither a command nor a folder "
              f"(see foya --help)", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    if args.command is None:
        from foya_desktop.app import main as app_main
        return app_main(list(argv) if argv is not None else sys.argv[1:])
    try:
        if args.command == "install-desktop":  # touches no database: no logging set-up, no kernel
            return install_desktop_command(args)
        if args.command == "restore-backup":  # replaces the database a kernel could not open
            return restore_backup_command(args)
        setup_logging(default_home())
        if args.command == "doctor":  # checks the database a kernel may refuse to open
            return doctor_command(args)
        return asyncio.run(_dispatch(args))
    except FoyaError as exc:
        print(f"foya: error: {visible(str(exc))}{_reading_hint(exc)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("foya: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _reader_gone()
        return 141  # 128 + SIGPIPE, what a shell reports for a tool whose reader left
    except Exception as exc:  # the last line of defence: a sentence and the log, never a traceback
        logging.getLogger("foya_desktop.cli").exception("internal error")
        print(f"foya: internal error ({type(exc).__name__}: {exc}); the details are in the log "
              f"({default_home().logs / 'foya.log'}). Please report it.", file=sys.stderr)
        return 70


def _reading_hint(exc: FoyaError) -> str:
    """A command refused for a database it cannot write is told what still works in a terminal
    (the store's sentence is also the window's, where command-line advice does not belong)."""
    if isinstance(exc, StorageReadOnly) and default_home().database.exists():
        return " Reading commands like 'foya sessions list' still work."
    return ""


def _reader_gone() -> None:
    """Standard output's reader has gone (``foya sessions list | head``): Foya stops quietly, as
    Unix tools do, instead of calling it an internal error. (Other pipes and sockets — commands'
    output, providers — are turned into tool results and provider errors where they are read, so
    a broken pipe that reaches ``main`` is standard output's.)

    NOTE: as the Python documentation advises, stdout is pointed at ``/dev/null`` so the
    interpreter's own flush at exit does not fail on the same pipe again.
    """
    logging.getLogger("foya_desktop.cli").debug("standard output closed by its reader")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    """The subcommand names (``foya WORD``)."""
    return {name for action in parser._subparsers._group_actions  # type: ignore[union-attr]
            if isinstance(action, argparse._SubParsersAction) for name in action.choices}


async def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "sessions" and args.action == "status":
        return await status_command(args)  # read-only: the store alone, no kernel
    if args.command == "sessions" and args.action == "debug":
        return await debug_command(args)
    if args.command == "usage":
        return await usage_command(args)
    if args.command == "work":
        return await work_command(args)  # its own kernel; the executor when it moves WorkItems on
    if args.command == "run":
        args.prompt = read_prompt(args)  # bad input is refused before the database is opened
    reading = getattr(args, "action", None) in READ_ONLY_ACTIONS.get(args.command, ())
    kernel = await open_kernel(read_only=reading)
    try:
        if args.command == "connections":
            return await connections_command(kernel, args)
        if args.command == "run":
            return await run_command(kernel, args)
        if args.command == "search":
            return await search_command(kernel, args)
        if args.command == "projects":
            return await projects_command(kernel, args)
        if args.command == "mcp":
            return await mcp_command(kernel, args)
        if args.command == "vps":
            return await vps_command(kernel, args)
        if args.command == "memory":
            return await memory_command(kernel, args)
        if args.action == "set":
            return await set_command(kernel, args)
        if args.action == "worktree":
            return await worktree_command(kernel, args)
        collab = await dispatch_collab(kernel, args)
        if collab is not None:
            return collab
        done = await dispatch_session_op(kernel, args)
        if done is not None:
            return done
        moved = await dispatch_transfer(kernel, args)
        if moved is not None:
            return moved
        if args.action == "list":
            listed, interrupted = await kernel.sessions.listed()
            print(visible(sessions_table(listed, as_json=args.json, interrupted=interrupted)))
            return 0
        print(visible(await show_session(kernel, args.id, as_json=args.json)))
        return 0
    finally:
        await kernel.close()


