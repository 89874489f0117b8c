"""``foya install-desktop``: a menu entry that launches *this* installation, validated by the
standard tools, with icons in every hicolor size and AppStream metainfo; ``--uninstall`` removes
exactly what it wrote (issue 13, "Install and launch")."""

from __future__ import annotations

import os
import shlex
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from foya_desktop import DESKTOP_ID, __version__
from foya_desktop.cli.install_desktop import DesktopFiles, _quote_exec_arg, desktop_entry_text
from foya_desktop.resources import ICON_SIZES, icon_png, metainfo_template


def _install(prefix: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FOYA_HOME": str(prefix / "foya-home")}
    return subprocess.run([sys.executable, "-m", "foya_desktop", "install-desktop", "--prefix", str(prefix), *extra],
                          capture_output=True, text=True, env=env, timeout=60, check=False)


def _validator(name: str) -> str:
    exe = shutil.which(name)
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: .ci/run installs it")
        pytest.skip(f"{name} is not installed here")
    return exe


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def _desktop_keys(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def test_install_writes_a_valid_entry_that_launches_this_installation(tmp_path: Path) -> None:
    done = _install(tmp_path)
    assert done.returncode == 0, done.stderr
    files = DesktopFiles(tmp_path)
    assert all(path.is_file() for path in files.all())
    subprocess.run([_validator("desktop-file-validate"), str(files.desktop_entry)], check=True,
                   capture_output=True, text=True)
    keys = _desktop_keys(files.desktop_entry.read_text(encoding="utf-8"))
    assert keys["Icon"] == DESKTOP_ID
    *command, field_code = shlex.split(keys["Exec"])
    assert field_code == "%f"  # a folder dropped on the launcher: `foya FOLDER`
    assert Path(command[0]).is_absolute() and os.access(command[0], os.X_OK)
    version = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert version.stdout.strip() == f"foya {__version__}", version.stderr


def test_metainfo_validates_and_names_the_desktop_file_and_this_version(tmp_path: Path) -> None:
    assert _install(tmp_path).returncode == 0
    files = DesktopFiles(tmp_path)
    check = subprocess.run([_validator("appstreamcli"), "validate", "--no-net", str(files.metainfo)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    root = ET.parse(metainfo_template()).getroot()
    assert root.findtext("id") == DESKTOP_ID
    assert root.findtext("launchable") == files.desktop_entry.name
    release = root.find("releases/release")
    assert release is not None and release.get("version") == __version__


def test_every_hicolor_size_is_a_png_of_that_size() -> None:
    for size in ICON_SIZES:
        assert _png_size(icon_png(size)) == (size, size)


def test_uninstall_removes_exactly_what_install_wrote(tmp_path: Path) -> None:
    assert _install(tmp_path).returncode == 0
    neighbour = tmp_path / "applications" / "someone-else.desktop"
    neighbour.write_text("[Desktop Entry]\n", encoding="utf-8")
    done = _install(tmp_path, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert not any(path.exists() for path in DesktopFiles(tmp_path).all())
    assert neighbour.exists()
    again = _install(tmp_path, "--uninstall")
    assert again.returncode == 0 and "nothing to remove" in again.stdout


def test_a_path_with_spaces_and_percent_is_quoted_as_the_spec_says(tmp_path: Path) -> None:
    assert _quote_exec_arg("/opt/foya/bin/foya") == "/opt/foya/bin/foya"
    assert _quote_exec_arg("/home/a b/100%/foya") == '"/home/a b/100%%/foya"'
    entry = tmp_path / f"{DESKTOP_ID}.desktop"
    entry.write_text(desktop_entry_text(["/home/a b/$x/foya"]), encoding="utf-8")
    subprocess.run([_validator("desktop-file-validate"), str(entry)], check=True, capture_output=True)


def test_an_unwritable_prefix_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    done = _install(blocker)
    assert done.returncode != 0
    assert "Could not install the desktop entry" in done.stderr
    assert "Traceback" not in done.stderr
