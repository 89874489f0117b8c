"""Every data file the app loads at run time ships in the wheel (issue 12: the ``.qm`` catalogues
"built at install or packaged"; also the icons and the desktop metadata).

Python modules are packaged by ``packages.find``; anything else reaches an installed Foya only
through ``[tool.setuptools.package-data]``. A new icon or catalogue that no glob there names would
work from a checkout and be missing after ``pip install`` — this test fails first. (Checked by hand
once against a built wheel: ``pip wheel --no-deps .`` holds both ``.qm`` files.)
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import foya_desktop

ROOT = Path(foya_desktop.__file__).parent
PYPROJECT = ROOT.parent / "pyproject.toml"


def _matches(relative: str, pattern: str) -> bool:
    """A setuptools package-data glob: ``*`` stays inside one folder."""
    parts, globs = relative.split("/"), pattern.split("/")
    return len(parts) == len(globs) and all(fnmatch.fnmatchcase(p, g) for p, g in zip(parts, globs, strict=True))


def test_every_data_file_in_the_package_is_named_by_package_data() -> None:
    globs = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["foya_desktop"]
    data = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts)
    assert any(d.endswith(".qm") for d in data) and any(d.endswith(".svg") for d in data)
    missing = [d for d in data if not any(_matches(d, g) for g in globs)]
    assert missing == [], f"not packaged (add a glob to [tool.setuptools.package-data]): {missing}"


def test_the_glob_rule_is_setuptools_one() -> None:
    assert _matches("ui/translations/foya_zh_CN.qm", "ui/translations/*.qm")
    assert not _matches("ui/translations/extra/foya.qm", "ui/translations/*.qm")
    assert _matches("resources/icons/hicolor/64x64/apps/io.github.foya.Foya.png",
                    "resources/icons/hicolor/*/apps/*.png")
