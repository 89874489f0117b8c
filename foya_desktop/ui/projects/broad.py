"""The window's confirmation for a broad project folder (``/``, the home folder, around Foya's data).

The rule itself lives in the engine (``engine.broad``; the kernel refuses such
a folder unless ``allow_broad=True``); this module only asks the person, in
plain words and with Cancel as the default, before any window path binds a
session to one or registers one as a project: the New session dialog, a
folder handed over by ``foya FOLDER``, New project, Bind to a folder…, a
drag into a project, the session settings' folder and Relink. Every caller
passes the answer on as ``allow_broad``, so the kernel, not this dialog,
decides what is bound.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.confirm import ConfirmDialog, confirm

BROAD_DIALOG = "broadProjectDialog"
"""Object name of the confirmation (tests find it by this name)."""


def why_broad(kind: str, folder: str) -> str:
    """The sentence that says what the folder is and what a project there could reach (HTML)."""
    where = f"<b>{html.escape(folder)}</b>"
    if kind == "root":
        what = QCoreApplication.translate("BroadProject", "{folder} is the root of the file system.")
    elif kind == "home":
        what = QCoreApplication.translate("BroadProject", "{folder} is your home folder.")
    elif kind == "contains_home":
        what = QCoreApplication.translate("BroadProject", "{folder} contains your home folder.")
    else:
        what = QCoreApplication.translate("BroadProject", "Foya's data folder is inside {folder}.")
    if kind == "contains_data":
        reach = QCoreApplication.translate(
            "BroadProject",
            "Commands could read or change Foya's own database (your sessions and the “always "
            "allow” rules, which later sessions obey), and every other file in it.")
    else:
        reach = QCoreApplication.translate(
            "BroadProject",
            "Commands could read or change your other projects, your settings and keys, and "
            "Foya's own database (your sessions and the “always allow” rules).")
    everything = QCoreApplication.translate(
        "BroadProject", "Tools and commands may read and change everything inside a project.")
    advice = QCoreApplication.translate(
        "BroadProject",
        "Almost no confinement is left. Choose a smaller folder (the project itself) unless you "
        "really mean it.")
    return f"<p>{what.format(folder=where)}</p><p>{everything} {reach}</p><p>{advice}</p>"


async def confirm_broad(kernel: KernelApi, parent: QWidget | None, folder: str) -> bool | None:
    """Ask before binding ``folder`` when it is broad.

    Returns ``None`` when the person cancelled (bind nothing), otherwise the
    ``allow_broad`` to pass to the kernel: ``False`` for an ordinary folder
    (nothing was asked), ``True`` after an explicit confirmation.
    """
    kind = await kernel.projects.broad_folder(folder)
    if kind is None:
        return False
    dialog = ConfirmDialog(
        QCoreApplication.translate("BroadProject", "Very broad project folder"),
        QCoreApplication.translate("BroadProject", "Use {folder} as a project?").format(folder=folder),
        why_broad(kind, folder),
        QCoreApplication.translate("BroadProject", "Use it anyway"),
        destructive=True, parent=parent)
    dialog.setObjectName(BROAD_DIALOG)
    return True if await confirm(dialog) else None
