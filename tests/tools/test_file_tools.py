"""The file tools doing their ordinary work inside a project."""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.errors import ToolError
from foya_desktop.tools import files
from foya_desktop.tools.base import FileChange, ToolContext
from foya_desktop.tools.registry import default_tools
from tests.tools.world import png_bytes

TOOLS = default_tools()


def root_of(ctx: ToolContext) -> Path:
    return ctx.workdir


# --- read_file --------------------------------------------------------------------------------

async def test_read_file_numbers_lines(project: ToolContext) -> None:
    out = await TOOLS["read_file"].run({"path": "README.md"}, project)
    assert not out.is_error
    assert out.content.splitlines() == ["     1\tline one", "     2\tline two", "     3\tline three"]


async def test_read_file_window_and_continuation_note(project: ToolContext) -> None:
    (root_of(project) / "long.txt").write_text("".join(f"row {i}\n" for i in range(1, 101)))
    out = await TOOLS["read_file"].run({"path": "long.txt", "offset": 10, "limit": 5}, project)
    lines = out.content.splitlines()
    assert lines[0] == "    10\trow 10"
    assert lines[4] == "    14\trow 14"
    assert "offset=15" in lines[-1]


async def test_read_file_caps_output(project: ToolContext) -> None:
    (root_of(project) / "big.txt").write_text(("x" * 1000 + "\n") * 500)
    out = await TOOLS["read_file"].run({"path": "big.txt"}, project)
    assert len(out.content) < files.MAX_READ_CHARS + 2000
    assert "output limit" in out.content
    assert "offset=" in out.content


async def test_read_file_truncates_long_lines(project: ToolContext) -> None:
    (root_of(project) / "wide.txt").write_text("y" * 5000)
    out = await TOOLS["read_file"].run({"path": "wide.txt"}, project)
    assert "[line truncated]" in out.content


async def test_read_file_past_the_end_and_empty(project: ToolContext) -> None:
    (root_of(project) / "empty.txt").write_text("")
    assert "empty file" in (await TOOLS["read_file"].run({"path": "empty.txt"}, project)).content
    out = await TOOLS["read_file"].run({"path": "README.md", "offset": 50}, project)
    assert "fewer than 50" in out.content


async def test_read_file_refuses_binary_and_suggests_view_image(project: ToolContext) -> None:
    (root_of(project) / "blob.bin").write_bytes(b"\x00\x01\x02binary")
    (root_of(project) / "pic.png").write_bytes(png_bytes())
    binary = await TOOLS["read_file"].run({"path": "blob.bin"}, project)
    image = await TOOLS["read_file"].run({"path": "pic.png"}, project)
    assert binary.is_error
    assert "binary" in binary.content
    assert image.is_error
    assert "view_image" in image.content


async def test_read_missing_file_is_an_error_result(project: ToolContext) -> None:
    out = await TOOLS["read_file"].run({"path": "nope.txt"}, project)
    assert out.is_error
    assert "does not exist" in out.content


@pytest.mark.parametrize("args", [{}, {"path": 3}, {"path": "README.md", "offset": 0},
                                  {"path": "README.md", "limit": "ten"},
                                  {"path": "README.md", "offset": True}])
def test_read_file_plan_rejects_bad_arguments(project: ToolContext, args: dict[str, object]) -> None:
    with pytest.raises(ToolError):
        TOOLS["read_file"].plan(args, project)


def test_read_file_plan_marks_secrets_sensitive(project: ToolContext) -> None:
    (root_of(project) / ".env").write_text("KEY=1\n")
    assert TOOLS["read_file"].plan({"path": ".env"}, project).sensitive
    plan = TOOLS["read_file"].plan({"path": "README.md"}, project)
    assert plan.kind == "read"
    assert not plan.sensitive
    assert plan.paths == (root_of(project).resolve() / "README.md",)


# --- list_dir ---------------------------------------------------------------------------------

async def test_list_dir_sorted_with_markers(project: ToolContext) -> None:
    out = await TOOLS["list_dir"].run({"path": "."}, project)
    assert out.content.splitlines()[1:] == ["README.md", "src/"]


async def test_list_dir_caps_entries(project: ToolContext) -> None:
    many = root_of(project) / "many"
    many.mkdir()
    for i in range(files.MAX_DIR_ENTRIES + 5):
        (many / f"f{i:05}").touch()
    out = await TOOLS["list_dir"].run({"path": "many"}, project)
    assert "5 more entries not shown" in out.content


async def test_list_dir_on_a_file_is_an_error(project: ToolContext) -> None:
    assert (await TOOLS["list_dir"].run({"path": "README.md"}, project)).is_error


# --- write_file -------------------------------------------------------------------------------

