"""``resolve_inside`` and the descriptor-walking opens: what is accepted, and the races."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from foya_desktop.core.errors import PathOutsideProject, ToolError
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.fdwalk import open_resolved
from foya_desktop.tools.paths import (
    is_protected,
    is_secret_looking,
    open_dir_inside,
    open_inside,
    read_bytes_inside,
    resolve_inside,
    write_bytes_inside,
)
from foya_desktop.tools.registry import default_tools


@pytest.fixture
def root(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    (proj / "sub").mkdir(parents=True)
    (proj / "sub" / "file.txt").write_text("inside\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "file.txt").write_text("outside\n")
    return proj


@pytest.mark.parametrize("path", ["sub/file.txt", "./sub/file.txt", "sub/../sub/file.txt", "sub/",
                                  ".", "new/deeper/file.txt", "Foo$Bar.class", "a~b", "weird name.txt",
                                  "sub/./file.txt", "\u4f60\u597d.txt"])
def test_paths_inside_resolve(root: Path, path: str) -> None:
    resolved = resolve_inside(root, path)
    assert resolved.is_relative_to(root.resolve())


def test_absolute_path_inside_is_accepted(root: Path) -> None:
    assert resolve_inside(root, str(root / "sub" / "file.txt")) == (root / "sub" / "file.txt").resolve()


def test_symlink_inside_pointing_inside_resolves_to_target(root: Path) -> None:
    os.symlink("sub/file.txt", root / "alias")
    assert resolve_inside(root, "alias") == (root / "sub" / "file.txt").resolve()


def test_root_given_through_a_symlink(root: Path, tmp_path: Path) -> None:
    os.symlink(root, tmp_path / "proj_alias")
    assert resolve_inside(tmp_path / "proj_alias", "sub/file.txt") == (root / "sub" / "file.txt").resolve()


def test_missing_root_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="does not exist"):
        resolve_inside(tmp_path / "nope", "x")


@pytest.mark.parametrize("bad", ["", None, 5])
def test_bad_path_values(root: Path, bad: object) -> None:
    with pytest.raises(ToolError):
        resolve_inside(root, bad)  # type: ignore[arg-type]


def test_writing_the_root_itself_is_refused(root: Path) -> None:
    with pytest.raises(ToolError):
        resolve_inside(root, ".", for_write=True)


def test_write_creates_parents_inside(root: Path) -> None:
    write_bytes_inside(root, "a/b/c.txt", b"data")
    assert (root / "a" / "b" / "c.txt").read_bytes() == b"data"
    assert read_bytes_inside(root, "a/b/c.txt") == b"data"
    assert read_bytes_inside(root, "a/b/c.txt", limit=2) == b"da"


def test_write_refuses_hardlink_that_appears_after_the_check(root: Path, tmp_path: Path) -> None:
    resolved = resolve_inside(root, "linked.txt", for_write=True)
    os.link(tmp_path / "outside" / "file.txt", root / "linked.txt")
    with pytest.raises(PathOutsideProject, match="hard links"):
        open_resolved(root.resolve(), resolved, "wb")
    assert (tmp_path / "outside" / "file.txt").read_text() == "outside\n"


def _swap_for_symlink(folder: Path, target: Path) -> None:
    folder.rename(folder.with_name(folder.name + "_moved"))
    os.symlink(target, folder)


def test_race_folder_swapped_for_symlink_after_resolve_read(root: Path, tmp_path: Path) -> None:
    resolved = resolve_inside(root, "sub/file.txt")
    _swap_for_symlink(root / "sub", tmp_path / "outside")
    with pytest.raises(PathOutsideProject, match="symbolic link"):
        open_resolved(root.resolve(), resolved, "rb")


def test_race_folder_swapped_for_symlink_after_resolve_write(root: Path, tmp_path: Path) -> None:
    resolved = resolve_inside(root, "sub/new.txt", for_write=True)
    _swap_for_symlink(root / "sub", tmp_path / "outside")
    with pytest.raises(PathOutsideProject):
        open_resolved(root.resolve(), resolved, "wb")
    assert not (tmp_path / "outside" / "new.txt").exists()


def test_race_file_swapped_for_symlink(root: Path, tmp_path: Path) -> None:
    resolved = resolve_inside(root, "sub/file.txt", for_write=True)
    (root / "sub" / "file.txt").unlink()
    os.symlink(tmp_path / "outside" / "file.txt", root / "sub" / "file.txt")
    with pytest.raises(PathOutsideProject):
        open_resolved(root.resolve(), resolved, "wb")
    assert (tmp_path / "outside" / "file.txt").read_text() == "outside\n"


async def test_race_between_plan_and_run_of_write_file(root: Path, tmp_path: Path) -> None:
    ctx = ToolContext(session_id="s", workdir=root, data_dir=tmp_path / "data")
    tool = default_tools()["write_file"]
    args = {"path": "sub/planted.txt", "content": "x"}
    tool.plan(args, ctx)
    _swap_for_symlink(root / "sub", tmp_path / "outside")
    result = await tool.run(args, ctx)
    assert result.is_error
    assert not (tmp_path / "outside" / "planted.txt").exists()


def test_open_inside_modes(root: Path) -> None:
    with open_inside(root, "sub/file.txt") as fh:
        assert fh.read() == b"inside\n"
    with pytest.raises(ValueError, match="mode"):
        open_inside(root, "sub/file.txt", "r+")


def test_fifo_is_refused_without_blocking(root: Path) -> None:
    os.mkfifo(root / "pipe")
    with pytest.raises(ToolError, match="regular"):
        read_bytes_inside(root, "pipe")


def test_open_dir_inside_returns_descriptor(root: Path) -> None:
    fd = open_dir_inside(root, "sub")
    try:
        assert "file.txt" in os.listdir(fd)
    finally:
        os.close(fd)


@pytest.mark.parametrize(("rel", "expected"), [
    (".git", True), (".git/config", True), ("sub/.git/HEAD", True), (".GIT/x", True),
    ("data", True), ("data/foya.db", True), ("src/git.py", False), (".gitignore", False),
    (".github/workflows/ci.yml", False), ("README.md", False),
])
def test_is_protected(tmp_path: Path, rel: str, expected: bool) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert is_protected(root, root.resolve() / rel, root / "data") is expected


def test_data_dir_outside_root_is_protected_too(tmp_path: Path) -> None:
    assert is_protected(tmp_path / "proj", tmp_path / "data" / "x", tmp_path / "data")


@pytest.mark.parametrize("name", [".env", ".env.local", ".env.production", "prod.env", "id_rsa", "id_ed25519",
                                  "server.key", "cert.pem", "store.p12", ".npmrc", ".netrc", ".pypirc",
                                  ".git-credentials", "home/.ssh/config", ".aws/credentials", "a.pfx"])
def test_secret_looking(name: str) -> None:
    assert is_secret_looking(name)


@pytest.mark.parametrize("name", [".env.example", ".env.sample", "id_rsa.pub", "README.md", "keys.py",
                                  "environment.yml", "src/env.py", "monkey.txt", "docs/pem.md"])
def test_not_secret_looking(name: str) -> None:
    assert not is_secret_looking(name)
