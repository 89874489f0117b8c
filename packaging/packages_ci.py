"""Build and check the .deb and the tarball when what they are made of changed (CI's packages stage).

    python3 packaging/packages_ci.py            # build + check only if the inputs changed
    python3 packaging/packages_ci.py --force    # always (FOYA_CI_PACKAGES=1 does the same)
    python3 packaging/packages_ci.py --status   # print the decision and the hashes, do nothing

Why not every run: the bundle, the .deb and their checks take minutes on two cores, and
almost no change touches them. The decision is a SHA-256 over the inputs (:func:`inputs`):
every file in ``packaging/`` but its README, the ``[project]``, ``[build-system]`` and
``[tool.setuptools]`` tables of ``pyproject.toml`` (dependencies, scripts, package data and
the version, so a release's version bump always builds), the package's resources (icons,
metainfo) and the desktop-entry generator. After every check passed, the hash is written to
``packaging/checked-inputs.sha256``; commit that file with the change. A checkout whose
inputs hash differs from the recorded one builds and checks; one that matches skips.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import build_bundle
import build_deb
import build_tarball
import check_deb

ROOT = build_bundle.ROOT
RECORD = ROOT / "packaging" / "checked-inputs.sha256"
INPUT_TREES = ("packaging", "foya_desktop/resources")
INPUT_FILES = ("foya_desktop/cli/install_desktop.py", "foya_desktop/_version.py")
NOT_INPUTS = ("packaging/README.md", "packaging/checked-inputs.sha256")
PYPROJECT_TABLES = (("project",), ("build-system",), ("tool", "setuptools"))
TOOLS = {"lintian": "lintian", "readelf": "binutils", "dpkg-deb": "dpkg", "desktop-file-validate":
         "desktop-file-utils", "appstreamcli": "appstream"}
"""Commands the build and the checks run -> the Debian package that has each."""


def input_files(root: Path = ROOT) -> list[Path]:
    """The files whose bytes decide, sorted; caches and build output left out."""
    files = [root / name for name in INPUT_FILES]
    for tree in INPUT_TREES:
        files += [p for p in (root / tree).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return sorted(p for p in set(files) if str(p.relative_to(root)) not in NOT_INPUTS)


def inputs(root: Path = ROOT) -> str:
    """The SHA-256 of every input: file paths with their bytes, then the pyproject tables as JSON."""
    digest = hashlib.sha256()
    for path in input_files(root):
        digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    for keys in PYPROJECT_TABLES:
        table: object = pyproject
        for key in keys:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        digest.update(json.dumps([keys, table], sort_keys=True).encode())
    return digest.hexdigest()


def recorded(record: Path = RECORD) -> str | None:
    """The hash of the last build that passed every check, if one was recorded."""
    try:
        lines = record.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return None
    return next((line.split()[0] for line in lines if line and not line.startswith("#")), None)


def record(digest: str, path: Path = RECORD) -> None:
    """Write ``digest`` as the checked inputs."""
    path.write_text("# SHA-256 of the packaging inputs whose .deb and tarball last passed every check\n"
                    "# (written by packaging/packages_ci.py; commit it with the change)\n"
                    f"{digest}\n", encoding="utf-8")


def install_tools() -> None:
    """apt-get install what the build and the checks run, when missing (CI machines start bare)."""
    missing = sorted({pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None})
    if not missing:
        return
    if os.geteuid() != 0:
        raise SystemExit(f"Missing tools; install them first: sudo apt-get install {' '.join(missing)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True,
                   env=env)


def build_and_check() -> int:
    """Bundle, .deb, tarball, each checked; the exit code."""
    install_tools()
    started = time.perf_counter()
    bundle = build_bundle.build(sys.executable)
    print(f"packages: bundle built in {time.perf_counter() - started:.0f} s "
          f"({build_bundle.folder_size(bundle) / 1e6:.0f} MB)")
    deb = build_deb.build_deb(bundle)
    print(f"packages: {deb.name} ({deb.stat().st_size / 1e6:.0f} MB)")
    if check_deb.check(deb) != 0:
        return 1
    tarball = build_tarball.build_tarball(bundle)
    print(f"packages: {tarball.name} ({tarball.stat().st_size / 1e6:.0f} MB)")
    build_tarball.check_tarball(tarball)
    print(f"packages: built and checked in {time.perf_counter() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Decide, then build and check (or say why not)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build and check whatever the hash says")
    parser.add_argument("--status", action="store_true", help="print the decision only")
    args = parser.parse_args(argv)
    current, last = inputs(), recorded()
    forced = args.force or os.environ.get("FOYA_CI_PACKAGES") == "1"
    if args.status or (current == last and not forced):
        decision = "build" if forced or current != last else "skip"
        print(f"packages: inputs {current[:12]}, last checked {(last or 'never')[:12]}: {decision}"
              + ("" if decision == "build" else " (FOYA_CI_PACKAGES=1 forces a build)"))
        return 0
    print(f"packages: {'forced' if forced else 'inputs changed'} ({current[:12]}, last checked "
          f"{(last or 'never')[:12]}): building the bundle, the .deb and the tarball")
    code = build_and_check()
    if code == 0:
        record(current)
        print(f"packages: recorded {current[:12]} in {RECORD.relative_to(ROOT)} (commit it)")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
