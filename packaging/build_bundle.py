"""Build the one-folder bundle with PyInstaller and smoke-test it.

    python3 packaging/build_bundle.py            # build into dist/foya/
    python3 packaging/build_bundle.py --smoke    # build, then start it offscreen and wait for first paint

A separate venv (``build/bundle-venv``) holds a *non-editable* install of this
checkout plus PyInstaller, so the bundle contains exactly what a wheel would.
The smoke test runs the bundled ``foya`` with ``QT_QPA_PLATFORM=offscreen``
and ``FOYA_SMOKE_QUIT_MS`` (the app prints ``foya: first paint`` and quits),
against a throw-away data folder; it prints the bundle's size and the time
from start to first paint. Linux is what this runs on here; macOS and Windows
steps are in packaging/README.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYINSTALLER = "pyinstaller>=6.10,<7"


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def build(python: str) -> Path:
    """Install into a fresh build venv and run PyInstaller; return the bundle folder."""
    venv = ROOT / "build" / "bundle-venv"
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(_venv_python(venv)), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, str(ROOT), PYINSTALLER], check=True)
    dist = ROOT / "dist"
    subprocess.run([str(_venv_python(venv)), "-m", "PyInstaller", "--noconfirm", "--clean",
                    "--distpath", str(dist), "--workpath", str(ROOT / "build" / "pyinstaller"),
                    str(ROOT / "packaging" / "foya.spec")], check=True, cwd=ROOT / "packaging")
    return dist / "foya"


def folder_size(folder: Path) -> int:
    """Bytes of every regular file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def smoke(bundle: Path) -> float:
    """Start the bundled window offscreen; return seconds to first paint (raises on failure)."""
    exe = bundle / ("foya.exe" if os.name == "nt" else "foya")
    seconds = first_paint([str(exe)])
    version = subprocess.run([str(exe), "--version"], capture_output=True, text=True, check=True)
    print(f"bundle: {version.stdout.strip()} ok")
    return seconds


def first_paint(command: list[str]) -> float:
    """Seconds from starting ``command`` (the window, offscreen, fresh data folder) to its first paint."""
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "FOYA_HOME": home, "FOYA_SMOKE_QUIT_MS": "500"}
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert proc.stdout is not None
        painted = None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "foya: first paint" in line and painted is None:
                painted = time.perf_counter() - started
        code = proc.wait(timeout=120)
        if painted is None or code != 0:
            raise SystemExit(f"smoke test of {command[0]} failed (exit {code}):\n{''.join(lines)}")
        return painted


def main(argv: list[str] | None = None) -> int:
    """Build (and with --smoke, test) the bundle."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="start the bundle offscreen after building")
    parser.add_argument("--no-build", action="store_true", help="smoke-test an existing dist/foya")
    parser.add_argument("--python", default=sys.executable, help="interpreter for the build venv (>= 3.12)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    bundle = ROOT / "dist" / "foya" if args.no_build else build(args.python)
    if not args.no_build:
        print(f"bundle: built {bundle} in {time.perf_counter() - started:.0f} s")
    print(f"bundle: {folder_size(bundle) / 1e6:.0f} MB in {bundle}")
    if args.smoke:
        bundled = smoke(bundle)
        # The same window from this checkout's venv, measured in the same run: the ratio means
        # something on a busy machine, the seconds alone do not.
        source = first_paint([sys.executable, "-m", "foya_desktop"])
        print(f"bundle: first paint {bundled:.2f} s after start; from the venv {source:.2f} s "
              f"(bundle/venv = {bundled / source:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
