"""The working-directory picker: every rule of the Yeaft seed "选择工作目录" (Y12, Y14).

The dialog lists real folders of a temp tree; the slow-listing tests hand it a
lister that blocks on a ``threading.Event`` to prove the window keeps running.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path, PurePath, PureWindowsPath

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from foya_desktop.ui.picker import folders
from foya_desktop.ui.picker.dialog import FolderPicker
from foya_desktop.ui.picker.folders import DRIVES, FolderError, Listing
from tests.ui.helpers import settle, wait_signal, wait_until


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """tmp/a/b/c/d/e/f plus siblings, a file, a hidden folder."""
    deep = tmp_path / "a" / "b" / "c" / "d" / "e" / "f"
    deep.mkdir(parents=True)
    (tmp_path / "a" / "sibling").mkdir()
    (tmp_path / "a" / ".hidden").mkdir()
    (tmp_path / "a" / "notes.txt").write_text("not a folder")
    return tmp_path


async def _picker(start: str, default_dir: str, lister: Callable[[str], Listing] = folders.list_folders,
                  pure: type[PurePath] = PurePath) -> FolderPicker:
    """Open a picker; the caller awaits its first ``loaded``."""
    dialog = FolderPicker(start, default_dir, lister=lister, pure=pure)
    dialog.open()
    return dialog


@pytest.fixture
async def picker(tree: Path) -> AsyncIterator[FolderPicker]:
    dialog = await _picker(str(tree / "a"), str(tree))
    await wait_signal(dialog.loaded)
    yield dialog
    dialog.reject()
    dialog.deleteLater()
    await settle()


def _names(dialog: FolderPicker) -> list[str]:
    return [dialog.list.item(i).text() for i in range(dialog.list.count())]


async def _click_folder(dialog: FolderPicker, name: str) -> None:
    item = next(dialog.list.item(i) for i in range(dialog.list.count())
                if dialog.list.item(i).text() == name)
    rect = dialog.list.visualItemRect(item)
    QTest.mouseClick(dialog.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     rect.center())
    await wait_signal(dialog.loaded)


async def test_lists_subfolders_only_hidden_last_and_confirm_uses_browsed_folder(
        picker: FolderPicker, tree: Path) -> None:
    """Y12: the folder being browsed is the one Confirm takes; files are not listed."""
    assert _names(picker) == ["b", "sibling", ".hidden"]
    assert picker.confirm_enabled()
    assert picker.chosen() == str(tree / "a")


async def test_single_click_enters_a_folder_and_confirm_takes_it(picker: FolderPicker, tree: Path) -> None:
    """Y12: one click enters (no double click); Confirm uses the entered folder, nothing else."""
    await _click_folder(picker, "b")
    assert picker.chosen() == str(tree / "a" / "b")
    assert _names(picker) == ["c"]
    picker.confirm_button.click()
    assert picker.result() == FolderPicker.DialogCode.Accepted
    assert picker.chosen() == str(tree / "a" / "b")


async def test_every_path_segment_is_clickable_and_the_leading_slash_is_the_root(
        picker: FolderPicker, tree: Path) -> None:
    """Y12: the compact path's segments jump straight back; ``/`` jumps to the root."""
    for name in ("b", "c", "d", "e", "f"):
        await _click_folder(picker, name)
    labels = picker.crumb_labels()
    assert labels[0] == os.sep and "…" in labels and labels[-4:] == ["c", "d", "e", "f"]
    picker.crumb_button("c").click()
    await wait_signal(picker.loaded)
    assert picker.chosen() == str(tree / "a" / "b" / "c")
    assert picker.crumb_labels()[-1] == "c"
    folded = picker.crumb_button("…").menu()
    assert picker.crumb_labels()[-4:] == [tree.name, "a", "b", "c"]
    assert folded is not None and [a.text() for a in folded.actions()][-1] == tree.parent.name
    folded.actions()[-1].trigger()  # a folded segment is one click too
    await wait_signal(picker.loaded)
    assert picker.chosen() == str(tree.parent)
    picker.crumb_button(os.sep).click()
    await wait_signal(picker.loaded)
    assert picker.chosen() == os.sep
    assert picker.crumb_labels() == [os.sep]


async def test_parent_button_goes_up_and_stops_at_the_root(picker: FolderPicker, tree: Path) -> None:
    """Y12: Parent stays; at ``/`` there is nothing above (and no separate root button)."""
    picker.parent_button.click()
    await wait_signal(picker.loaded)
    assert picker.chosen() == str(tree)
    picker.crumb_button(os.sep).click()
    await wait_signal(picker.loaded)
    assert not picker.parent_button.isEnabled()
    assert sum(1 for label in picker.crumb_labels() if label == os.sep) == 1


