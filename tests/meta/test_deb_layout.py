"""The Debian package's logic without PyInstaller: ``packaging/build_deb.py`` run on a tiny stand-in
bundle (a ``foya`` script and one real ELF program) builds a real ``.deb`` with ``dpkg-deb``, whose
control fields, file list, desktop entry and metainfo are checked here; the ``Depends`` mapping and
the Debian changelog are checked as functions. The full build (``packaging/packages_ci.py``)
checks the real bundle: lintian, install, smoke start, removal."""

from __future__ import annotations

import gzip
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))

import build_deb
import deb_layout as layout
import elf_needs

from foya_desktop import DESKTOP_ID
from tests.cli.test_install_desktop import _validator as _tool  # skips, or fails in CI, when missing


def _bundle(folder: Path, version: str) -> Path:
    """A folder shaped like PyInstaller's: ``foya`` plus ``_internal/`` with a library and an ELF file."""
    internal = folder / "_internal"
    internal.mkdir(parents=True)
    (folder / "foya").write_text(f"#!/bin/sh\necho 'foya {version}'\n", encoding="utf-8")
    (folder / "foya").chmod(0o755)
    true = Path(_tool("true")).resolve()
    shutil.copyfile(true, internal / "helper")  # a real ELF program: it links libc.so.6
    (internal / "helper").chmod(0o755)
    shutil.copyfile(true, internal / "libstandin.so.1")
    (internal / "libstandin.so.1").chmod(0o755)  # as wheels ship them; policy wants 0644
    return folder


def _fields(deb: Path) -> dict[str, str]:
    out = subprocess.run([_tool("dpkg-deb"), "--field", str(deb)], capture_output=True, text=True, check=True)
    fields: dict[str, str] = {}
    for line in out.stdout.splitlines():
        if line.startswith(" "):
            fields["Description"] += "\n" + line
        else:
            key, _, value = line.partition(": ")
            fields[key] = value
    return fields


def test_build_deb_packs_the_bundle_with_the_system_files_and_control_fields(tmp_path: Path) -> None:
    version = layout.version()
    bundle = _bundle(tmp_path / "bundle", version)
    deb = build_deb.build_deb(bundle, tmp_path / "out", tmp_path / "stage")
    assert deb.name == f"foya-desktop_{version}_amd64.deb"
    fields = _fields(deb)
    assert fields["Package"] == "foya-desktop" and fields["Version"] == version
    assert fields["Architecture"] == "amd64" and "<" in fields["Maintainer"]
    assert fields["Depends"].startswith("libc6 (>= 2.")  # from the ELF file's GLIBC_x.y symbols
    assert int(fields["Installed-Size"]) > 0
    synopsis, *extended = fields["Description"].split("\n")
    assert not synopsis.lower().startswith(("a ", "an ", "the ")) and len(synopsis) < 80
    assert extended and all(line.startswith(" ") and len(line) <= 80 for line in extended)

    listing = subprocess.run([_tool("dpkg-deb"), "--contents", str(deb)], capture_output=True, text=True,
                             check=True).stdout
    paths = {line.split()[5].removeprefix(".") for line in listing.splitlines()}
    assert {str(p) for p in layout.layout()} <= paths
    assert "/opt/foya-desktop/foya" in paths and "/opt/foya-desktop/_internal/helper" in paths
    assert "/usr/bin/foya -> /opt/foya-desktop/foya" in listing
    assert all(" root/root " in line for line in listing.splitlines())


