"""Start-up stays light (issue 14, performance: start → first painted window): the real launch
(``python -m foya_desktop``, no argument) reports which modules are loaded when the window first
paints, and none of the heavy ones may be among them: the HTTP stack, the keyring and its
D-Bus backends, the shell parsers, the MCP SDK, the provider adapters, the command line's
modules, Pygments (its lexers are warmed on a worker thread after the paint), Peewee and the store
behind it, the whole engine, and asyncio/qasync themselves: the first paint is the start frame's
(``ui/start_window.py``), shown with Qt alone; everything else loads after it (``app.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from foya_desktop.app import SMOKE_ENV, SMOKE_MODULES, SMOKE_MODULES_ENV, WarmUps

NOT_BEFORE_FIRST_PAINT = (
    "httpx", "httpcore", "anyio", "h11", "keyring", "secretstorage", "jeepney", "rich", "bashlex",
    "tree_sitter", "tree_sitter_bash", "mcp", "foya_desktop.providers.openai",
    "foya_desktop.providers.anthropic", "foya_desktop.providers.http", "foya_desktop.tools.mcp.client",
    "foya_desktop.cli.main", "pygments.lexers.python", "peewee", "asyncio", "qasync",
    "dbos", "sqlalchemy", "foya_desktop.engine.work.executor",
)

NO_PACKAGE_BEFORE_FIRST_PAINT = (
    "foya_desktop.engine", "foya_desktop.providers", "foya_desktop.tools", "foya_desktop.cli", "pygments",
    "httpx", "keyring", "peewee", "playhouse",
)
"""Packages none of whose modules may be loaded at the first paint."""


def test_heavy_modules_load_after_the_first_paint(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_HOME": str(tmp_path / "home"),
           SMOKE_ENV: "0", SMOKE_MODULES_ENV: "1"}
    done = subprocess.run([sys.executable, "-m", "foya_desktop"], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    line = next((x for x in done.stdout.splitlines() if x.startswith(SMOKE_MODULES)), None)
    assert line is not None, done.stdout
    loaded = set(line.removeprefix(SMOKE_MODULES).split())
    assert "foya_desktop.ui.start_window" in loaded  # the report is the window's, not an empty list
    assert sorted(m for m in NOT_BEFORE_FIRST_PAINT if m in loaded) == []
    early = sorted(m for m in loaded if any(m == p or m.startswith(p + ".") for p in NO_PACKAGE_BEFORE_FIRST_PAINT))
    assert early == []
    assert "foya_desktop.ui.main_window" not in loaded and "foya_desktop.store.store" not in loaded


def test_the_warm_up_after_start_loads_the_http_stack() -> None:
    """What the first message sent would otherwise import, part of it on the GUI thread (issue
    14): ``app._run`` starts this on a worker thread once the sessions are listed."""
    script = ("import sys; from foya_desktop.app import warm_up_providers; warm_up_providers(); "
              "print(' '.join(m for m in ('httpx', 'httpcore', 'h11', 'anyio._backends._asyncio', "
              "'foya_desktop.providers.openai', 'foya_desktop.providers.anthropic') if m not in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""  # none missing


async def test_warm_ups_run_off_the_loop_and_a_failure_costs_nothing() -> None:
    ran: list[str] = []

    def ok() -> None:
        ran.append(threading.current_thread().name)

    def broken() -> None:
        raise RuntimeError("no lexers here")

    warm = WarmUps()
    warm.start(broken)
    warm.start(ok)
    await warm.finish()  # does not raise
    assert len(ran) == 1 and ran[0] != threading.main_thread().name
