"""Foya Desktop: a native desktop workbench for AI agents."""

__version__ = "0.1.0"
