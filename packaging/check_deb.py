"""Check a built ``foya-desktop_<version>_amd64.deb`` the way a Debian or Ubuntu machine meets it.

    sudo python3 packaging/check_deb.py dist/foya-desktop_0.1.0_amd64.deb

Installs the package on *this* machine (so run it as root, in CI or a throw-away VM) and
removes it again. In order: ``lintian`` (any error or warning fails; the accepted ones are
overridden in the package, each with its reason, see ``deb_layout.LINTIAN_OVERRIDES``);
``dpkg -i``; the installed files are where ``deb_layout.layout()`` says; every system library
the bundle links belongs to a package ``Depends`` names; ``foya --version`` from the PATH; the
offscreen smoke start to first paint; ``desktop-file-validate`` and ``appstreamcli validate``
on the installed files; ``dpkg -r`` leaves no file behind (the file lists of ``/opt``, ``/usr``,
``/etc`` and dpkg's own records before install and after removal are compared); ``dpkg --purge``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import build_bundle
import deb_layout as layout
import elf_needs

from foya_desktop import DESKTOP_ID

SNAPSHOT_ROOTS = (Path("/opt"), Path("/usr"), Path("/etc"), Path("/var/lib/dpkg/info"))
CACHES = ("icon-theme.cache", "mimeinfo.cache", "__pycache__")
"""System caches dpkg's triggers rewrite for every package (and Python's byte code caches, which
any program may write meanwhile): they belong to the system, not to the package."""


class CheckFailed(Exception):
    """One check failed; the message says which and why."""


def _run(*command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, timeout=600, check=False, env=env)


def _must(*command: str) -> str:
    done = _run(*command)
    if done.returncode != 0:
        raise CheckFailed(f"`{' '.join(command)}` failed (exit {done.returncode}):\n"
                          f"{done.stdout}{done.stderr}")
    return done.stdout


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise CheckFailed(f"{name} is missing: apt-get install {package}")
    return path


def check_lintian(deb: Path) -> str:
    """Errors and warnings fail; returns the summary line."""
    done = _run(_tool("lintian", "lintian"), "--show-overrides", str(deb))
    tags = [line.split(": ", 2) for line in done.stdout.splitlines() if re.match(r"[EWIO]: ", line)]
    counts = {kind: sum(1 for t in tags if t[0] == kind) for kind in "EWIO"}
    bad = [": ".join(t) for t in tags if t[0] in ("E", "W")]
    if bad or done.returncode not in (0, 2) or "error" in done.stderr.lower():
        raise CheckFailed("lintian reports errors or warnings (fix them, or override one with its reason "
                          "in packaging/deb_layout.py's LINTIAN_OVERRIDES):\n" + "\n".join(bad) + done.stderr)
    overridden = sorted({t[2].split()[0] for t in tags if t[0] == "O" and len(t) > 2})
    return (f"lintian: {counts['E']} errors, {counts['W']} warnings, {counts['I']} info, {counts['O']} "
            f"overridden ({', '.join(overridden)})")


def snapshot() -> set[str]:
    """Every path under :data:`SNAPSHOT_ROOTS`, system caches left out."""
    paths: set[str] = set()
    for root in SNAPSHOT_ROOTS:
        for folder, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in CACHES]
            paths.update(os.path.join(folder, name) for name in dirs + files if name not in CACHES)
    return paths


def _name(relation: str) -> str:
    """``libc6 (>= 2.36)`` -> ``libc6``."""
    return re.sub(r"\s*\(.*\)", "", relation).strip()


def _installed(package: str) -> bool:
    done = _run("dpkg-query", "-W", "-f=${Status}", package)
    return done.returncode == 0 and done.stdout.endswith(" installed")


def satisfy_depends(deb: Path) -> None:
    """Install what ``Depends`` names and the machine lacks, so ``dpkg -i`` alone can succeed."""
    depends = _must("dpkg-deb", "--field", str(deb), "Depends").strip()
    groups = [[_name(alt) for alt in group.split("|")] for group in depends.split(",")]
    if all(any(_installed(alt) for alt in group) for group in groups):
        return
    print(f"check: installing the missing dependencies: {depends}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], env=env, check=False)
    done = subprocess.run(["apt-get", "satisfy", "-y", "-qq", "--no-install-recommends", depends],
                          env=env, check=False)
    if done.returncode != 0:
        raise CheckFailed(f"apt-get satisfy could not install the package's dependencies: {depends}")


def check_installed_layout(ver: str) -> None:
    """Every path of :func:`deb_layout.layout` is installed and owned; the command is the bundle's."""
    listed = set(_must("dpkg", "-L", layout.PACKAGE).split("\n"))
    missing = [str(p) for p in layout.layout() if str(p) not in listed or not os.path.lexists(p)]
    if missing:
        raise CheckFailed(f"not installed by the package: {', '.join(missing)}")
    target = layout.COMMAND.resolve()
    if target != layout.PREFIX / "foya":
        raise CheckFailed(f"{layout.COMMAND} points at {target}, not {layout.PREFIX / 'foya'}")
    version = _must("foya", "--version").strip()
    if version != f"foya {ver}":
        raise CheckFailed(f"`foya --version` says {version!r}, expected 'foya {ver}'")


