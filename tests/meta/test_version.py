"""One version, in ``pyproject.toml``: ``foya --version``, ``foya_desktop.__version__`` (Help ▸ About,
exports) and the packages read it; the two records a release must also carry, CHANGELOG.md's newest
release and the AppStream metainfo's newest ``<release>``, are held to it here."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import foya_desktop
from foya_desktop import _version
from foya_desktop.resources import metainfo_template

ROOT = Path(__file__).resolve().parents[2]


def _pyproject_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def test_the_installed_version_is_pyprojects() -> None:
    # Fails after a version bump until the venv is reinstalled (python3 bootstrap.py): the metadata
    # the running Foya reads is the one pip wrote.
    assert foya_desktop.__version__ == _pyproject_version()
    done = subprocess.run([sys.executable, "-m", "foya_desktop", "--version"], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == f"foya {_pyproject_version()}"


def test_no_module_carries_a_version_literal() -> None:
    literal = re.compile(r"""^\s*(__version__|VERSION|version)\s*[:=][^=].*["']\d+\.\d+\.\d+""", re.M)
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "foya_desktop").rglob("*.py")
                 if literal.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_a_checkout_that_is_not_installed_reads_pyproject() -> None:
    script = ("import importlib.metadata as m\n"
              "def missing(name): raise m.PackageNotFoundError(name)\n"
              "m.version = missing\n"
              "import foya_desktop; print(foya_desktop.__version__)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True,
                          cwd=ROOT)
    assert done.stdout.strip() == _pyproject_version()
    assert _pyproject_version() != _version.UNKNOWN


def test_changelog_and_metainfo_name_this_version_as_the_newest_release() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog\n") and "## [Unreleased]" in changelog  # Keep a Changelog
    newest = re.search(r"^## \[(\d[^\]]*)\] - (\d{4}-\d{2}-\d{2})$", changelog, re.M)
    assert newest is not None
    release = ET.parse(metainfo_template()).getroot().find("releases/release")
    assert release is not None
    assert newest.group(1) == release.get("version") == _pyproject_version()
    assert newest.group(2) == release.get("date")