async def test_write_file_creates_parents_and_reports_change(project: ToolContext) -> None:
    plan = TOOLS["write_file"].plan({"path": "new/dir/x.txt", "content": "hi\n"}, project)
    assert plan.kind == "write"
    assert "+hi" in plan.diff
    assert "/dev/null" in plan.diff
    assert not (root_of(project) / "new").exists(), "plan must not touch the disk"
    out = await TOOLS["write_file"].run({"path": "new/dir/x.txt", "content": "hi\n"}, project)
    assert not out.is_error
    assert (root_of(project) / "new" / "dir" / "x.txt").read_text() == "hi\n"
    assert out.changes == (FileChange("new/dir/x.txt", None, b"hi\n"),)


async def test_write_file_overwrite_keeps_before_bytes(project: ToolContext) -> None:
    out = await TOOLS["write_file"].run({"path": "README.md", "content": "new\n"}, project)
    assert out.changes[0].before == b"line one\nline two\nline three\n"
    assert out.changes[0].after == b"new\n"


async def test_write_file_absolute_path_inside(project: ToolContext) -> None:
    target = root_of(project) / "abs.txt"
    out = await TOOLS["write_file"].run({"path": str(target), "content": "a"}, project)
    assert not out.is_error
    assert target.read_text() == "a"
    assert out.changes[0].path == "abs.txt"


async def test_write_file_onto_folder_is_refused(project: ToolContext) -> None:
    with pytest.raises(ToolError, match="folder"):
        TOOLS["write_file"].plan({"path": "src", "content": "x"}, project)


# --- edit_file --------------------------------------------------------------------------------

async def test_edit_file_replaces_unique_match(project: ToolContext) -> None:
    args = {"path": "src/app.py", "old_string": "return 1", "new_string": "return 2"}
    plan = TOOLS["edit_file"].plan(args, project)
    assert "-    return 1" in plan.diff
    assert "+    return 2" in plan.diff
    out = await TOOLS["edit_file"].run(args, project)
    assert (root_of(project) / "src" / "app.py").read_text() == "def main():\n    return 2\n"
    assert out.changes[0].before == b"def main():\n    return 1\n"


def test_edit_file_missing_match_fails_clearly(project: ToolContext) -> None:
    with pytest.raises(ToolError, match="not found"):
        TOOLS["edit_file"].plan({"path": "README.md", "old_string": "nope", "new_string": "x"}, project)


async def test_edit_file_ambiguous_match_needs_replace_all(project: ToolContext) -> None:
    args = {"path": "README.md", "old_string": "line", "new_string": "row"}
    with pytest.raises(ToolError, match="3 times"):
        TOOLS["edit_file"].plan(args, project)
    out = await TOOLS["edit_file"].run(args, project)
    assert out.is_error
    assert "replace_all" in out.content
    out = await TOOLS["edit_file"].run({**args, "replace_all": True}, project)
    assert not out.is_error
    assert "3 occurrences" in out.content
    assert (root_of(project) / "README.md").read_text() == "row one\nrow two\nrow three\n"


async def test_edit_file_crlf_file_with_lf_old_string(project: ToolContext) -> None:
    (root_of(project) / "win.txt").write_bytes(b"a\r\nb\r\nc\r\n")
    out = await TOOLS["edit_file"].run({"path": "win.txt", "old_string": "a\nb", "new_string": "x\ny"},
                                       project)
    assert not out.is_error
    assert (root_of(project) / "win.txt").read_bytes() == b"x\r\ny\r\nc\r\n"


@pytest.mark.parametrize(("old", "new", "message"), [("", "x", "empty"), ("line", "line", "same")])
def test_edit_file_rejects_useless_edits(project: ToolContext, old: str, new: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        TOOLS["edit_file"].plan({"path": "README.md", "old_string": old, "new_string": new}, project)


def test_edit_file_missing_or_binary_file(project: ToolContext) -> None:
    (root_of(project) / "b.bin").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ToolError, match="does not exist"):
        TOOLS["edit_file"].plan({"path": "none.txt", "old_string": "a", "new_string": "b"}, project)
    with pytest.raises(ToolError, match="UTF-8"):
        TOOLS["edit_file"].plan({"path": "b.bin", "old_string": "a", "new_string": "b"}, project)


async def test_edit_reapplies_against_current_content(project: ToolContext) -> None:
    args = {"path": "README.md", "old_string": "line two", "new_string": "LINE 2"}
    TOOLS["edit_file"].plan(args, project)
    (root_of(project) / "README.md").write_text("changed meanwhile\n")
    out = await TOOLS["edit_file"].run(args, project)
    assert out.is_error
    assert "not found" in out.content


