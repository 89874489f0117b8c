"""How CI decides to build the bundle, the .deb and the tarball (``packaging/packages_ci.py``): a hash
of their inputs against the one recorded after the last build that passed every check. Changed
inputs (a packaging script, a dependency, the version, an icon) build; anything else skips."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))

import packages_ci

ROOT = packages_ci.ROOT


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of just the inputs (and what is not an input), to change one at a time."""
    for path in [*packages_ci.input_files(), ROOT / "pyproject.toml", ROOT / "packaging" / "README.md"]:
        target = tmp_path / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    return tmp_path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_inputs_cover_packaging_resources_and_the_entry_generator() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in packages_ci.input_files()}
    assert {"packaging/build_deb.py", "packaging/foya.spec", "foya_desktop/resources/metainfo.xml",
            "foya_desktop/cli/install_desktop.py"} <= names
    assert "packaging/README.md" not in names and "packaging/checked-inputs.sha256" not in names


def test_what_changes_the_hash_and_what_does_not(tree: Path) -> None:
    base = packages_ci.inputs(tree)
    assert packages_ci.inputs(tree) == base  # deterministic
    _edit(tree / "packaging" / "README.md", "# Packaging", "# Packaging, reworded")
    (tree / "packaging" / "__pycache__").mkdir()
    (tree / "packaging" / "__pycache__" / "x.pyc").write_bytes(b"cache")
    assert packages_ci.inputs(tree) == base  # prose and caches are not inputs
    pyproject = tree / "pyproject.toml"
    _edit(pyproject, "[tool.ruff]", "[tool.ruff]\n# a comment")
    assert packages_ci.inputs(tree) == base  # nor the linters' settings
    for path, old, new in [(pyproject, '"httpx>=0.27,<1"', '"httpx>=0.28,<1"'),
                           (pyproject, 'version = "', 'version = "9'),
                           (tree / "packaging" / "foya.spec", "console=True", "console=False"),
                           (tree / "foya_desktop" / "cli" / "install_desktop.py", "Terminal=false", "Terminal=true")]:
        before = packages_ci.inputs(tree)
        _edit(path, old, new)
        assert packages_ci.inputs(tree) != before, (path, old)


def test_record_round_trip_and_the_skip_decision(tmp_path: Path) -> None:
    record = tmp_path / "checked-inputs.sha256"
    assert packages_ci.recorded(record) is None
    packages_ci.record("ab" * 32, record)
    assert packages_ci.recorded(record) == "ab" * 32
    assert record.read_text(encoding="utf-8").startswith("# ")


@pytest.mark.parametrize("forced", [False, True])
def test_status_says_build_or_skip(forced: bool) -> None:
    env = {**os.environ, "FOYA_CI_PACKAGES": "1" if forced else "0"}
    done = subprocess.run([sys.executable, str(ROOT / "packaging" / "packages_ci.py"), "--status"],
                          capture_output=True, text=True, env=env, timeout=60, check=True)
    current, last = packages_ci.inputs(), packages_ci.recorded()
    expected = "build" if forced or current != last else "skip"
    assert done.stdout.startswith(f"packages: inputs {current[:12]}, last checked ") and f": {expected}" in done.stdout
