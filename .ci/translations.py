"""Build and check the window's translations (Qt Linguist ``.ts`` sources -> ``.qm`` catalogues).

    python .ci/translations.py update   # after changing strings: refresh the .ts, then translate
                                        # the new "unfinished" entries (Qt Linguist or an editor),
                                        # then run it again to rebuild the .qm
    python .ci/translations.py check    # CI: no string without a translation, .qm fresh

Why the ``.qm`` is checked in: an editable install (the README's) runs no build
step, and a bundle must not need Qt's tools; ``check`` proves it is what
``lrelease`` makes from the ``.ts`` now. ``.ts`` files carry no line numbers
(``-locations none``), so moving code around changes nothing.

The tools are PySide6-Essentials' ``pyside6-lupdate`` / ``pyside6-lrelease``
next to the running Python.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "foya_desktop"
TRANSLATIONS = PACKAGE / "ui" / "translations"
LANGUAGES = ("zh_CN", "en")
PLURAL_ONLY = ("en",)
"""English is the source text; its catalogue holds only the plural forms (``tr("%n file(s)", "", n)``)."""
REPORT = re.compile(r"Generated (\d+) translation\(s\) \((\d+) finished and (\d+) unfinished\)")
IGNORED = re.compile(r"Ignored (\d+) untranslated source text\(s\)")


def _tool(name: str) -> str:
    local = Path(sys.executable).with_name(f"pyside6-{name}")
    found = str(local) if local.exists() else shutil.which(f"pyside6-{name}")
    if not found:
        raise SystemExit(f"pyside6-{name} not found (install PySide6-Essentials in this venv)")
    return found


def sources() -> list[str]:
    """Every Python file whose strings the window shows."""
    files = [*sorted((PACKAGE / "ui").rglob("*.py")), PACKAGE / "app.py"]
    return [str(f.relative_to(ROOT)) for f in files]


def lupdate(ts: Path, lang: str) -> str:
    extra = ["-pluralonly"] if lang in PLURAL_ONLY else []
    command = [_tool("lupdate"), "-locations", "none", "-no-obsolete", *extra, *sources(), "-ts", str(ts)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return result.stdout + result.stderr


def lrelease(ts: Path, qm: Path) -> tuple[int, int, int]:
    """Compile; returns (finished, unfinished, ignored) parsed from lrelease's report."""
    result = subprocess.run([_tool("lrelease"), str(ts), "-qm", str(qm)],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    return parse_report(result.stdout + result.stderr)


def parse_report(text: str) -> tuple[int, int, int]:
    """(finished, unfinished, ignored) from lrelease's output; raises ValueError if it has no report."""
    match = REPORT.search(text)
    if match is None:
        raise ValueError(f"lrelease printed no report:\n{text}")
    ignored = IGNORED.search(text)
    return int(match[2]), int(match[3]), int(ignored[1]) if ignored else 0


def unfinished_sources(ts: Path) -> list[str]:
    """The source texts still marked unfinished (what a translator has to do)."""
    found = []
    for block in ts.read_text(encoding="utf-8").split("<message")[1:]:
        source = re.search(r"<source>(.*?)</source>", block, flags=re.S)
        if source and 'type="unfinished"' in block:
            found.append(html.unescape(source[1]))
    return found


def update() -> int:
    TRANSLATIONS.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        ts = TRANSLATIONS / f"foya_{lang}.ts"
        print(lupdate(ts, lang).strip())
        finished, unfinished, ignored = lrelease(ts, TRANSLATIONS / f"foya_{lang}.qm")
        print(f"{lang}: {finished} finished, {unfinished} unfinished, {ignored} untranslated")
        for source in unfinished_sources(ts):
            print(f"  to translate: {source}")
    return 0


def check() -> int:
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for lang in LANGUAGES:
            ts = TRANSLATIONS / f"foya_{lang}.ts"
            qm = TRANSLATIONS / f"foya_{lang}.qm"
            fresh_ts = Path(tmp) / ts.name
            shutil.copy(ts, fresh_ts)
            lupdate(fresh_ts, lang)
            missing = unfinished_sources(fresh_ts)
            if missing:
                failures.append(f"{lang}: {len(missing)} string(s) without a translation — run `python "
                                ".ci/translations.py update` and translate: " + "; ".join(missing[:20]))
            finished, unfinished, ignored = lrelease(fresh_ts, Path(tmp) / "fresh.qm")
            if unfinished or ignored:
                failures.append(f"{lang}: lrelease reports {unfinished} unfinished, {ignored} untranslated")
            built = Path(tmp) / qm.name
            lrelease(ts, built)
            if not qm.exists() or qm.read_bytes() != built.read_bytes():
                failures.append(f"{lang}: {qm.relative_to(ROOT)} is not what lrelease builds from the .ts — "
                                "run `python .ci/translations.py update` and commit it")
            print(f"{lang}: {finished} translations, {unfinished} unfinished, {ignored} untranslated")
    for failure in failures:
        print("FAIL", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in ("update", "check"):
        raise SystemExit(__doc__)
    raise SystemExit(update() if mode == "update" else check())
