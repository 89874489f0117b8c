"""The version this installation reports (``foya --version``, Help ▸ About, exports).

``pyproject.toml`` holds the only version literal. An installed Foya (wheel,
editable checkout, PyInstaller bundle with its copied metadata) reads it from
the distribution's metadata; a checkout imported without being installed reads
``pyproject.toml`` itself, so it never reports a version it is not.
"""

from __future__ import annotations

import functools
from importlib import metadata
from pathlib import Path

from foya_desktop import DIST_NAME

UNKNOWN = "0+unknown"


@functools.cache
def installed_version() -> str:
    """The version from the metadata, else the checkout's ``pyproject.toml``, else :data:`UNKNOWN`."""
    try:
        return metadata.version(DIST_NAME)
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        import tomllib

        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    except (OSError, ValueError):
        return UNKNOWN
    version = project.get("version") if project.get("name") == DIST_NAME else None
    return version if isinstance(version, str) else UNKNOWN
