"""``dbos`` (and SQLAlchemy under it) load only for ``foya work`` commands that run the executor:
never for the CLI's other commands, nor for reading WorkItems. (The window's first paint is
guarded by ``tests/ui/test_startup_imports.py``.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("dbos", "sqlalchemy", "foya_desktop.engine.work.executor")


def _loaded_after(home: Path, *argv: str) -> list[str]:
    script = ("import sys\nfrom foya_desktop.cli.main import main\n"
              f"code = main({list(argv)!r})\n"
              f"print('LOADED', ' '.join(m for m in {HEAVY!r} if m in sys.modules))\n")
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    line = next(x for x in done.stdout.splitlines() if x.startswith("LOADED"))
    return line.split()[1:]


@pytest.mark.parametrize("argv", [("sessions", "list"), ("vps", "list"), ("work", "list"), ("usage",)])
def test_commands_that_run_no_workitem_do_not_import_dbos(tmp_path: Path, argv: tuple[str, ...]) -> None:
    assert _loaded_after(tmp_path / "home", *argv) == []


def test_the_executor_imports_it(tmp_path: Path) -> None:
    """The control: the check above can see ``dbos`` when it is loaded (``work start`` of an unknown
    id fails only after importing the executor)."""
    assert _loaded_after(tmp_path / "home", "work", "start", "work_nope") == list(HEAVY)
