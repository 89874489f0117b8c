"""``foya sessions export | import``: a session as Markdown or JSON, and a JSON export back as a new session.

Export only reads (no write lock). It always prints the secrets warning to
standard error, and a file written with ``--out`` is readable by its owner only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING


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
    im = sub.add_parser("import", help="restore a JSON export as a new session")
    im.add_argument("file")


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
    text = await asyncio.to_thread(_read, Path(args.file))
    result = await kernel.transfer.import_session(text)
    print(f"Imported {args.file} as session {result.session.id}: {result.session.title}")
    for note in result.notes:
        print(f"Note: {note}")
    return 0


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidOperation(f"Cannot import {path}: there is no such file. "
                               "Nothing was imported.") from None
    except UnicodeDecodeError:
        raise InvalidOperation(f"Cannot import {path}: it is not UTF-8 text (a JSON export is). "
                               "Nothing was imported.") from None
    except OSError as exc:
        raise InvalidOperation(f"Cannot import {path}: {exc.strerror or exc}. "
                               "Nothing was imported.") from None
