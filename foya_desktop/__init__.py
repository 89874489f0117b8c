"""Foya Desktop: a native desktop workbench for AI agents."""

__version__ = "0.1.0"

DESKTOP_ID = "io.github.foya.Foya"
"""The reverse-DNS application id: the desktop file's and metainfo's name, the hicolor icon name,
and what the window reports as its desktop file name (so docks and Wayland group its windows)."""
