"""Where a command's arguments point, and how a read-only command's options split.

:class:`PathJudge` answers "is this argument inside the project?" through the
same ``resolve_inside`` the file tools use, from *every* folder the command
might be running in (``cd sub; cat ../x`` is judged from both the project root
and ``sub``, since the ``cd`` may fail). Globs are expanded the way bash will
expand them and every match is judged.
"""

from __future__ import annotations

import fnmatch
import glob
import itertools
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from foya_desktop.core.errors import PathOutsideProject, ToolError
from foya_desktop.tools.paths import is_protected, is_secret_looking, real_root, resolve_inside
from foya_desktop.tools.shell_rules import Spec
from foya_desktop.tools.shell_words import Word

Where = Literal["inside", "secret", "protected", "unknown", "outside"]
_SEVERITY: dict[Where, int] = {"inside": 0, "secret": 1, "protected": 2, "unknown": 3, "outside": 4}
MAX_GLOB_MATCHES = 1000
_HOME_PREFIXES = ("~", "$HOME", "${HOME}")


def _links(path: Path) -> int:
    """Hard links of a regular file (1 for anything else or on error)."""
    try:
        st = os.stat(path)
    except OSError:
        return 1
    return st.st_nlink if stat.S_ISREG(st.st_mode) else 1


@dataclass(frozen=True, slots=True)
class Judgement:
    """Where an argument points, and why in words."""

    where: Where
    reason: str = ""


def _worse(a: Judgement, b: Judgement) -> Judgement:
    return b if _SEVERITY[b.where] > _SEVERITY[a.where] else a


class PathJudge:
    """Judges arguments against the project root from the possible working folders."""

    def __init__(self, workdir: Path, data_dir: Path | None = None) -> None:
        self.root = real_root(workdir)
        self.data_dir = data_dir
        self.cwds: list[Path | None] = [self.root]
        """``None`` stands for a folder that cannot be known (``cd "$X"``)."""

    def word(self, word: Word) -> Judgement:
        """Judge a whole word: expansions are unknown, globs are expanded."""
        if word.expands:
            if word.raw.lstrip("\"'").startswith(_HOME_PREFIXES):
                return Judgement("outside", f"{word.raw!r} points into a home folder")
            return Judgement("unknown", f"{word.raw!r} {word.expands}")
        return self._glob(word) if word.glob else self.text(word.text)

    def text(self, text: str) -> Judgement:
        """Judge a literal path from every possible working folder."""
        if text in ("", "-"):
            return Judgement("inside")
        verdict = Judgement("inside")
        for cwd in self.cwds:
            verdict = _worse(verdict, self._from(cwd, text))
        return verdict

    def _from(self, cwd: Path | None, text: str) -> Judgement:
        if cwd is None and not os.path.isabs(text):
            return Judgement("unknown", f"{text!r} is relative to a folder that cannot be known")
        path = text if cwd is None or os.path.isabs(text) else os.path.join(cwd, text)
        try:
            resolved = resolve_inside(self.root, path)
        except PathOutsideProject:
            return Judgement("outside", f"{text!r} is outside the project")
        except ToolError as exc:
            return Judgement("unknown", str(exc))
        if is_protected(self.root, resolved, self.data_dir):
            return Judgement("protected", f"{text!r} is inside git internals or Foya's data folder")
        links = _links(resolved)
        if links > 1:
            return Judgement("outside", f"{text!r} has {links} hard links; another name may lie outside "
                                        "the project")
        if is_secret_looking(resolved):
            return Judgement("secret", f"{text!r} looks like a secret")
        return Judgement("inside")

    def enter(self, word: Word) -> bool:
        """Follow a ``cd``: later paths are judged from the old folders *and* the new one.

        Returns True when the target is an existing folder inside the project
        from every possible working folder.
        """
        targets: list[Path | None] = []
        for cwd in self.cwds:
            if word.expands or word.glob or cwd is None:
                targets.append(None)
                continue
            target = Path(os.path.realpath(os.path.join(cwd, word.text)))
            targets.append(target if target.is_dir() else None)
        inside = all(t is not None and t.is_relative_to(self.root) for t in targets)
        self.cwds.extend(t for t in targets if t not in self.cwds)
        return inside and self.text(word.text).where == "inside"

    def is_root(self, word: Word) -> bool:
        """Whether a literal argument names the project folder itself (``rm -rf .``)."""
        if word.expands or word.glob:
            return False
        for cwd in self.cwds:
            if cwd is not None and Path(os.path.realpath(os.path.join(cwd, word.text))) == self.root:
                return True
        return False

    def _glob(self, word: Word) -> Judgement:
        for part in word.pattern.split("/"):
            if part.startswith(".") and fnmatch.fnmatchcase("..", part):
                return Judgement("unknown", f"glob {word.raw!r} could match '..'")
        verdict = Judgement("inside")
        for cwd in self.cwds:
            if cwd is None:
                return Judgement("unknown", f"glob {word.raw!r} runs in a folder that cannot be known")
            found = list(itertools.islice(glob.iglob(word.pattern, root_dir=cwd), MAX_GLOB_MATCHES + 1))
            if len(found) > MAX_GLOB_MATCHES:
                return Judgement("unknown", f"glob {word.raw!r} matches too many files")
            for match in found or [word.text]:
                verdict = _worse(verdict, self._from(cwd, match))
        return verdict


