"""A copy of the fixture repository (rules, skills, agent files, malformed ones) per test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parents[2] / "fixtures" / "project_files" / "repo"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The fixture repository, copied so a test may edit it."""
    target = tmp_path / "repo"
    shutil.copytree(FIXTURE, target)
    return target


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A data folder with a user-level rules file."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "AGENTS.md").write_text("Answer in English unless asked otherwise.\n")
    return data
