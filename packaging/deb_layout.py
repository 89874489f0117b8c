"""What the Debian package holds and declares, as data: no building, no Qt, no dpkg.

``build_deb.py`` writes these into the package tree and ``check_deb.py`` holds the
installed system to them; ``tests/meta/test_deb_layout.py`` checks them without a build.
Why a third-party ``.deb`` under ``/opt``: the PyInstaller bundle carries its own Python
and Qt, which Debian policy keeps out of ``/usr``; the FHS gives ``/opt/<package>`` to
exactly such add-on software, and ``/usr/bin/foya`` plus the freedesktop files in
``/usr/share`` make it a normal desktop application.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from email.utils import format_datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
CHANGELOG = ROOT / "CHANGELOG.md"

PACKAGE = "foya-desktop"
ARCHITECTURE = "amd64"
PREFIX = Path("/opt/foya-desktop")
"""Where the bundle's folder goes."""
COMMAND = Path("/usr/bin/foya")
"""A symlink to ``PREFIX/foya``; the desktop entry runs ``foya`` through it."""
SHARE = Path("/usr/share")
"""The XDG data directory ``foya install-desktop --prefix`` writes into for the package."""
DOC = SHARE / "doc" / PACKAGE
MAINTAINER = "The Foya Desktop developers <foya-desktop@users.noreply.github.com>"
HOMEPAGE = "https://github.com/foya/foya-desktop"

QT_LIBRARIES: dict[str, str] = {
    # soname prefix -> Debian/Ubuntu package (``a | b``: Ubuntu 24.04's 64-bit-time rename first,
    # Debian 12's name second; either satisfies the dependency). Every library a file in the
    # bundle links that the bundle does not carry must match one prefix, or build_deb.py stops.
    "libc.so.": "libc6",
    "libm.so.": "libc6",
    "libdl.so.": "libc6",
    "libpthread.so.": "libc6",
    "librt.so.": "libc6",
    "libutil.so.": "libc6",
    "libresolv.so.": "libc6",
    "ld-linux-x86-64.so.": "libc6",
    "libz.so.": "zlib1g",
    "libgcc_s.so.": "libgcc-s1",
    "libstdc++.so.": "libstdc++6",
    "libEGL.so.": "libegl1",
    "libGL.so.": "libgl1",
    "libOpenGL.so.": "libopengl0",
    "libGLX.so.": "libglx0",
    "libxkbcommon.so.": "libxkbcommon0",
    "libxkbcommon-x11.so.": "libxkbcommon-x11-0",
    "libfontconfig.so.": "libfontconfig1",
    "libfreetype.so.": "libfreetype6",
    "libdbus-1.so.": "libdbus-1-3",
    "libglib-2.0.so.": "libglib2.0-0t64 | libglib2.0-0",
    "libgthread-2.0.so.": "libglib2.0-0t64 | libglib2.0-0",
    "libX11.so.": "libx11-6",
    "libX11-xcb.so.": "libx11-xcb1",
    "libxcb.so.": "libxcb1",
    "libxcb-cursor.so.": "libxcb-cursor0",
    "libxcb-icccm.so.": "libxcb-icccm4",
    "libxcb-image.so.": "libxcb-image0",
    "libxcb-keysyms.so.": "libxcb-keysyms1",
    "libxcb-randr.so.": "libxcb-randr0",
    "libxcb-render-util.so.": "libxcb-render-util0",
    "libxcb-render.so.": "libxcb-render0",
    "libxcb-shape.so.": "libxcb-shape0",
    "libxcb-shm.so.": "libxcb-shm0",
    "libxcb-sync.so.": "libxcb-sync1",
    "libxcb-xfixes.so.": "libxcb-xfixes0",
    "libxcb-xinerama.so.": "libxcb-xinerama0",
    "libxcb-xinput.so.": "libxcb-xinput0",
    "libxcb-xkb.so.": "libxcb-xkb1",
    "libxcb-glx.so.": "libxcb-glx0",
    "libSM.so.": "libsm6",
    "libICE.so.": "libice6",
    "libwayland-client.so.": "libwayland-client0",
    "libwayland-cursor.so.": "libwayland-cursor0",
    "libwayland-egl.so.": "libwayland-egl1",
    "libgssapi_krb5.so.": "libgssapi-krb5-2",
    "libdrm.so.": "libdrm2",
    # Qt's GTK platform theme (native file dialogs and colours on GNOME) links GTK 3; foya.spec
    # leaves the GTK/GLib stack to the system, so these are what it links directly.
    "libgtk-3.so.": "libgtk-3-0t64 | libgtk-3-0",
    "libgdk-3.so.": "libgtk-3-0t64 | libgtk-3-0",
    "libgdk_pixbuf-2.0.so.": "libgdk-pixbuf-2.0-0",
    "libatk-1.0.so.": "libatk1.0-0t64 | libatk1.0-0",
    "libatk-bridge-2.0.so.": "libatk-bridge2.0-0t64 | libatk-bridge2.0-0",
    "libatspi.so.": "libatspi2.0-0t64 | libatspi2.0-0",
    "libcairo.so.": "libcairo2",
    "libcairo-gobject.so.": "libcairo-gobject2",
    "libpango-1.0.so.": "libpango-1.0-0",
    "libpangocairo-1.0.so.": "libpangocairo-1.0-0",
    "libpangoft2-1.0.so.": "libpangoft2-1.0-0",
    "libharfbuzz.so.": "libharfbuzz0b",
    "libepoxy.so.": "libepoxy0",
    "libfribidi.so.": "libfribidi0",
    "libthai.so.": "libthai0",
    "libdatrie.so.": "libdatrie1",
    "libgraphite2.so.": "libgraphite2-3",
    "libpixman-1.so.": "libpixman-1-0",
    "libgio-2.0.so.": "libglib2.0-0t64 | libglib2.0-0",
    "libgobject-2.0.so.": "libglib2.0-0t64 | libglib2.0-0",
    "libgmodule-2.0.so.": "libglib2.0-0t64 | libglib2.0-0",
    "libmount.so.": "libmount1",
    "libblkid.so.": "libblkid1",
    "libselinux.so.": "libselinux1",
    "libpcre2-8.so.": "libpcre2-8-0",
}


