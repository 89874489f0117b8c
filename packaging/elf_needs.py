"""The system libraries a bundle needs: ``DT_NEEDED`` entries it does not carry itself.

What ``dpkg-shlibdeps`` does for a Debian source build, done on a finished folder (a
PyInstaller bundle has no ``debian/`` source tree): every ELF file's needed sonames, minus
the sonames of the bundle's own libraries, plus the newest ``GLIBC_x.y`` symbol version
any of them asks for (that is the ``libc6`` version the package must depend on).
Uses ``readelf`` from binutils.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ELF_MAGIC = b"\x7fELF"


@dataclass(frozen=True, slots=True)
class Needs:
    """What the bundle asks of the system."""

    sonames: set[str]
    libc_minimum: str | None


def elf_files(folder: Path) -> list[Path]:
    """Regular files under ``folder`` that start with the ELF magic."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == ELF_MAGIC:
                    found.append(path)
    return found


def _readelf(args: list[str], path: Path) -> str:
    done = subprocess.run(["readelf", "--wide", *args, str(path)], capture_output=True, text=True,
                          check=False)
    return done.stdout if done.returncode == 0 else ""


def needs(folder: Path) -> Needs:
    """The sonames ``folder``'s ELF files need that no file in ``folder`` provides."""
    files = elf_files(folder)
    provided = {p.name for p in folder.rglob("*.so*")}
    needed: set[str] = set()
    newest: tuple[int, ...] = ()
    for path in files:
        dynamic = _readelf(["--dynamic"], path)
        needed.update(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))
        for match in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", _readelf(["--version-info"], path)):
            newest = max(newest, tuple(int(n) for n in match.split(".")))
    libc = ".".join(map(str, newest)) if newest else None
    return Needs(needed - provided, libc)
