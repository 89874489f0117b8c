"""Foya Desktop: a native desktop workbench for AI agents."""

from typing import TYPE_CHECKING

DESKTOP_ID = "io.github.foya.Foya"
"""The reverse-DNS application id: the desktop file's and metainfo's name, the hicolor icon name,
and what the window reports as its desktop file name (so docks and Wayland group its windows)."""

DIST_NAME = "foya-desktop"
"""The distribution name in ``pyproject.toml``; its ``version`` there is the only one in the tree."""

if TYPE_CHECKING:
    __version__: str
else:
    def __getattr__(name: str) -> str:
        """``__version__`` read from the installed metadata on first use.

        Why lazily: ``importlib.metadata`` is not free, and the window's first paint imports this
        package without needing a version. Why metadata and not a literal: ``pyproject.toml``
        holds the one version (wheel, bundle and .deb all take it from there; the bundle's spec
        copies the metadata in).
        """
        if name != "__version__":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from foya_desktop._version import installed_version

        return installed_version()