def check_depends_cover_links(deb: Path) -> None:
    """Every system library the bundle links belongs to a package ``Depends`` names (dpkg -S)."""
    depends = _must("dpkg-deb", "--field", str(deb), "Depends")
    declared = {_name(alt) for alt in re.split(r"[,|]", depends)}
    cache = _must("ldconfig", "-p")
    uncovered = []
    for soname in sorted(elf_needs.needs(layout.PREFIX).sonames):
        match = re.search(rf"^\s+{re.escape(soname)} \(libc6,x86-64\) => (\S+)$", cache, re.M)
        if match is None:
            uncovered.append(f"{soname} (not on this machine)")
            continue
        packages = _owners(match.group(1))
        if not packages & declared:
            uncovered.append(f"{soname} (from {', '.join(sorted(packages)) or 'no package'})")
    if uncovered:
        raise CheckFailed(f"Depends does not cover: {'; '.join(uncovered)}")


def _owners(library: str) -> set[str]:
    """Packages owning ``library`` under any of its names (merged /usr: dpkg knows /lib paths)."""
    real = os.path.realpath(library)
    for path in dict.fromkeys([library, real, real.removeprefix("/usr")]):
        owner = _run("dpkg", "-S", path)
        if owner.returncode == 0:
            return {line.split(":")[0] for line in owner.stdout.splitlines()}
    return set()


def check_desktop_files() -> None:
    """The installed entry and metainfo pass the freedesktop and AppStream validators."""
    entry = layout.SHARE / "applications" / f"{DESKTOP_ID}.desktop"
    _must(_tool("desktop-file-validate", "desktop-file-utils"), str(entry))
    _must(_tool("appstreamcli", "appstream"), "validate", "--no-net",
          str(layout.SHARE / "metainfo" / f"{DESKTOP_ID}.metainfo.xml"))


def check(deb: Path) -> int:
    """Run every check; print one line per check; 0 when all pass, else 1 with the reason."""
    if os.geteuid() != 0:
        print("check_deb.py installs the package on this machine: run it as root (CI, or a throw-away VM).",
              file=sys.stderr)
        return 1
    if not deb.is_file():
        print(f"No package at {deb}: build it with packaging/build_deb.py.", file=sys.stderr)
        return 1
    ver = _must("dpkg-deb", "--field", str(deb), "Version").strip()
    started = time.perf_counter()
    try:
        print(check_lintian(deb))
        if _installed(layout.PACKAGE):
            _must("dpkg", "--purge", layout.PACKAGE)
        satisfy_depends(deb)
        before = snapshot()
        _must("dpkg", "-i", str(deb))
        try:
            print("check: dpkg -i ok")
            check_installed_layout(ver)
            print(f"check: layout ok; foya --version = foya {ver}")
            check_depends_cover_links(deb)
            print("check: every system library the bundle links is in Depends")
            painted = build_bundle.first_paint(["foya"])
            print(f"check: smoke start: first paint {painted:.2f} s after start")
            check_desktop_files()
            print("check: desktop-file-validate and appstreamcli validate ok")
        finally:
            _must("dpkg", "-r", layout.PACKAGE)
        left = sorted(snapshot() - before)
        if left:
            raise CheckFailed(f"dpkg -r left {len(left)} paths behind: {', '.join(left[:20])}")
        print("check: dpkg -r left nothing behind")
        _must("dpkg", "--purge", layout.PACKAGE)
        if _installed(layout.PACKAGE):
            raise CheckFailed("dpkg --purge left the package in dpkg's database")
        print("check: dpkg --purge ok")
    except (CheckFailed, SystemExit) as failure:  # SystemExit: build_bundle.first_paint's failure
        print(f"check_deb: FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"check_deb: {deb.name} passed every check in {time.perf_counter() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``check_deb.py DEB``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deb", type=Path, nargs="?", help="the package (default: this version's in dist/)")
    args = parser.parse_args(argv)
    return check(args.deb or build_bundle.ROOT / "dist" / layout.deb_name(layout.version()))


if __name__ == "__main__":
    raise SystemExit(main())
