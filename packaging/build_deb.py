"""Build ``dist/foya-desktop_<version>_amd64.deb`` from the PyInstaller bundle with ``dpkg-deb``.

    python3 packaging/build_deb.py                  # from an existing dist/foya (build_bundle.py)
    python3 packaging/build_deb.py --build-bundle   # build the bundle first
    python3 packaging/build_deb.py --check          # then run check_deb.py on the result (root)

The package tree is staged in ``build/deb/root``: the bundle under ``/opt/foya-desktop``,
``/usr/bin/foya`` as a symlink to it, and the desktop entry, icons and metainfo written into
``/usr/share`` by the same code as ``foya install-desktop`` (so there is no second copy of the
``.desktop`` text). ``Depends`` comes from the libraries the bundle's ELF files link but do not
carry (``elf_needs.py``), mapped to packages in ``deb_layout.py``. No maintainer scripts: the
menu and icon caches are refreshed by dpkg's triggers from desktop-file-utils and hicolor-icon-theme.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import build_bundle
import deb_layout as layout
import elf_needs

from foya_desktop.cli.install_desktop import install

STAGE = build_bundle.ROOT / "build" / "deb"
DIST = build_bundle.ROOT / "dist"


def checked_version(bundle: Path) -> str:
    """pyproject.toml's version, after checking the bundle reports it (a stale ``dist/foya`` is refused)."""
    ver = layout.version()
    exe = bundle / "foya"
    if not exe.is_file():
        raise SystemExit(f"No bundle at {bundle}: run packaging/build_bundle.py first "
                         "(or pass --build-bundle).")
    done = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{exe} --version failed (exit {done.returncode}): {done.stderr.strip()}")
    reported = done.stdout.strip().removeprefix("foya ")
    if reported != ver:
        raise SystemExit(f"The bundle in {bundle} is version {reported} but pyproject.toml says {ver}: "
                         "rebuild it (packaging/build_bundle.py).")
    return ver


def _write(path: Path, data: str | bytes, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    path.chmod(mode)


def _normalise_modes(root: Path) -> None:
    """0755 for folders and programs, 0644 for the rest (shared libraries too): what policy asks."""
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        library = re.search(r"\.so(\.\d+)*$", path.name) is not None
        executable = path.is_dir() or (path.stat().st_mode & 0o111 and not library)
        path.chmod(0o755 if executable else 0o644)


def stage(bundle: Path, ver: str, root: Path = STAGE / "root") -> Path:
    """Lay out the package tree under ``root`` (replaced if it exists); return it."""
    if root.exists():
        shutil.rmtree(root)
    old_umask = os.umask(0o022)
    try:
        shutil.copytree(bundle, root / layout.PREFIX.relative_to("/"), symlinks=True)
        command = root / layout.COMMAND.relative_to("/")
        command.parent.mkdir(parents=True)
        command.symlink_to(layout.PREFIX / "foya")
        # The system-wide entry runs `foya` from PATH, i.e. /usr/bin/foya.
        install(root / layout.SHARE.relative_to("/"), [layout.COMMAND.name])
        doc = root / layout.DOC.relative_to("/")
        _write(doc / "copyright", layout.copyright_file())
        _write(doc / "changelog.gz", gzip.compress(layout.debian_changelog(ver).encode("utf-8"), mtime=0))
        _write(root / "usr" / "share" / "lintian" / "overrides" / layout.PACKAGE, layout.lintian_overrides())
    finally:
        os.umask(old_umask)
    _normalise_modes(root)
    return root


def _installed_kib(root: Path) -> int:
    """``Installed-Size``: KiB of the tree, each file rounded up as dpkg-gencontrol does."""
    return sum(-(-p.lstat().st_size // 1024) for p in root.rglob("*") if p.is_file() or p.is_symlink())


def _md5sums(root: Path) -> str:
    lines = []
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            digest = hashlib.md5(path.read_bytes(), usedforsecurity=False).hexdigest()
            lines.append(f"{digest}  {path.relative_to(root)}")
    return "\n".join(lines) + "\n"


def build_deb(bundle: Path, out_dir: Path = DIST, stage_root: Path = STAGE / "root") -> Path:
    """Stage (in ``stage_root``) and pack; return the ``.deb``'s path."""
    ver = checked_version(bundle)
    root = stage(bundle, ver, stage_root)
    needs = elf_needs.needs(root / layout.PREFIX.relative_to("/"))
    control = layout.control(ver, _installed_kib(root), layout.depends(needs.sonames, needs.libc_minimum))
    _write(root / "DEBIAN" / "md5sums", _md5sums(root))
    _write(root / "DEBIAN" / "control", control)
    out_dir.mkdir(parents=True, exist_ok=True)
    deb = out_dir / layout.deb_name(ver)
    if shutil.which("dpkg-deb") is None:
        raise SystemExit("dpkg-deb is missing: install the dpkg package (Debian/Ubuntu) to build the .deb.")
    # xz -1: measured 72 MB in 28 s of CPU against 64 MB in ~115 s at the default -6; lintian
    # (Debian 12) calls zstd members malformed, so xz it is.
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z1", "--build", str(root), str(deb)],
                   check=True, stdout=subprocess.DEVNULL)
    return deb


def main(argv: list[str] | None = None) -> int:
    """Build (and with --check, check) the .deb."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=DIST / "foya", help="the one-folder bundle")
    parser.add_argument("--build-bundle", action="store_true", help="run build_bundle.py first")
    parser.add_argument("--check", action="store_true", help="run check_deb.py on the built package")
    args = parser.parse_args(argv)
    bundle = build_bundle.build(sys.executable) if args.build_bundle else args.bundle
    deb = build_deb(bundle)
    print(f"deb: {deb} ({deb.stat().st_size / 1e6:.0f} MB)")
    if args.check:
        import check_deb

        return check_deb.check(deb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