# --- glob and grep ----------------------------------------------------------------------------

@pytest.fixture
def tree(project: ToolContext) -> ToolContext:
    root = root_of(project)
    for rel in ["src/pkg/mod.py", "src/pkg/test_mod.py", "docs/guide.md", "web/app.ts", "web/view.tsx",
                ".github/ci.yml", ".git/objects/x.py"]:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"# {rel}\nimport os\nTODO = 1\n")
    (root / ".env").write_text("TODO_TOKEN=abc\n")
    (root / "blob.bin").write_bytes(b"TODO\x00\x01")
    return project


@pytest.mark.parametrize(("pattern", "expected"), [
    ("**/*.py", ["src/app.py", "src/pkg/mod.py", "src/pkg/test_mod.py"]),
    ("src/*.py", ["src/app.py"]),
    ("src/**/test_*.py", ["src/pkg/test_mod.py"]),
    ("web/*.{ts,tsx}", ["web/app.ts", "web/view.tsx"]),
    ("*.md", ["README.md"]),
    ("**/*.md", ["README.md", "docs/guide.md"]),
    ("**/ci.y?l", [".github/ci.yml"]),
    ("nothing/*.x", []),
])
async def test_glob(tree: ToolContext, pattern: str, expected: list[str]) -> None:
    out = await TOOLS["glob"].run({"pattern": pattern}, tree)
    found = [] if out.content.startswith("No") else out.content.splitlines()
    assert found == expected


async def test_glob_from_subfolder(tree: ToolContext) -> None:
    out = await TOOLS["glob"].run({"pattern": "*.py", "path": "src/pkg"}, tree)
    assert out.content.splitlines() == ["src/pkg/mod.py", "src/pkg/test_mod.py"]


async def test_grep_finds_lines_skips_git_binaries_and_secrets(tree: ToolContext) -> None:
    out = await TOOLS["grep"].run({"pattern": "^TODO"}, tree)
    lines = out.content.splitlines()
    assert "src/pkg/mod.py:3: TODO = 1" in lines
    assert not any(line.startswith((".git/", "blob.bin", ".env")) for line in lines)
    assert "1 secret-looking file(s) not searched" in out.content


async def test_grep_glob_filter_case_and_single_file(tree: ToolContext) -> None:
    out = await TOOLS["grep"].run({"pattern": "todo", "ignore_case": True, "glob": "*.ts"}, tree)
    assert out.content.splitlines() == ["web/app.ts:3: TODO = 1"]
    out = await TOOLS["grep"].run({"pattern": "import", "path": "docs/guide.md"}, tree)
    assert out.content == "docs/guide.md:2: import os"
    out = await TOOLS["grep"].run({"pattern": "TOKEN", "path": ".env"}, tree)
    assert ".env:1:" in out.content
    assert TOOLS["grep"].plan({"pattern": "TOKEN", "path": ".env"}, tree).sensitive


def test_grep_bad_regex(tree: ToolContext) -> None:
    with pytest.raises(ToolError, match="regular expression"):
        TOOLS["grep"].plan({"pattern": "("}, tree)


async def test_grep_caps_matches(project: ToolContext) -> None:
    (root_of(project) / "many.txt").write_text("hit\n" * 1000)
    out = await TOOLS["grep"].run({"pattern": "hit"}, project)
    assert "stopped at 200 matches" in out.content


# --- view_image -------------------------------------------------------------------------------

async def test_view_image_returns_bytes(project: ToolContext) -> None:
    data = png_bytes()
    (root_of(project) / "pic.png").write_bytes(data)
    out = await TOOLS["view_image"].run({"path": "pic.png"}, project)
    assert out.images == (("image/png", data),)


@pytest.mark.parametrize(("data", "mime"), [
    (b"\xff\xd8\xff\xe0rest", "image/jpeg"), (b"GIF89a....", "image/gif"),
    (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
])
async def test_view_image_sniffs_magic_bytes(project: ToolContext, data: bytes, mime: str) -> None:
    (root_of(project) / "img.dat").write_bytes(data)
    out = await TOOLS["view_image"].run({"path": "img.dat"}, project)
    assert out.images[0][0] == mime


async def test_view_image_refuses_non_images_and_huge_files(project: ToolContext) -> None:
    (root_of(project) / "fake.png").write_text("not an image")
    out = await TOOLS["view_image"].run({"path": "fake.png"}, project)
    assert out.is_error
    assert not out.images
    (root_of(project) / "huge.png").write_bytes(png_bytes() + b"\x00" * (5 * 1024 * 1024))
    out = await TOOLS["view_image"].run({"path": "huge.png"}, project)
    assert out.is_error
    assert "too big" in out.content
