"""Pack the bundle as ``dist/foya-desktop-<version>-linux-x86_64.tar.gz`` and check it.

    python3 packaging/build_tarball.py           # from an existing dist/foya (build_bundle.py)
    python3 packaging/build_tarball.py --check   # then unpack it somewhere new and try it

For machines the .deb does not fit (another distribution, no root): unpack anywhere, run
``./foya`` from the folder, and ``./foya install-desktop`` puts *that* folder's ``foya`` in the
application menu (the entry's ``Exec`` is the absolute path, see ``cli/install_desktop.py``).
The check does exactly that in a temporary folder: ``--version``, the smoke start to first
paint, ``install-desktop --prefix`` with ``desktop-file-validate`` on the entry, ``--uninstall``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import build_bundle
import build_deb
import deb_layout as layout
import elf_needs

from foya_desktop import DESKTOP_ID

README = """\
Foya {version} for Linux x86-64 (glibc {libc} or newer), a self-contained folder.

  ./foya                     start the window
  ./foya install-desktop     add this folder's Foya to the application menu
                             (./foya install-desktop --uninstall takes it out again)
  ./foya --help              the command line

To use `foya` from a terminal, link it into a folder on your PATH, e.g.
  ln -s "$PWD/foya" ~/.local/bin/foya
Debian and Ubuntu: the foya-desktop_{version}_amd64.deb package installs the same for all users.
"""


def tarball_name(ver: str) -> str:
    """``foya-desktop-<version>-linux-x86_64.tar.gz``."""
    return f"{layout.PACKAGE}-{ver}-linux-x86_64.tar.gz"


def _reset_owner(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """Unpacked by anyone, owned by whoever unpacks it: no build machine's user in the archive."""
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def build_tarball(bundle: Path, out_dir: Path = build_deb.DIST) -> Path:
    """Pack ``bundle`` (its version checked against pyproject.toml) under ``foya-desktop-<version>/``."""
    ver = build_deb.checked_version(bundle)
    top = f"{layout.PACKAGE}-{ver}"
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / tarball_name(ver)
    libc = elf_needs.needs(bundle).libc_minimum or "2.28"
    with tempfile.TemporaryDirectory() as scratch:
        readme = Path(scratch) / "README.txt"
        readme.write_text(README.format(version=ver, libc=libc), encoding="utf-8")
        with tarfile.open(target, "w:gz", compresslevel=6) as archive:
            archive.add(bundle, arcname=top, filter=_reset_owner)
            archive.add(readme, arcname=f"{top}/README.txt", filter=_reset_owner)
    return target


def check_tarball(tarball: Path) -> int:
    """Unpack into a new folder and use it as a person would; 0 when every step works."""
    ver = layout.version()
    with tempfile.TemporaryDirectory() as scratch:
        place = Path(scratch)
        with tarfile.open(tarball) as archive:
            archive.extractall(place, filter="data")
        exe = place / f"{layout.PACKAGE}-{ver}" / "foya"
        env = {**os.environ, "FOYA_HOME": str(place / "home")}
        version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, env=env, check=True)
        if version.stdout.strip() != f"foya {ver}":
            raise SystemExit(f"{exe} --version says {version.stdout.strip()!r}, expected 'foya {ver}'")
        painted = build_bundle.first_paint([str(exe)])
        share = place / "share"
        subprocess.run([str(exe), "install-desktop", "--prefix", str(share)], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        entry = share / "applications" / f"{DESKTOP_ID}.desktop"
        validator = shutil.which("desktop-file-validate")
        if validator is None:
            raise SystemExit("desktop-file-validate is missing: apt-get install desktop-file-utils")
        subprocess.run([validator, str(entry)], check=True)
        exec_line = next(line for line in entry.read_text(encoding="utf-8").splitlines()
                         if line.startswith("Exec="))
        if Path(shlex.split(exec_line.removeprefix("Exec="))[0]) != exe:
            raise SystemExit(f"the unpacked folder's menu entry does not start {exe}: {exec_line}")
        subprocess.run([str(exe), "install-desktop", "--uninstall", "--prefix", str(share)], env=env,
                       check=True, stdout=subprocess.DEVNULL)
        if entry.exists():
            raise SystemExit("install-desktop --uninstall left the menu entry behind")
    print(f"tarball: {tarball.name}: --version, first paint {painted:.2f} s, install-desktop "
          "(entry valid, Exec is the unpacked foya), --uninstall ok")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Build (and with --check, check) the tarball."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=build_deb.DIST / "foya", help="the one-folder bundle")
    parser.add_argument("--check", action="store_true", help="unpack the result and try it")
    args = parser.parse_args(argv)
    tarball = build_tarball(args.bundle)
    print(f"tarball: {tarball} ({tarball.stat().st_size / 1e6:.0f} MB)")
    return check_tarball(tarball) if args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())
