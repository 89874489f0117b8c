"""The Work Center's refusals: one sentence each, and an exit code a script can test (README
"Errors and exit codes")."""

from __future__ import annotations

from foya_desktop.core.errors import BadInput, InvalidOperation


class WorkGraphInvalid(BadInput):
    """The action graph cannot run: a cycle (other than bounded rework), an unknown dependency,
    a duplicate id or a kind that lacks what it needs."""

    exit_code = 20


class WorkUnknownVP(BadInput):
    """The roster or an action names a VP the library does not have."""

    exit_code = 21
    default_code = "work_unknown_vp"


class WorkFolderMissing(BadInput):
    """The working folder does not exist (or is not a folder)."""

    exit_code = 22


class WorkCheckRefused(BadInput):
    """A criterion's check command is refused by the command policy."""

    exit_code = 23


class WorkBusyElsewhere(InvalidOperation):
    """Another live process runs the Work Center of this data folder."""

    exit_code = 10
