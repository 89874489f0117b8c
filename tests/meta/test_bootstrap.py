"""``bootstrap.py``, the README's first command: it finds Python >= 3.12 where a newcomer's
machine has one (even when ``python3`` is 3.11 and 3.12 is only under pyenv), and says in one
sentence what to install when there is none (issue 13, "Install and launch")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BOOTSTRAP = Path(__file__).resolve().parents[2] / "bootstrap.py"


def _old_python() -> str:
    """A Python below 3.12 to run the script with, as a stock Debian 12 would (else this one)."""
    for name in ("python3.11", "/usr/bin/python3"):
        path = shutil.which(name)
        if not path:
            continue
        probe = subprocess.run([path, "-c", "import sys; print(sys.executable); sys.exit(sys.version_info >= (3, 12))"],
                               capture_output=True, text=True, check=False)
        if probe.returncode == 0:
            return probe.stdout.strip()  # the real interpreter, not a pyenv shim script
    return sys.executable


def test_finds_a_suitable_python_even_when_python3_is_older() -> None:
    out = subprocess.run([_old_python(), str(BOOTSTRAP), "--print-python"], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    found = out.stdout.strip()
    version = subprocess.run([found, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                             capture_output=True, text=True, check=True)
    assert version.stdout.strip() == "True"


def test_no_suitable_python_is_one_sentence_with_what_to_install(tmp_path: Path) -> None:
    old = _old_python()
    if subprocess.run([old, "-c", "import sys; sys.exit(sys.version_info >= (3, 12))"], check=False).returncode:
        pytest.skip("no Python below 3.12 on this machine to play the stock interpreter")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(old)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "PYENV_ROOT": str(tmp_path / "pyenv")}
    out = subprocess.run([old, str(BOOTSTRAP), "--print-python"], capture_output=True, text=True, env=env,
                         timeout=120, check=False, cwd=tmp_path)
    assert out.returncode == 1
    assert "needs Python 3.12 or newer" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / ".venv").exists()
    assert os.listdir(tmp_path) == ["bin"]
