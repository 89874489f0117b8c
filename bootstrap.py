#!/usr/bin/env python3
"""Set up Foya Desktop from a checkout: find a suitable Python, make ``.venv``, install.

    python3 bootstrap.py            # .venv with the app and the test tools
    python3 bootstrap.py --no-dev   # the app only

Why a script and not ``python3.12 -m venv``: Foya needs Python >= 3.12
(PySide6 6.12 on 3.11 aborts in ``none_dealloc``, measured: see README), but a
stock Debian 12 answers ``python3`` with 3.11 and a pyenv-installed 3.12 is not
on the PATH as ``python3.12`` unless it is the global version. This script
runs on any Python 3.8+, looks where such interpreters live (PATH names, the
``py`` launcher, pyenv, uv, asdf, Homebrew, python.org's macOS frameworks),
and says in one sentence what to install when none is there. ``.ci/run``
uses it too, so CI sets up exactly as a newcomer does.
"""

from __future__ import annotations

import argparse
import glob
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

MINIMUM = (3, 12)
HERE = Path(__file__).resolve().parent


def _version(python: str) -> tuple[int, int] | None:
    """``(major, minor)`` of an interpreter that starts, else None."""
    try:
        out = subprocess.run([python, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.stdout.split()
    if out.returncode != 0 or len(parts) != 2:
        return None
    return int(parts[0]), int(parts[1])


def _candidates() -> list[str]:
    """Interpreters to try, most specific first; 3.12 (what CI tests) before newer minors."""
    found: list[str] = []
    if sys.version_info[:2] >= MINIMUM:
        found.append(sys.executable)
    for minor in (12, 13, 14):
        for name in (f"python3.{minor}", f"python3{minor}"):
            path = shutil.which(name)
            if path:
                found.append(path)
    if os.name == "nt" and shutil.which("py"):
        for minor in (12, 13, 14):
            out = subprocess.run(["py", f"-3.{minor}", "-c", "import sys; print(sys.executable)"],
                                 capture_output=True, text=True, check=False)
            if out.returncode == 0:
                found.append(out.stdout.strip())
    roots = []
    pyenv = shutil.which("pyenv")
    if pyenv:
        out = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False)
        if out.returncode == 0:
            roots.append(Path(out.stdout.strip()) / "versions")
    home = Path.home()
    roots += [home / ".pyenv" / "versions", Path(os.environ.get("PYENV_ROOT", home / ".pyenv")) / "versions",
              home / ".asdf" / "installs" / "python", home / ".local" / "share" / "uv" / "python"]
    patterns = []
    for root in roots:
        patterns += [str(root / "3.1[2-9]*" / "bin" / "python3"),
                     str(root / "cpython-3.1[2-9]*" / "bin" / "python3")]
    patterns += ["/opt/homebrew/bin/python3.1[2-9]", "/usr/local/bin/python3.1[2-9]",
                 "/Library/Frameworks/Python.framework/Versions/3.1[2-9]/bin/python3"]
    for pattern in patterns:
        found += sorted(glob.glob(pattern), key=_natural)
    uv = shutil.which("uv")
    if uv:
        out = subprocess.run([uv, "python", "find", ">=3.12"], capture_output=True, text=True, check=False)
        if out.returncode == 0 and out.stdout.strip():
            found.append(out.stdout.strip())
    python3 = shutil.which("python3")
    if python3:
        found.append(python3)
    unique: list[str] = []
    for path in found:
        if path not in unique:
            unique.append(path)
    return unique


def _natural(path: str) -> list[object]:
    """Sort key so 3.12.10 comes after 3.12.9 and 3.12 before 3.13."""
    import re

    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path)]


def find_python() -> str | None:
    """The first candidate whose version is at least :data:`MINIMUM`."""
    for path in _candidates():
        version = _version(path)
        if version is not None and version >= MINIMUM:
            return path
    return None


