"""``foya sessions export | import``: a session as Markdown or JSON, and a JSON export back as a new session.

Export only reads (no write lock). It always prints the secrets warning to
standard error, and a file written with ``--out`` is readable by its owner only.

Import binds the new session to no folder unless the person names one:
``--project DIR``, or ``--bind-to-exported-folder`` for the folder the export
was made in (both refuse a broad folder: only ``--project DIR
--allow-broad-project`` takes one). Its approval mode is at most ``ask``.
Everything printed that comes from the file (title, folder, names in the
notes) goes through ``core.terminal.visible``, one line each.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import BadInput, InvalidOperation
from foya_desktop.core.terminal import visible
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING
from foya_desktop.engine.transfer.importing import MAX_IMPORT_BYTES
from foya_desktop.tools.paths import BROAD_REASONS


def add_transfer_parsers(sub: Any) -> None:
    """Add ``export`` and ``import`` to ``foya sessions``' subparsers."""
    ex = sub.add_parser("export", help="write a session as Markdown (to read) or JSON (to keep and import)")
    ex.add_argument("id")
    ex.add_argument("--format", choices=("md", "json"), default="md")
    ex.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    ex.add_argument("--reference-attachments", action="store_true",
                    help="JSON: name images by sha256 instead of embedding them")
    ex.add_argument("--include-debug", action="store_true",
                    help="JSON: add the session's debug traces (requests as sent; may hold secrets)")
    im = sub.add_parser("import", help="restore a JSON export as a new session (not bound to a folder "
                        "unless you name one; approval mode at most ask)")
    im.add_argument("file", help=f"a JSON export written by Foya (at most {MAX_IMPORT_BYTES // 2**20} MB)")
    where = im.add_mutually_exclusive_group()
    where.add_argument("--project", metavar="DIR", help="bind the imported session to this folder")
    where.add_argument("--bind-to-exported-folder", action="store_true",
                       help="bind it to the folder the export was made in, if that exists here "
                            "(a broad folder is refused)")
    im.add_argument("--allow-broad-project", action="store_true",
                    help="with --project: accept a folder at /, at the home folder or around Foya's "
                         "data folder (commands and tools can then reach nearly everything)")


async def dispatch_transfer(kernel: Kernel, args: argparse.Namespace) -> int | None:
    """Run ``export``/``import``; ``None`` when the action is another one."""
    if args.action == "export":
        return await _export(kernel, args)
    if args.action == "import":
        return await _import(kernel, args)
    return None


async def _export(kernel: Kernel, args: argparse.Namespace) -> int:
    text = await kernel.transfer.export_session(args.id, args.format, embed=not args.reference_attachments,
                                       include_debug=args.include_debug)
    print(f"Warning: {EXPORT_WARNING}", file=sys.stderr)
    if not args.out:
        sys.stdout.write(text)
        return 0
    await asyncio.to_thread(_write_private, Path(args.out), text)
    print(f"Exported session {args.id} as {args.format} to {args.out}", file=sys.stderr)
    return 0


def _write_private(path: Path, text: str) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise InvalidOperation(f"Cannot write {path}: {exc.strerror or exc}.") from exc


async def _import(kernel: Kernel, args: argparse.Namespace) -> int:
    if args.allow_broad_project and not args.project:
        raise BadInput("--allow-broad-project goes with --project DIR: name the folder yourself. "
                       "Nothing was imported.")
    parsed = await kernel.transfer.read_export(args.file)
    folder: str | None = args.project
    if args.bind_to_exported_folder:
        folder = await kernel.transfer.exported_folder_here(parsed)
        if folder is None:
            named = (f"names the folder {visible(repr(parsed.exported_folder), one_line=True)}, which does "
                     "not exist here") if parsed.exported_folder else "names no folder"
            raise BadInput(f"Cannot bind to the exported folder: the export {named}. Import it without a "
                           "folder, or with --project DIR. Nothing was imported.")
    try:
        result = await kernel.transfer.import_export(parsed, folder=folder,
                                                     allow_broad=bool(args.allow_broad_project))
    except InvalidOperation as exc:
        if exc.code != "broad_project":
            raise
        hint = ("pass --project DIR --allow-broad-project with the folder you mean"
                if args.bind_to_exported_folder
                else "choose a smaller folder, or pass --allow-broad-project if you really mean it")
        raise BadInput(f"The folder {visible(str(folder), one_line=True)} {_reason(exc)}. Tools and commands "
                       "may read and change everything inside a project, so this would remove nearly all "
                       f"confinement: {hint}. Nothing was imported.") from None
    session = result.session
    print(f"Imported {visible(args.file, one_line=True)} as session {session.id}: "
          f"{visible(session.title, one_line=True)}")
    where = f"folder {visible(session.workdir, one_line=True)}" if session.workdir else "no folder"
    print(f"Bound to: {where}; approval mode {session.approval_mode}.")
    for note in result.notes:
        print(f"Note: {visible(note, one_line=True)}")
    if not session.workdir and result.exported_folder:
        print("To work in a folder, import the file again with --project DIR (or --bind-to-exported-folder), "
              "or bind the session to a folder in the window.")
    return 0


def _reason(exc: InvalidOperation) -> str:
    return BROAD_REASONS.get(str(exc.params.get("kind", "")), "is too broad")
