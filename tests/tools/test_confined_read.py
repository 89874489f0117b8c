"""The confined reader of the files Foya loads by itself (``tools.confined_read``).

Project files: the file tools' confinement (no link leaving the root, no hard link, regular files
only, no pseudo-files, git internals, data folder or secret-looking targets, a size cap). The
person's own files: links and hard links anywhere, but still regular files, no pseudo-files, no
secret-looking targets, the size cap, and never a hang on a FIFO.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from foya_desktop.tools.confined_read import (
    OWN,
    Confinement,
    Refused,
    check_file,
    check_folder,
    read_bytes,
    read_text,
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "AGENTS.md").write_text("inside rules\n")
    (tmp_path / "outside.txt").write_text("OUTSIDE\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "SKILL.md").write_text("OUTSIDE SKILL\n")
    return proj


def _refusal(path: Path | str, where: Confinement, limit: int = 1_000_000) -> Refused:
    with pytest.raises(Refused) as caught:
        read_bytes(path, where, limit=limit)
    assert str(caught.value).startswith("refused: ")
    return caught.value


def test_plain_files_and_links_that_stay_inside_are_read(root: Path) -> None:
    where = Confinement(root)
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / "docs").mkdir()
    (root / "linked-docs").symlink_to("docs")
    (root / "docs" / "x.md").write_text("docs\n")
    assert read_text(root / "AGENTS.md", where) == "inside rules\n"
    assert read_text(root / "CLAUDE.md", where) == "inside rules\n"
    assert read_text(root / "linked-docs" / "x.md", where) == "docs\n"
    assert read_text("AGENTS.md", where) == "inside rules\n"


def test_missing_files_are_none_not_refusals(root: Path) -> None:
    where = Confinement(root)
    (root / "dangling.md").symlink_to("nothing-here.md")
    assert check_file(root / "nope.md", where) is None
    assert check_file(root / "dangling.md", where) is None
    with pytest.raises(FileNotFoundError):
        read_bytes(root / "nope.md", where)


def test_a_symbolic_link_leaving_the_root_is_refused(root: Path) -> None:
    where = Confinement(root)
    (root / "AGENTS.md").unlink()
    (root / "AGENTS.md").symlink_to(root.parent / "outside.txt")
    refused = _refusal(root / "AGENTS.md", where)
    assert refused.kind == "outside" and "symbolic link leaving the project" in refused.reason
    assert str(root.parent / "outside.txt") in refused.reason
    (root / ".claude").mkdir()
    (root / ".claude" / "skills").symlink_to(root.parent / "outside")
    assert _refusal(root / ".claude" / "skills" / "SKILL.md", where).kind == "outside"
    with pytest.raises(Refused):
        check_folder(root / ".claude" / "skills", where)


def test_paths_outside_the_root_are_refused_however_written(root: Path) -> None:
    where = Confinement(root, label="the skill's folder")
    for given in ("../outside.txt", str(root.parent / "outside.txt"), "$HOME/x", "~/x"):
        refused = _refusal(given, where)
        assert refused.kind in ("outside", "bad_name"), given
    assert "lies outside the skill's folder" in _refusal("../outside.txt", where).reason


def test_a_hard_link_is_refused(root: Path) -> None:
    os.link(root.parent / "outside.txt", root / "CLAUDE.md")
    refused = _refusal(root / "CLAUDE.md", Confinement(root))
    assert refused.kind == "hard_link" and "hard link" in refused.reason and "2 names" in refused.reason


def test_pseudo_files_are_refused_even_for_the_persons_own_files(root: Path, tmp_path: Path) -> None:
    (root / "AGENTS.md").unlink()
    (root / "AGENTS.md").symlink_to("/proc/self/environ")
    own = tmp_path / "data" / "AGENTS.md"
    own.parent.mkdir()
    own.symlink_to("/proc/self/environ")
    for path, where in ((root / "AGENTS.md", Confinement(root)), (own, OWN)):
        refused = _refusal(path, where)
        assert refused.kind == "system_file" and "pseudo-file" in refused.reason


def test_fifos_and_folders_are_not_regular_files_and_never_hang(root: Path, tmp_path: Path) -> None:
    os.mkfifo(root / "pipe.md")
    (root / "folder.md").mkdir()
    own = tmp_path / "own-pipe"
    os.mkfifo(own)
    assert _refusal(root / "pipe.md", Confinement(root)).kind == "not_regular"
    assert _refusal(root / "folder.md", Confinement(root)).kind == "not_regular"
    assert _refusal(own, OWN).kind == "not_regular"


def test_files_over_the_cap_are_refused(root: Path) -> None:
    (root / "big.md").write_text("x" * 101)
    refused = _refusal(root / "big.md", Confinement(root), limit=100)
    assert refused.kind == "too_large" and "101 bytes; at most 100" in refused.reason
    assert read_bytes(root / "big.md", Confinement(root), limit=101) == b"x" * 101


def test_git_internals_the_data_folder_and_secret_looking_targets_are_refused(root: Path,
                                                                            tmp_path: Path) -> None:
    data = root / "foya-data"
    data.mkdir()
    (data / "mcp.json").write_text("{}")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    (root / ".env").write_text("TOKEN=x\n")
    where = Confinement(root, data)
    for name, target in (("a.md", ".git/config"), ("b.md", "foya-data/mcp.json")):
        (root / name).symlink_to(target)
        assert _refusal(root / name, where).kind == "protected", name
    (root / "c.md").symlink_to(".env")
    assert _refusal(root / "c.md", where).kind == "secret"
    own = tmp_path / "own.md"
    own.symlink_to(root / ".env")
    assert _refusal(own, OWN).kind == "secret"


def test_the_persons_own_files_may_be_links_and_hard_links(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "AGENTS.md").write_text("my rules\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "AGENTS.md").symlink_to(dotfiles / "AGENTS.md")
    os.link(dotfiles / "AGENTS.md", data / "hard.md")
    assert read_text(data / "AGENTS.md", OWN) == "my rules\n"
    assert read_text(data / "hard.md", OWN) == "my rules\n"
    (data / "skills").symlink_to(dotfiles)
    assert check_folder(data / "skills", OWN) == dotfiles


def test_a_missing_root_has_no_files(tmp_path: Path) -> None:
    gone = Confinement(tmp_path / "gone")
    assert check_file(tmp_path / "gone" / "AGENTS.md", gone) is None
    assert check_folder(tmp_path / "gone" / ".claude", gone) is None
