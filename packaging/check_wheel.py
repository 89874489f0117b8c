"""Build the wheel and try it as ``pipx install`` / ``uv tool install`` would use it.

    python3 packaging/check_wheel.py

``pip wheel --no-deps`` builds ``dist/foya_desktop-<version>-py3-none-any.whl``; a fresh venv
(no system site-packages, nothing from this checkout) installs it with its dependencies; its
``foya --version`` must print pyproject.toml's version and its ``foya`` must reach the first
paint offscreen. pipx and uv do the same (a venv of their own plus the console scripts on the
PATH), so a wheel that passes here is one they accept.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import build_bundle
import deb_layout as layout


def build_wheel(out_dir: Path) -> Path:
    """``pip wheel --no-deps`` of this checkout into ``out_dir``; return the wheel."""
    ver = layout.version()
    for old in out_dir.glob("foya_desktop-*.whl"):
        old.unlink()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out_dir),
                    str(build_bundle.ROOT)], check=True)
    wheel = out_dir / f"foya_desktop-{ver}-py3-none-any.whl"
    if not wheel.is_file():
        raise SystemExit(f"pip wheel did not produce {wheel.name} in {out_dir}.")
    return wheel


def check_wheel(wheel: Path) -> float:
    """Install into a fresh venv, check ``--version`` and the first paint; return the seconds to paint."""
    ver = layout.version()
    with tempfile.TemporaryDirectory() as scratch:
        venv = Path(scratch) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True)
        foya = venv / "bin" / "foya"
        version = subprocess.run([str(foya), "--version"], capture_output=True, text=True, check=True)
        if version.stdout.strip() != f"foya {ver}":
            raise SystemExit(f"the wheel's foya --version says {version.stdout.strip()!r}, "
                             f"expected 'foya {ver}'")
        return build_bundle.first_paint([str(foya)])


def main() -> int:
    """Build, install, check; print what it took."""
    started = time.perf_counter()
    wheel = build_wheel(build_bundle.ROOT / "dist")
    built = time.perf_counter() - started
    painted = check_wheel(wheel)
    print(f"wheel: {wheel.name} ({wheel.stat().st_size / 1e6:.1f} MB, built in {built:.0f} s); fresh venv: "
          f"foya --version ok, first paint {painted:.2f} s; {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
