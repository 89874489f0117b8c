"""The read-only list in action: table-driven commands plus ``find``, ``git`` and ``cd``.

A command passes only when its name is on the list, no option on its bad list
appears, and every argument that names a file is inside the project (not in
git internals, not secret-looking). Anything else is reported as ``ask``.
"""

from __future__ import annotations

import re
from typing import Protocol

from foya_desktop.tools import shell_rules as rules
from foya_desktop.tools.git_safety import unasked_git_problem
from foya_desktop.tools.shell_judge import PathJudge, split_options, tree_problem
from foya_desktop.tools.shell_words import Word


class ArgvRules(Protocol):
    """What these checks need from ``shell_argv.ArgvRules``: its judge, ``ask`` and ``check``.

    A Protocol rather than an import, so the two modules do not import each other.
    """

    judge: PathJudge

    def ask(self, reason: str, network: bool = False, outside: bool = False, code: str = "",
            **params: object) -> None: ...

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
    elif name == "sed":
        _sed(checker, argv[1:])
    elif name in ("grep", "egrep", "fgrep", "rg"):
        _table(checker, name, rules.READ_ONLY[name], argv[1:])
        _recursive(checker, name, argv[1:])
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


def _sed(checker: ArgvRules, args: list[Word]) -> None:
    """``sed`` runs unasked only with scripts that print or delete line ranges (``-n 1,20p``)."""
    scripts: list[Word] = []
    for i, word in enumerate(args):
        if word.text in ("-e", "--expression") and i + 1 < len(args):
            scripts.append(args[i + 1])
        elif word.text.startswith("--expression="):
            scripts.append(Word(word.text.partition("=")[2], word.raw, word.expands, word.glob, word.pattern))
    _table(checker, "sed", rules.READ_ONLY["sed"], args)
    if not scripts:
        operands = [w for w in args if not w.text.startswith("-")]
        scripts = operands[:1]
    if not scripts:
        checker.ask("sed without a script")
    for script in scripts:
        if script.expands or not re.match(rules.SED_SCRIPT, script.text):
            checker.ask(f"sed script {script.raw!r} is not a plain line-range print")


def _recursive(checker: ArgvRules, name: str, args: list[Word]) -> None:
    """A recursive search reads every file below its folders: walk them first.

    Hard-linked files count as outside the project, secret-looking files ask, and
    for ``grep -R`` (which follows symbolic links) any link pointing out of the
    project or into git internals counts as outside.
    """
    texts = [w.text for w in args]
    follows = any(t == "--dereference-recursive" or (t.startswith("-") and not t.startswith("--")
                                                      and "R" in t) for t in texts)
    recursive = name == "rg" or follows or any(
        t == "--recursive" or (t.startswith("-") and not t.startswith("--") and "r" in t) for t in texts)
    if not recursive:
        return
    spec = rules.READ_ONLY[name]
    options = split_options(args, spec)
    operands = options.operands if options.pattern_given else options.operands[1:]
    for word in operands or [Word(".", ".", "", False, ".")]:
        if word.expands or word.glob:
            continue  # judged as a path already
        includes = tuple(t.partition("=")[2].strip("'\"") for t in texts if t.startswith("--include="))
        skip_hidden = name == "rg" and not {"--hidden", "-.", "-uu", "-uuu"} & set(texts)
        problem = tree_problem(checker.judge, word.text, follow_links=follows, includes=includes,
                               skip_hidden=skip_hidden)
        if problem is not None:
            where, reason = problem
            if where == "secret":
                checker.ask(f"{name} would read a secret-looking file: {reason}")
            else:
                checker.ask(f"{name} would read {reason}", outside=True)


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
        # A git command off the read-only list may write .git (commit, config, init, hooks…). The
        # sandbox keeps .git read-only, so confined it would only fail: it asks in every mode, and
        # once the person allows it, it runs as they allowed (issue 8, "a command that would write
        # there asks").
        checker.ask(f"git {sub} can change the repository (.git), which only you can allow",
                    outside=True, code="git_writes_repository", sub=sub)
        return
    _table(checker, f"git {sub}", spec, argv[index + 1:])
    repo_problem = unasked_git_problem(checker.judge.root)
    if repo_problem is not None:
        checker.ask(f"git asks here: {repo_problem}")
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