def project() -> dict[str, object]:
    """``[project]`` of ``pyproject.toml``."""
    table = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert isinstance(table, dict)
    return table


def version() -> str:
    """The one version: ``[project] version`` in ``pyproject.toml``."""
    value = project()["version"]
    if not isinstance(value, str) or not re.fullmatch(r"\d+(\.\d+)*([a-z0-9.+~-]*)", value):
        raise SystemExit(f"pyproject.toml's version {value!r} is not a version a .deb can carry.")
    return value


def deb_name(ver: str) -> str:
    """``foya-desktop_<version>_amd64.deb``."""
    return f"{PACKAGE}_{ver}_{ARCHITECTURE}.deb"


def depends(sonames: set[str], libc_minimum: str | None) -> list[str]:
    """The ``Depends`` entries for the system libraries the bundle links (sorted, unique).

    Raises ``SystemExit`` naming every soname no entry of :data:`QT_LIBRARIES` covers: a
    dependency nobody declared would install fine and then not start on a lean system.
    """
    found: set[str] = set()
    unknown = []
    for soname in sorted(sonames):
        # Longest prefix wins, so libxcb-xkb.so. does not count as libxcb.so.
        prefix = max((p for p in QT_LIBRARIES if soname.startswith(p)), key=len, default=None)
        if prefix is None:
            unknown.append(soname)
        else:
            found.add(QT_LIBRARIES[prefix])
    if unknown:
        raise SystemExit("The bundle links system libraries packaging/deb_layout.py does not map to a "
                         f"Debian package: {', '.join(unknown)}. Add each to QT_LIBRARIES.")
    if libc_minimum and "libc6" in found:
        found.discard("libc6")
        found.add(f"libc6 (>= {libc_minimum})")
    return sorted(found)


def control(ver: str, installed_kib: int, depends_on: list[str]) -> str:
    """The ``DEBIAN/control`` file."""
    summary = str(project()["description"]).rstrip(".")
    short, _, rest = summary.partition(":")
    body = [
        "Foya is a desktop workbench for AI agents" + (f":{rest}." if rest else "."),
        "The package carries its own Python and Qt (a PyInstaller bundle) in",
        f"{PREFIX}; `foya` starts the window, `foya --help` lists the commands.",
    ]
    fields = [
        f"Package: {PACKAGE}",
        f"Version: {ver}",
        f"Architecture: {ARCHITECTURE}",
        f"Maintainer: {MAINTAINER}",
        f"Installed-Size: {installed_kib}",
        *([f"Depends: {', '.join(depends_on)}"] if depends_on else []),
        "Recommends: gnome-keyring | kwalletmanager | keepassxc",
        "Section: devel",
        "Priority: optional",
        f"Homepage: {HOMEPAGE}",
        # Policy: the synopsis is a noun phrase without an article.
        f"Description: {re.sub(r'^(A|An|The) ', '', short.strip()).rstrip('.')}",
        *[" " + line for line in _wrap(" ".join(body))],
    ]
    return "\n".join(fields) + "\n"


def _wrap(text: str, width: int = 79) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


@dataclass(frozen=True, slots=True)
class Release:
    """One released section of ``CHANGELOG.md``."""

    version: str
    day: date
    lines: list[str]


def changelog_releases(text: str) -> list[Release]:
    """The ``## [x.y.z] - YYYY-MM-DD`` sections of a Keep a Changelog file, newest first."""
    releases: list[Release] = []
    for match in re.finditer(r"^## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})\n(.*?)(?=^## |\Z)", text, re.M | re.S):
        body = [line for line in match.group(3).splitlines() if line.strip()]
        releases.append(Release(match.group(1), date.fromisoformat(match.group(2)), body))
    return releases


