"""Code and tests cite the repository's own documents, and what they cite exists.

A docstring that says why by pointing at a page (``docs/data.md "When storage fails"``) is only
useful while that page exists; the user guide moved out of README.md into ``docs/`` once, and a
citation left pointing at a README section that is no longer there sends the reader nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [p for folder in ("foya_desktop", "tests", "benchmarks", "packaging")
           for p in (ROOT / folder).rglob("*.py")]
DOC_PAGE = re.compile(r"\bdocs/[\w./-]+\.md\b")
README_SECTION = re.compile(r'README,? "([^"\n]+)"')


def _headings(page: Path) -> set[str]:
    return {line.lstrip("#").strip() for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def test_every_cited_docs_page_exists() -> None:
    """(The product's code only: tests name ``docs/…`` paths of the projects they make.)"""
    code = [src for src in SOURCES if src.relative_to(ROOT).parts[0] != "tests"]
    missing = sorted({f"{src.relative_to(ROOT)}: {page}" for src in code
                      for page in DOC_PAGE.findall(src.read_text(encoding="utf-8"))
                      if not (ROOT / page).is_file()})
    assert missing == []


def test_every_cited_readme_section_is_a_heading_of_the_readme() -> None:
    headings = _headings(ROOT / "README.md")
    stale = sorted({f"{src.relative_to(ROOT)}: README \"{title}\"" for src in SOURCES
                    for title in README_SECTION.findall(src.read_text(encoding="utf-8"))
                    if title not in headings})
    assert stale == []
