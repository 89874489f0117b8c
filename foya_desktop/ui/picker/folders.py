"""What the picker shows, computed without Qt: resolving typed paths, listing folders, path segments.

The listing runs on a worker thread (``asyncio.to_thread``): a folder with
100,000 entries or a stalled network mount must never freeze the window.
Every failure becomes a ``FolderError`` with a sentence fit for the dialog.

On Windows the parent of a drive root is the list of drives (``DRIVES``), so
the Parent button switches drives; there is no separate root button anywhere.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePath, PureWindowsPath

DRIVES = ""
"""The pseudo-folder above the drive roots on Windows (its entries are the drives)."""


class FolderError(Exception):
    """A folder could not be shown; the message says why in plain words.

    ``code`` and ``params`` let the dialog say it in the window's language
    (this module stays Qt-free); ``str()`` is the English sentence.
    """

    def __init__(self, text: str, code: str = "", **params: str) -> None:
        super().__init__(text)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Listing:
    """One folder as the picker shows it."""

    path: str
    """The absolute folder (``DRIVES`` for the drive list on Windows)."""
    folders: tuple[str, ...]
    """Names of the sub-folders (drive roots in the ``DRIVES`` view), sorted, hidden ones last.

    A repository's ``.git`` is left out: it is never a session's folder (the file tools keep out
    of it too), and listed it sent people into Git's internals."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One clickable piece of the compact path."""

    label: str
    """What the button reads: ``/``, ``C:\\`` or a folder name."""
    target: str
    """The folder a click loads."""


def resolve_typed(text: str, default_dir: str) -> str:
    """The absolute folder a typed path means; relative paths start at ``default_dir``.

    ``~`` expands to the home folder; ``..`` and ``.`` are folded. Symlinks are kept
    as typed (resolving them could touch a slow mount on the GUI thread).
    """
    typed = text.strip()
    if not typed:
        raise FolderError("Type a folder path, for example ~/code/project.", "empty")
    path = Path(os.path.expanduser(typed))
    if not path.is_absolute():
        path = Path(default_dir) / path
    return os.path.normpath(path)


def list_folders(path: str) -> Listing:
    """The sub-folders of ``path`` (blocking: call it through ``asyncio.to_thread``)."""
    if path == DRIVES:
        return Listing(DRIVES, tuple(_drives()))
    try:
        with os.scandir(path) as entries:
            names = [e.name for e in entries if e.name.casefold() != ".git" and _is_folder(e)]
    except FileNotFoundError:
        raise FolderError(f"{path} does not exist.", "missing", path=path) from None
    except NotADirectoryError:
        raise FolderError(f"{path} is a file, not a folder.", "file", path=path) from None
    except PermissionError:
        raise FolderError(f"Foya is not allowed to read {path}.", "denied", path=path) from None
    except OSError as error:
        reason = str(error.strerror or error)
        raise FolderError(
            f"{path} could not be read: {reason}.", "unreadable", path=path, reason=reason
        ) from None
    names.sort(key=lambda n: (n.startswith("."), n.casefold()))
    return Listing(path, tuple(names))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _drives() -> list[str]:
    listdrives = getattr(os, "listdrives", None)  # Windows, Python >= 3.12
    return list(listdrives()) if listdrives is not None else []


def child(path: str, name: str, pure: type[PurePath] = PurePath) -> str:
    """The folder ``name`` inside ``path`` (in the ``DRIVES`` view, the drive root itself)."""
    return name if path == DRIVES else str(pure(path) / name)


def parent(path: str, pure: type[PurePath] = PurePath) -> str | None:
    """The folder above ``path``; above a Windows drive root the drive list; None at ``/``."""
    if path == DRIVES:
        return None
    current = pure(path)
    if current.parent != current:
        return str(current.parent)
    return DRIVES if issubclass(pure, PureWindowsPath) or (
        pure is PurePath and os.name == "nt") else None


def segments(path: str, pure: type[PurePath] = PurePath) -> list[Segment]:
    """Every clickable piece of ``path``: the root (``/`` or the drive), then each folder."""
    if path == DRIVES:
        return [Segment("Drives", DRIVES)]
    current = pure(path)
    out: list[Segment] = []
    walked: PurePath | None = None
    for part in current.parts:
        walked = pure(part) if walked is None else walked / part
        out.append(Segment(part, str(walked)))
    return out


def display(path: str) -> str:
    """How a folder reads in the path box (``~`` is not used: the box shows what is loaded)."""
    return "Drives" if path == DRIVES else path

