"""The read-only list in action: table-driven commands plus ``find``, ``git`` and ``cd``.

A command passes only when its name is on the list, no option on its bad list
appears, and every argument that names a file is inside the project (not in
git internals, not secret-looking). Anything else is reported as ``ask``.
"""

from __future__ import annotations

from typing import Protocol

from foya_desktop.tools import shell_rules as rules
from foya_desktop.tools.shell_judge import PathJudge, split_options
from foya_desktop.tools.shell_words import Word


class ArgvRules(Protocol):
    """What these checks need from ``shell_argv.ArgvRules``: its judge, ``ask`` and ``check``.

    A Protocol rather than an import, so the two modules do not import each other.
    """

    judge: PathJudge

    def ask(self, reason: str, network: bool = False, outside: bool = False) -> None: ...

    def check(self, argv: list[Word]) -> None: ...

_FIND_GLOBAL = ("-H", "-P")


def _read(checker: ArgvRules, judgement_of: Word | str) -> None:
    """Report a file argument that is not plainly inside the project."""
    judge = checker.judge
    verdict = judge.word(judgement_of) if isinstance(judgement_of, Word) else judge.text(judgement_of)
    if verdict.where == "secret":
        checker.ask(f"reads a secret-looking file: {verdict.reason}")
    elif verdict.where == "protected":
        checker.ask(f"reads git internals: {verdict.reason}", outside=True)
    elif verdict.where != "inside":
        checker.ask(verdict.reason, outside=verdict.where == "outside")


def _globs(checker: ArgvRules, words: list[Word]) -> None:
    """Bash expands unquoted globs in *any* argument, so every glob is judged."""
    for word in words:
        if word.glob:
            _read(checker, word)


def check_read_only(checker: ArgvRules, name: str, argv: list[Word]) -> bool:
    """Check a plain command by name; False (and ``ask``) when it is not on the list."""
    if name == "find":
        _find(checker, argv[1:])
    elif name == "git":
        _git(checker, argv)
    elif name == "cd":
        _cd(checker, argv[1:])
    elif name in rules.READ_ONLY:
        _table(checker, name, rules.READ_ONLY[name], argv[1:])
    else:
        checker.ask(f"{name!r} is not on the read-only list")
        return False
    return True


def _table(checker: ArgvRules, label: str, spec: rules.Spec, args: list[Word]) -> None:
    options = split_options(args, spec)
    for problem in options.problems:
        checker.ask(f"{label} {problem} can write, run programs or follow links")
    operands = options.operands
    if spec.max_operands is not None and len(operands) > spec.max_operands:
        checker.ask(f"{label} with {len(operands)} operands writes a file")
    if spec.pattern_first and not options.pattern_given:
        operands = operands[1:]
    if spec.paths:
        for word in operands:
            if not word.glob:
                _read(checker, word)
    for value in options.path_values:
        _read(checker, value)
    _globs(checker, args)


def _find(checker: ArgvRules, args: list[Word]) -> None:
    i = 0
    while i < len(args) and (args[i].text in (*_FIND_GLOBAL, "-L") or args[i].text.startswith(("-D", "-O"))):
        if args[i].text == "-L":
            checker.ask("find -L follows symbolic links")
        i += 1 + (args[i].text == "-D")
    start = i
    while i < len(args) and not args[i].text.startswith(("-", "(", "!", ")")):
        _read(checker, args[i])
        i += 1
    if start == i:
        _read(checker, ".")
    _find_expression(checker, args[i:])
    _globs(checker, args)


def _find_expression(checker: ArgvRules, args: list[Word]) -> None:
    i = 0
    while i < len(args):
        text = args[i].text
        if text in rules.FIND_BAD:
            checker.ask(f"find {text} can run commands, delete or write files")
        if text in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j].text in (";", "+")), len(args))
            checker.check(args[i + 1:end])
            i = end
        elif (text in rules.FIND_PATH_VALUES or text.startswith("-newer")) and i + 1 < len(args):
            _read(checker, args[i + 1])
            i += 1
        i += 1


def git_subcommand(argv: list[Word]) -> tuple[int, list[str]]:
    """Index of git's subcommand (``len(argv)`` when none), and the global options that matter."""
    i, problems = 1, []
    while i < len(argv) and argv[i].text.startswith("-"):
        text = argv[i].text
        if text not in rules.GIT_GLOBAL_OK:
            problems.append(f"git global option {text}")
            i += text in rules.GIT_GLOBAL_WITH_VALUE
        i += 1
    return i, problems


def _git(checker: ArgvRules, argv: list[Word]) -> None:
    index, problems = git_subcommand(argv)
    for problem in problems:
        checker.ask(f"{problem} can change what git runs or where")
    if index >= len(argv):
        checker.ask("git without a subcommand")
        return
    sub = argv[index].text
    spec = rules.GIT_READ.get(sub)
    if spec is None:
        checker.ask(f"git {sub} is not on the read-only list")
        return
    _table(checker, f"git {sub}", spec, argv[index + 1:])
    if sub == "branch":
        _git_branch(checker, argv[index + 1:])


def _git_branch(checker: ArgvRules, args: list[Word]) -> None:
    """``git branch`` may only list: any name without a listing flag would create a branch."""
    listing, takes_value, names = False, False, 0
    for word in args:
        text = word.text
        if takes_value:
            takes_value = False
        elif text in rules.GIT_BRANCH_LISTING:
            listing |= text in ("-l", "--list")
        elif text.partition("=")[0] in rules.GIT_BRANCH_FILTERS:
            listing, takes_value = True, "=" not in text
        elif text.startswith("-"):
            checker.ask(f"git branch {text} changes branches")
        else:
            names += 1
    if names and not listing:
        checker.ask("git branch NAME creates a branch")


def _cd(checker: ArgvRules, args: list[Word]) -> None:
    if len(args) != 1 or args[0].text.startswith("-"):
        checker.ask("cd without exactly one folder")
        checker.judge.cwds.append(None)
    elif not checker.judge.enter(args[0]):
        outside = checker.judge.word(args[0]).where in ("outside", "protected")
        checker.ask(f"cd {args[0].raw} leaves the project or goes to an unknown folder", outside=outside)