async def test_typed_path_loads_on_enter_and_only_then_can_be_confirmed(
        picker: FolderPicker, tree: Path) -> None:
    """Y12: typing alone never confirms; Enter (or Go) loads, then Confirm is allowed."""
    picker.path_edit.setFocus()
    picker.path_edit.selectAll()
    QTest.keyClicks(picker.path_edit, str(tree / "a" / "sibling"))
    assert not picker.confirm_enabled()
    assert "Press Enter" in picker.message.text()
    QTest.keyClick(picker.path_edit, Qt.Key.Key_Return)
    await wait_signal(picker.loaded)
    assert picker.isVisible(), "Enter in the path box must load, not confirm"
    assert picker.chosen() == str(tree / "a" / "sibling") and picker.confirm_enabled()


async def test_go_button_loads_a_pasted_path(picker: FolderPicker, tree: Path) -> None:
    """Y12: paste + Go."""
    QApplication.clipboard().setText(str(tree / "a" / "b"))
    picker.path_edit.selectAll()
    picker.path_edit.paste()
    assert not picker.confirm_enabled()
    picker.go_button.click()
    await wait_signal(picker.loaded)
    assert picker.chosen() == str(tree / "a" / "b")


async def test_relative_path_resolves_against_the_default_working_directory(
        picker: FolderPicker, tree: Path) -> None:
    """Y12: a relative path is read from the default working directory, not the process cwd."""
    picker.path_edit.setText("a/b/../sibling")
    picker.go_button.click()
    await wait_signal(picker.loaded)
    assert picker.chosen() == str(tree / "a" / "sibling")


async def test_read_errors_show_in_the_dialog_disable_confirm_and_allow_retry(
        picker: FolderPicker, tree: Path) -> None:
    """Y12: errors inside the dialog; edit the path and retry."""
    picker.path_edit.setText(str(tree / "missing"))
    picker.go_button.click()
    (text,) = await wait_signal(picker.failed)
    assert "does not exist" in text and "does not exist" in picker.message.text()
    assert picker.isVisible() and not picker.confirm_enabled()
    picker.path_edit.setText(str(tree / "a" / "notes.txt"))
    picker.go_button.click()
    (text,) = await wait_signal(picker.failed)
    assert "is a file, not a folder" in text and not picker.confirm_enabled()
    picker.path_edit.setText(str(tree / "a" / "b"))
    picker.go_button.click()
    await wait_signal(picker.loaded)
    assert picker.confirm_enabled() and picker.chosen() == str(tree / "a" / "b")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
async def test_unreadable_folder_is_reported(picker: FolderPicker, tree: Path) -> None:
    """Y12: a permission error is a sentence in the dialog, never a traceback."""
    locked = tree / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        picker.load(str(locked))
        (text,) = await wait_signal(picker.failed)
        assert "not allowed to read" in text and not picker.confirm_enabled()
    finally:
        locked.chmod(0o700)


async def test_listing_runs_off_the_gui_thread_and_confirm_waits_for_it(tree: Path) -> None:
    """Y12: a slow folder (network mount) never blocks the window; Confirm is off meanwhile."""
    release = threading.Event()
    threads: list[threading.Thread] = []

    def slow(path: str) -> Listing:
        threads.append(threading.current_thread())
        if path.endswith("slow"):
            release.wait(10)
        return folders.list_folders(path)

    (tree / "slow").mkdir()
    dialog = await _picker("", str(tree), lister=slow)
    await wait_signal(dialog.loaded)
    dialog.load(str(tree / "slow"))
    ticks: list[int] = []
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    await wait_until(lambda: len(ticks) >= 5, what="the GUI loop keeps running while a folder loads")
    timer.stop()
    assert dialog.message.text() == "Loading…" and not dialog.confirm_enabled()
    dialog.confirm_button.click()
    assert dialog.isVisible()
    release.set()
    await wait_signal(dialog.loaded)
    assert dialog.confirm_enabled() and dialog.chosen() == str(tree / "slow")
    assert all(t is not threading.main_thread() for t in threads)
    dialog.reject()
    dialog.deleteLater()