MAX_TREE_ENTRIES = 20_000


def tree_problem(judge: PathJudge, text: str, *, follow_links: bool,
                 includes: tuple[str, ...] = (), skip_hidden: bool = False) -> tuple[Where, str] | None:
    """What a recursive read starting at ``text`` would meet that is not plainly inside the project.

    ``includes``: ``grep --include`` globs; files matching none of them are not read.
    ``skip_hidden``: dot-files and dot-folders are not read (``rg`` without ``--hidden``).
    """
    for cwd in judge.cwds:
        if cwd is None:
            return "unknown", f"{text!r} is relative to a folder that cannot be known"
        start = Path(os.path.join(cwd, text))
        if not start.is_dir() or start.is_symlink():
            continue
        seen = 0
        for folder, dirs, files in os.walk(start):
            seen += len(dirs) + len(files)
            if seen > MAX_TREE_ENTRIES:
                return "unknown", f"{text!r} holds more than {MAX_TREE_ENTRIES} entries to check"
            if skip_hidden:
                dirs[:] = [d for d in dirs if not d.startswith(".")]
            wanted = [f for f in files if not (skip_hidden and f.startswith("."))
                      and (not includes or any(fnmatch.fnmatchcase(f, g) for g in includes))]
            for name in [*dirs, *wanted]:
                path = Path(folder, name)
                found = _tree_entry(judge, path, follow_links=follow_links)
                if found is not None:
                    return found
    return None


def _tree_entry(judge: PathJudge, path: Path, *, follow_links: bool) -> tuple[Where, str] | None:
    shown = path.relative_to(judge.root).as_posix() if path.is_relative_to(judge.root) else str(path)
    if path.is_symlink():
        if not follow_links:
            return None
        target = Path(os.path.realpath(path))
        if not target.is_relative_to(judge.root) or is_protected(judge.root, target, judge.data_dir):
            return "outside", f"{shown!r}, a symbolic link out of the project"
        return None
    if judge.data_dir is not None and is_protected(judge.root, path, judge.data_dir) and \
            not any(p.casefold() == ".git" for p in path.relative_to(judge.root).parts):
        return "outside", f"{shown!r} in Foya's data folder"
    if path.is_file() and _links(path) > 1:
        return "outside", f"{shown!r}, which has several hard links (another may lie outside the project)"
    if path.is_file() and is_secret_looking(path):
        return "secret", f"{shown!r} looks like it holds secrets"
    return None


@dataclass(slots=True)
class Options:
    """A command line split by a :class:`Spec`."""

    operands: list[Word] = field(default_factory=list)
    path_values: list[str] = field(default_factory=list)
    """Option values that name files (checked like operands)."""
    problems: list[str] = field(default_factory=list)
    """Options that make the command unsafe to run unasked."""
    pattern_given: bool = False


def _bad_long(name: str, spec: Spec) -> bool:
    """GNU getopt accepts unambiguous abbreviations, so ``--out`` can mean ``--output``."""
    return any(bad.startswith(name) for bad in spec.bad_long)


def _long(words: list[Word], i: int, spec: Spec, out: Options) -> int:
    """Handle ``--name[=value]``; returns how many extra words were used."""
    name, eq, value = words[i].text[2:].partition("=")
    if _bad_long(name, spec):
        out.problems.append(f"option --{name}")
    out.pattern_given |= name in ("regexp", "file")
    if eq:
        if name not in spec.text_long:
            out.path_values.append(value)
        return 0
    if name in spec.text_long | spec.path_long and i + 1 < len(words):
        if name in spec.path_long:
            out.path_values.append(words[i + 1].text)
        return 1
    return 0


def _short(words: list[Word], i: int, spec: Spec, out: Options) -> int:
    """Handle a cluster like ``-rn`` or ``-A3``; returns how many extra words were used."""
    cluster = words[i].text[1:]
    if cluster.isdigit():
        return 0
    for j, letter in enumerate(cluster):
        if letter in spec.bad_short:
            out.problems.append(f"option -{letter}")
        if letter in spec.text_short or letter in spec.path_short:
            out.pattern_given |= letter in "ef" and spec.pattern_first
            rest = cluster[j + 1:]
            value = rest or (words[i + 1].text if i + 1 < len(words) else "")
            if letter in spec.path_short:
                out.path_values.append(value)
            return 0 if rest else 1
    return 0


def split_options(words: list[Word], spec: Spec) -> Options:
    """Split ``words`` (without the command name) into options, values and operands."""
    out = Options()
    i, only_operands = 0, False
    while i < len(words):
        text = words[i].text
        if only_operands or text == "-" or not text.startswith("-"):
            out.operands.append(words[i])
        elif text == "--":
            only_operands = True
        elif text.startswith("--"):
            i += _long(words, i, spec, out)
        else:
            i += _short(words, i, spec, out)
        i += 1
    return out
