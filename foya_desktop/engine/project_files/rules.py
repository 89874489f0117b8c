"""Rules: ``AGENTS.md`` (or ``CLAUDE.md`` where a folder has no ``AGENTS.md``) per folder.

The user-level file (``AGENTS.md`` in the data folder) comes first, then the
project root's, then each folder's down to the workdir: later files are more
specific and win where they disagree (the Codex convention, which Claude
Code follows for ``CLAUDE.md``). All of it is sent within
:data:`RULES_BUDGET_CHARS`; what does not fit is cut and the model is told so.

Every file is read confined (``tools.confined_read``): a project's rules file
that is a link out of the project, a hard link, a pseudo-file or too large is
refused and reported, never sent. The first name that exists in a folder is the
one that counts, so a refused ``AGENTS.md`` is reported, not quietly replaced by
the folder's ``CLAUDE.md``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.locations import USER_RULES, Locations
from foya_desktop.engine.project_files.problems import Problem, why_unusable
from foya_desktop.tools.confined_read import OWN, Confinement

RULE_NAMES = ("AGENTS.md", "CLAUDE.md")
"""Per folder the first that exists is used (``CLAUDE.md`` only where there is no ``AGENTS.md``)."""
RULES_BUDGET_CHARS = 32_000
"""At most this many characters of rules go into a request (about 8,000 tokens; Codex's
default ``project_doc_max_bytes`` is 32 KiB)."""


@dataclass(frozen=True, slots=True)
class RuleFile:
    """One rules file in effect."""

    path: str
    scope: Literal["user", "project"]
    chars: int
    """Its length in characters."""
    sent_chars: int
    """How many of them fit in the budget (``< chars``: truncated; 0: left out)."""

    @property
    def truncated(self) -> bool:
        """Not all of it is sent."""
        return self.sent_chars < self.chars


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in effect for one session, and the text sent to the model."""

    files: tuple[RuleFile, ...]
    text: str
    """The prompt section (empty when there are no rules)."""
    problems: tuple[Problem, ...] = ()
    """Rules files that were not used, and why (refused by confinement, not UTF-8…)."""
    other_refusals: tuple[Problem, ...] = ()
    """For the rules in effect only: skill, agent and ``.mcp.json`` files that confinement refused
    (their content would have reached requests the same way)."""

    @property
    def truncated(self) -> bool:
        """Some rules did not fit in the budget."""
        return any(f.truncated for f in self.files)


def rule_paths(where: Locations) -> list[tuple[Path, Literal["user", "project"]]]:
    """Candidate files, most general first (only the first existing name per folder counts; a
    link counts as existing, so that a refused one is reported)."""
    paths: list[tuple[Path, Literal["user", "project"]]] = [(where.user / USER_RULES, "user")]
    for folder in where.folders:
        found = next((folder / n for n in RULE_NAMES if os.path.lexists(folder / n)), None)
        if found is not None:
            paths.append((found, "project"))
    return paths


def load_rules(where: Locations, cache: TextCache, budget: int = RULES_BUDGET_CHARS) -> Rules:
    """Read the rules files (cached by mtime) and fit them in ``budget`` characters."""
    texts: list[tuple[Path, Literal["user", "project"], str]] = []
    problems: list[Problem] = []
    for path, scope in rule_paths(where):
        confinement: Confinement = OWN if scope == "user" else where.project
        try:
            text = cache.read(path, confinement)
        except (OSError, UnicodeError) as exc:
            problems.append(Problem("rules", str(path), why_unusable(exc)))
            continue
        if text is not None and text.strip():
            texts.append((path, scope, text.strip()))
    return _fit(texts, budget, tuple(problems))


def _fit(texts: list[tuple[Path, Literal["user", "project"], str]], budget: int,
         problems: tuple[Problem, ...]) -> Rules:
    left = budget
    files: list[RuleFile] = []
    sections: list[str] = []
    for path, scope, text in texts:
        sent = min(len(text), max(left, 0))
        files.append(RuleFile(str(path), scope, len(text), sent))
        left -= sent
        if sent:
            cut = "" if sent == len(text) else f"\n[… truncated: {len(text) - sent:,} more characters]"
            sections.append(f"## {path}\n{text[:sent]}{cut}")
    if not sections:
        return Rules(tuple(files), "", problems)
    head = ("Rules from the person's files (later files are more specific and take precedence; "
            "follow them unless the person says otherwise):")
    body = "\n\n".join([head, *sections])
    skipped = [f for f in files if f.truncated]
    if skipped:
        body += (f"\n\n[Rules truncated to the budget of {budget:,} characters: "
                 f"{', '.join(f.path for f in skipped)} not sent in full. Read them with read_file "
                 "if you need the rest.]")
    return Rules(tuple(files), body, problems)