async def test_a_stale_listing_never_replaces_the_folder_clicked_next(tree: Path) -> None:
    """Y12: click on while a slow folder loads; its late result is dropped."""
    release = threading.Event()

    def slow(path: str) -> Listing:
        if path.endswith("slow"):
            release.wait(10)
        return folders.list_folders(path)

    (tree / "slow").mkdir()
    dialog = await _picker("", str(tree), lister=slow)
    await wait_signal(dialog.loaded)
    dialog.load(str(tree / "slow"))
    dialog.load(str(tree / "a"))
    await wait_signal(dialog.loaded)
    release.set()
    await asyncio.sleep(0.1)
    assert dialog.chosen() == str(tree / "a")
    dialog.reject()
    dialog.deleteLater()


async def test_enter_on_a_highlighted_folder_enters_it(picker: FolderPicker, tree: Path) -> None:
    """Y12: the keyboard enters a folder the same way; Enter never confirms."""
    picker.list.setFocus()
    picker.list.setCurrentRow(1)
    QTest.keyClick(picker.list, Qt.Key.Key_Return)
    await wait_signal(picker.loaded)
    assert picker.chosen() == str(tree / "a" / "sibling") and picker.isVisible()


async def test_choosing_a_folder_moves_nothing(picker: FolderPicker, tree: Path) -> None:
    """Y12: browsing and confirming leaves the tree exactly as it was."""
    before = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*"))
    await _click_folder(picker, "b")
    picker.confirm_button.click()
    assert sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*")) == before


def test_windows_drive_root_parent_switches_drives() -> None:
    """Y12: on Windows Parent above ``C:\\`` lists the drives; segments start with the drive."""
    assert folders.parent("C:\\Users\\me", PureWindowsPath) == "C:\\Users"
    assert folders.parent("C:\\", PureWindowsPath) == DRIVES
    assert folders.parent(DRIVES, PureWindowsPath) is None
    assert [s.label for s in folders.segments("C:\\Users\\me", PureWindowsPath)] == ["C:\\", "Users", "me"]
    assert folders.segments("C:\\Users\\me", PureWindowsPath)[0].target == "C:\\"
    assert folders.child(DRIVES, "D:\\", PureWindowsPath) == "D:\\"


async def test_windows_drive_view_in_the_dialog() -> None:
    """Y12: the dialog's Parent at a drive root shows drives; clicking one enters it."""
    listings = {"C:\\": Listing("C:\\", ("Users",)), DRIVES: Listing(DRIVES, ("C:\\", "D:\\")),
                "D:\\": Listing("D:\\", ("data",))}
    dialog = await _picker("", "C:\\", lister=listings.__getitem__, pure=PureWindowsPath)
    await wait_signal(dialog.loaded)
    assert dialog.crumb_labels() == ["C:\\"]
    dialog.parent_button.click()
    await wait_signal(dialog.loaded)
    assert dialog.chosen() == DRIVES and not dialog.confirm_enabled(), "the drive list is no folder"
    await _click_folder(dialog, "D:\\")
    assert dialog.chosen() == "D:\\"
    dialog.reject()
    dialog.deleteLater()


def test_typed_paths_resolve_home_and_relative() -> None:
    """Y12: ``~`` is the home folder; relative paths start at the default dir; empty is refused."""
    assert folders.resolve_typed("~", "/x") == str(Path.home())
    assert folders.resolve_typed("p/../q", "/base") == os.path.normpath("/base/q")
    with pytest.raises(FolderError):
        folders.resolve_typed("  ", "/base")


async def test_screenshot_picker(picker: FolderPicker, tree: Path, shots: Path) -> None:
    """A look at the picker deep in a tree and after an error."""
    for name in ("b", "c", "d"):
        await _click_folder(picker, name)
    picker.resize(640, 420)
    await settle()
    picker.grab().save(str(shots / "picker_browse.png"))
    picker.path_edit.setText("nowhere/at/all")
    picker.go_button.click()
    await wait_signal(picker.failed)
    await settle()
    picker.grab().save(str(shots / "picker_error.png"))
    assert not picker.confirm_enabled()


async def test_a_repository_s_git_folder_is_not_listed(tree: Path, shots: Path) -> None:
    """A repository shows its own folders; Git's internals are not a place to work in."""
    (tree / "a" / ".git" / "objects").mkdir(parents=True)
    dialog = await _picker(str(tree / "a"), str(tree))
    await wait_signal(dialog.loaded)
    await settle()
    listed = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    dialog.grab().save(str(shots / "picker_without_git.png"))
    dialog.reject()
    assert [name for name in listed if ".git" in name] == [] and any("sibling" in n for n in listed)
