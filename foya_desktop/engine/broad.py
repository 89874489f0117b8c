"""The broad-project rule, held by the kernel (not only by the window's dialog or the CLI's flag).

A project at ``/``, at the home folder, around it, or containing Foya's data
folder puts nearly everything within reach of tools and commands (the
database with its always-allow rules, the keyring file). The kernel binds a
session to such a folder, or registers it as a project, only when the caller
says the person confirmed it explicitly (``allow_broad=True``): the window
after a clearly worded dialog, ``foya run`` with ``--allow-broad-project``.
A bug in a window path therefore cannot bind one silently.
"""

from __future__ import annotations

from pathlib import Path

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.tools.paths import BROAD_REASONS, broad_project_kind


def refuse_broad(folder: Path, data_dir: Path, *, allow_broad: bool) -> None:
    """Raise ``InvalidOperation`` (code ``broad_project``) for a broad folder not confirmed."""
    if allow_broad:
        return
    kind = broad_project_kind(folder, data_dir)
    if kind is None:
        return
    raise InvalidOperation(
        f"The project folder {folder} {BROAD_REASONS[kind]}. Tools and commands may read and change "
        "everything inside a project, so this would remove nearly all confinement; it needs an "
        "explicit confirmation (in the window, or --allow-broad-project for foya run).",
        code="broad_project", folder=str(folder), kind=kind)