def main(argv: list[str] | None = None) -> int:
    """Create ``.venv`` and install; return the exit code."""
    parser = argparse.ArgumentParser(description="Set up Foya Desktop in .venv")
    parser.add_argument("--no-dev", action="store_true", help="install the app without the test tools")
    parser.add_argument("--venv", default=str(HERE / ".venv"),
                        help="where to create the venv (default .venv)")
    parser.add_argument("--print-python", action="store_true", help="only print the interpreter found")
    link = parser.add_mutually_exclusive_group()
    link.add_argument("--link", dest="link", action="store_const", const=True,
                      help="put foya on the PATH (a link in ~/.local/bin) without asking")
    link.add_argument("--no-link", dest="link", action="store_const", const=False,
                      help="do not link; print the command that would")
    args = parser.parse_args(argv)
    python = find_python()
    if python is None:
        print("bootstrap: Foya needs Python 3.12 or newer and none was found (PATH, py, pyenv, uv, asdf, "
              "Homebrew). Install one — e.g. `uv python install 3.12`, `pyenv install 3.12`, or your "
              "system's python3.12 package — and run this again.", file=sys.stderr)
        return 1
    if args.print_python:
        print(python)
        return 0
    venv = Path(args.venv)
    print(f"bootstrap: using {python} (Python {'.'.join(map(str, _version(python) or ()))})")
    if venv.exists() and _version(str(_venv_python(venv))) is None:
        print(f"bootstrap: {venv} is broken; recreating it")
        shutil.rmtree(venv)
    if not venv.exists():
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
    pip = [str(_venv_python(venv)), "-m", "pip"]
    subprocess.run([*pip, "install", "-q", "--upgrade", "pip"], check=True)
    target = str(HERE) if args.no_dev else f"{HERE}[dev]"
    subprocess.run([*pip, "install", "-q", "-e", target], check=True)
    foya = venv / ("Scripts" if os.name == "nt" else "bin") / "foya"
    print("bootstrap: done.")
    on_path = offer_path_link(foya.absolute(), args.link)
    command = "foya" if on_path else str(foya)
    print(f"bootstrap: start the window with `{command}`; "
          f"add it to your desktop's menu with `{command} install-desktop`")
    return 0


def local_bin() -> Path:
    """``~/.local/bin``: the per-user folder for commands (XDG; pipx and uv use it too)."""
    return Path.home() / ".local" / "bin"


def _on_path(folder: Path) -> bool:
    entries = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    return any(Path(p).expanduser().resolve() == folder.resolve() for p in entries)


def link_line(foya: Path) -> str:
    """The one shell line that puts ``foya`` on the PATH as :func:`offer_path_link` would."""
    return f"mkdir -p ~/.local/bin && ln -s {shlex.quote(str(foya))} ~/.local/bin/foya"


def offer_path_link(foya: Path, answer: bool | None) -> bool:
    """Link ``~/.local/bin/foya`` to ``foya`` when the person agrees; True when ``foya`` now runs as is.

    Why a link and not a PATH edit: the README's examples say ``foya ...``, and a link in the
    folder Debian's and Ubuntu's ``~/.profile`` already put on the PATH makes them work without
    touching any shell file. ``answer`` None asks on a terminal and, with no terminal (CI, a
    pipe), only prints the line that does it. An existing ``foya`` there is never replaced.
    """
    if os.name == "nt":
        return False
    bin_dir, line = local_bin(), link_line(foya)
    if answer is None and sys.stdin.isatty():
        try:
            reply = input(f"bootstrap: put `foya` on your PATH (a link {bin_dir / 'foya'} -> {foya})? [Y/n] ")
        except EOFError:
            reply = "n"
        answer = reply.strip().lower() in ("", "y", "yes")
    if not answer:
        print(f"bootstrap: to run `foya` by name, link it into a folder on your PATH:\n    {line}")
        return False
    link = bin_dir / "foya"
    if link.is_symlink() and Path(os.readlink(link)) == foya:
        print(f"bootstrap: {link} already links to {foya}")
    elif link.exists() or link.is_symlink():
        print(f"bootstrap: {link} exists and is not a link to this checkout's foya; left it alone "
              f"(remove it and run this again to replace it)")
        return False
    else:
        bin_dir.mkdir(parents=True, exist_ok=True)
        link.symlink_to(foya)
        print(f"bootstrap: linked {link} -> {foya}")
    if _on_path(bin_dir):
        print(f"bootstrap: {bin_dir} is on your PATH, so `foya` works now")
        return True
    profile = Path.home() / ".profile"
    adds_it = profile.is_file() and ".local/bin" in profile.read_text(encoding="utf-8", errors="replace")
    print(f"bootstrap: {bin_dir} is not on this shell's PATH"
          + (" (your ~/.profile adds it at your next login)" if adds_it else "")
          + "; for this shell run:\n    export PATH=\"$HOME/.local/bin:$PATH\""
          + ("" if adds_it else "\n  and to keep it, add that line to ~/.profile"))
    return False


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except subprocess.CalledProcessError as error:
        print(f"bootstrap: `{' '.join(map(str, error.cmd))}` failed (exit {error.returncode}); "
              "its output is above.", file=sys.stderr)
        raise SystemExit(error.returncode) from None
