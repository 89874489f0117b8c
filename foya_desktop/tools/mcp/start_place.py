"""Where a stdio MCP server starts, and the ``PATH`` it is found and run with.

A project server (``.mcp.json``) starts in the project folder: the person trusted it for that
project, and its trust covers the project files its command runs (``run_files``).

A user-level server (``mcp.json`` in Foya's data folder, "MCP servers" in the README) needs no
trust, so nothing of the project may decide what it runs. Programs look up what they run in
their working folder, so it never starts in the project:

- ``npx`` (npm 7 and later, ``npm exec``) runs ``node_modules/.bin/<name>`` from the working
  folder *or any folder above it* before the installed or downloaded package, and takes the
  nearest folder above with a ``package.json`` or ``node_modules`` as the local project, whose
  ``.npmrc`` (a registry, a script shell) it obeys;
- ``python -m foo`` imports ``foo.py`` from the working folder before any installed ``foo``;
  ``uvx``/``uv`` read ``uv.toml`` and ``pyproject.toml`` from it and the folders above;
- a relative ``PATH`` entry (``.``, ``bin``, ``node_modules/.bin``) is looked up from the
  working folder, Foya's (often the project when ``foya`` runs from a terminal) or the server's.

So a user-level server starts in Foya's data folder — which file tools and confined commands
cannot write, and which a project contains only when the person confirmed it as a broad
project — or in the folder its entry names as ``"cwd"`` (``${VAR}`` and ``~`` expanded, relative
to the data folder). Its ``PATH`` keeps absolute entries outside the project only. A project
entry's ``"cwd"`` is ignored (``config`` warns): trust does not cover it.
"""

from __future__ import annotations

import os
from pathlib import Path

from foya_desktop.tools.mcp.config import Scope


def start_folder(scope: Scope, cwd: str, project_dir: Path, data_dir: Path) -> Path:
    """The working folder of a server of ``scope`` whose entry names ``cwd`` (expanded; ``""``: none)."""
    if scope == "project":
        return project_dir
    return data_dir / Path(cwd).expanduser() if cwd else data_dir


def start_path(scope: Scope, path: str, project_dir: Path) -> str:
    """``path`` as a server of ``scope`` gets it: a user-level one without relative entries and
    without entries inside the project."""
    if scope == "project":
        return path
    project = Path(os.path.realpath(project_dir))
    return os.pathsep.join(p for p in path.split(os.pathsep)
                           if os.path.isabs(p) and not Path(os.path.realpath(p)).is_relative_to(project))