def debian_changelog(ver: str) -> str:
    """``changelog.gz``'s text: this version's ``CHANGELOG.md`` section in Debian's form.

    Debian requires a changelog in the package's doc folder; generating it from the
    Keep a Changelog file keeps one record of the changes.
    """
    release = next((r for r in changelog_releases(CHANGELOG.read_text(encoding="utf-8")) if r.version == ver),
                   None)
    if release is None:
        raise SystemExit(f"CHANGELOG.md has no '## [{ver}] - YYYY-MM-DD' section for "
                         "pyproject.toml's version.")
    items: list[str] = []
    for heading, entries in _sections(release.lines):
        items.append(f"  [ {heading} ]")
        for entry in entries:
            rows = _wrap(entry, 74)
            items.extend([f"  * {rows[0]}", *(f"    {row}" for row in rows[1:])])
    stamp = format_datetime(datetime.combine(release.day, time(12), tzinfo=UTC))
    return (f"{PACKAGE} ({ver}) unstable; urgency=medium\n\n" + "\n".join(items)
            + f"\n\n -- {MAINTAINER}  {stamp}\n")


def _sections(lines: list[str]) -> list[tuple[str, list[str]]]:
    """``### Heading`` groups of one release, each bullet joined with its continuation lines."""
    sections: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("### "):
            sections.append((line[4:].strip(), []))
        elif sections and line.startswith("- "):
            sections[-1][1].append(line[2:].strip())
        elif sections and sections[-1][1] and line.startswith("  "):
            sections[-1][1][-1] += " " + line.strip()
    return sections


LINTIAN_OVERRIDES: dict[str, str] = {
    # tag (with its lintian context pattern) -> why it is right for this package.
    "dir-or-file-in-opt [opt/foya-desktop/*]":
        "A self-contained bundle (its own Python and Qt) is add-on software; the FHS gives it /opt.",
    "embedded-library *[opt/foya-desktop/_internal/*]":
        "PyInstaller copies what the bundled Python and Qt link (zlib, expat, libpng, freetype...) so "
        "the bundle runs as tested on every release; a new package version, not Debian's security "
        "updates, refreshes these copies.",
    "unstripped-binary-or-object [opt/foya-desktop/*]":
        "The upstream wheels' binaries are shipped as built and tested; debug symbols aid crash reports.",
    "shared-library-lacks-prerequisites [opt/foya-desktop/_internal/*]":
        "Python extension modules resolve their symbols from the bundled libpython, as upstream builds them.",
    "library-not-linked-against-libc [opt/foya-desktop/_internal/*]":
        "Upstream wheels' extension modules, as built by their projects.",
    "hardening-no-pie [opt/foya-desktop/foya]":
        "PyInstaller's prebuilt bootloader; the package repackages it, it does not compile it.",
    "custom-library-search-path *[opt/foya-desktop/_internal/*]":
        "PySide6 finds its Qt libraries through $ORIGIN-relative RUNPATHs inside the bundle.",
    "no-manual-page [usr/bin/foya]":
        "`foya --help` and each command's --help are the reference; there is no roff copy to drift.",
}
"""Lintian tags accepted for this package, each with its reason.

``build_deb.py`` ships them as ``/usr/share/lintian/overrides/foya-desktop`` (the reasons as
comments), so ``lintian`` reports them as overridden; ``check_deb.py`` fails on any other
error or warning. Tags a given lintian version does not raise are harmless to keep.
"""


def lintian_overrides() -> str:
    """The overrides file: each tag preceded by its reason."""
    return "".join(f"# {reason}\n{PACKAGE}: {tag}\n" for tag, reason in LINTIAN_OVERRIDES.items())


MIT_TEXT = """\
 Permission is hereby granted, free of charge, to any person obtaining a copy
 of this software and associated documentation files (the "Software"), to deal
 in the Software without restriction, including without limitation the rights
 to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 copies of the Software, and to permit persons to whom the Software is
 furnished to do so, subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be included in
 all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
 THE SOFTWARE.
"""


def copyright_file() -> str:
    """``/usr/share/doc/foya-desktop/copyright`` in the machine-readable format.

    The bundled Qt, PySide6 and Python keep their own licences; their files are named
    so a reader of the package knows what applies to which folder.
    """
    internal = f"{str(PREFIX).lstrip('/')}/_internal"
    return (
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        f"Upstream-Name: {PACKAGE}\n"
        f"Source: {HOMEPAGE}\n\n"
        "Files: *\n"
        "Copyright: 2026 The Foya Desktop developers\n"
        "License: Expat\n\n"
        f"Files: {internal}/PySide6/* {internal}/shiboken6/*\n"
        "Copyright: The Qt Company Ltd. and other contributors\n"
        "License: LGPL-3\n"
        " See /usr/share/common-licenses/LGPL-3.\n\n"
        f"Files: {internal}/libpython3*\n"
        "Copyright: Python Software Foundation\n"
        "License: PSF-2.0\n"
        " See https://docs.python.org/3/license.html.\n\n"
        "License: Expat\n" + MIT_TEXT
    )


def layout() -> list[Path]:
    """Every path the package installs outside ``PREFIX`` (the bundle's own files are its business)."""
    from foya_desktop.cli.install_desktop import DesktopFiles

    return [COMMAND, *DesktopFiles(SHARE).all(), DOC / "copyright", DOC / "changelog.gz",
            SHARE / "lintian" / "overrides" / PACKAGE]