def test_staged_tree_has_policy_modes_and_valid_desktop_files(tmp_path: Path) -> None:
    version = layout.version()
    root = build_deb.stage(_bundle(tmp_path / "bundle", version), version, tmp_path / "root")
    opt = root / "opt" / "foya-desktop"
    assert stat.S_IMODE((opt / "foya").stat().st_mode) == 0o755
    assert stat.S_IMODE((opt / "_internal" / "helper").stat().st_mode) == 0o755
    assert stat.S_IMODE((opt / "_internal" / "libstandin.so.1").stat().st_mode) == 0o644
    assert os.readlink(root / "usr" / "bin" / "foya") == "/opt/foya-desktop/foya"

    share = root / "usr" / "share"
    entry = share / "applications" / f"{DESKTOP_ID}.desktop"
    subprocess.run([_tool("desktop-file-validate"), str(entry)], check=True, capture_output=True)
    keys = dict(line.split("=", 1) for line in entry.read_text(encoding="utf-8").splitlines() if "=" in line)
    assert keys["Exec"] == "foya %f" and keys["TryExec"] == "foya"  # /usr/bin/foya, from the PATH
    metainfo = share / "metainfo" / f"{DESKTOP_ID}.metainfo.xml"
    check = subprocess.run([_tool("appstreamcli"), "validate", "--no-net", str(metainfo)], capture_output=True,
                           text=True, check=False)
    assert check.returncode == 0, check.stdout
    changelog = gzip.decompress((share / "doc" / "foya-desktop" / "changelog.gz").read_bytes()).decode()
    assert changelog.startswith(f"foya-desktop ({version}) ")
    overrides = (share / "lintian" / "overrides" / "foya-desktop").read_text(encoding="utf-8")
    assert overrides == layout.lintian_overrides()


def test_a_stale_bundle_is_refused_in_one_sentence(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path / "bundle", "0.0.0-stale")
    with pytest.raises(SystemExit, match=r"is version 0\.0\.0-stale but pyproject\.toml says .*rebuild it"):
        build_deb.build_deb(bundle, tmp_path / "out", tmp_path / "stage")
    assert not (tmp_path / "out").exists()
    with pytest.raises(SystemExit, match="No bundle at"):
        build_deb.checked_version(tmp_path / "nowhere")


def test_depends_maps_qt_libraries_longest_prefix_first_and_names_unknown_ones() -> None:
    xcb_plugin = {"libxcb.so.1", "libxcb-xkb.so.1", "libxcb-cursor.so.0", "libxkbcommon-x11.so.0",
                  "libEGL.so.1", "libc.so.6", "libglib-2.0.so.0"}
    assert layout.depends(xcb_plugin, "2.34") == [
        "libc6 (>= 2.34)", "libegl1", "libglib2.0-0t64 | libglib2.0-0", "libxcb-cursor0", "libxcb-xkb1",
        "libxcb1", "libxkbcommon-x11-0"]
    with pytest.raises(SystemExit, match=r"does not map to a Debian package: libmystery\.so\.3\. Add each"):
        layout.depends({"libc.so.6", "libmystery.so.3"}, None)


def test_elf_needs_leaves_out_what_the_bundle_carries(tmp_path: Path) -> None:
    bundle = _bundle(tmp_path / "bundle", "1")
    shutil.copyfile(bundle / "_internal" / "helper", bundle / "_internal" / "libc.so.6")  # "bundled" libc
    needs = elf_needs.needs(bundle)
    assert "libc.so.6" not in needs.sonames
    assert needs.libc_minimum is not None and needs.libc_minimum.startswith("2.")


def test_debian_changelog_is_the_changelog_section_of_this_version() -> None:
    version = layout.version()
    text = layout.debian_changelog(version)
    head, *body, trailer, _ = text.split("\n")
    assert head == f"foya-desktop ({version}) unstable; urgency=medium"
    assert any(line.startswith("  * ") for line in body)
    assert all(len(line) <= 80 for line in body)
    assert trailer.startswith(f" -- {layout.MAINTAINER}  ") and trailer.endswith("+0000")
    with pytest.raises(SystemExit, match=r"CHANGELOG\.md has no '## \[9\.9\.9\]"):
        layout.debian_changelog("9.9.9")


def test_every_lintian_override_carries_a_reason() -> None:
    lines = layout.lintian_overrides().splitlines()
    for index, line in enumerate(lines):
        if line.startswith("foya-desktop: "):
            assert index > 0 and lines[index - 1].startswith("# ") and len(lines[index - 1]) > 20
    assert sum(line.startswith("foya-desktop: ") for line in lines) == len(layout.LINTIAN_OVERRIDES)
