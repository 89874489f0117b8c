"""Rules for one simple command (an argv): deny, network, wrappers, and the read-only list.

``ArgvRules.check`` reports findings through a callback; finding nothing
means the command is plain, read-only and confined. Wrappers (``env``,
``timeout``, ``xargs``…) and shells (``bash -c``) are always ``ask``, but the
command they wrap is checked too, so ``timeout 5 rm -rf /`` is still a deny.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from foya_desktop.tools import shell_rules as rules
from foya_desktop.tools.shell_judge import PathJudge
from foya_desktop.tools.shell_readonly import check_read_only, git_subcommand
from foya_desktop.tools.shell_verdict import Verdict, coded
from foya_desktop.tools.shell_words import Word

Report = Callable[[Verdict], None]
Nested = Callable[[str], None]

_VERSIONED = re.compile(r"^(python|perl|ruby|pip|php|lua)[0-9.]*$")
_WRAPPER_LONG_VALUES = frozenset({"signal", "kill-after", "max-args", "max-lines", "max-procs", "delimiter",
                                  "arg-file", "unset", "chdir", "adjustment", "max-chars", "eof"})


def base_name(word: Word) -> str:
    """The program name without folders, with version suffixes dropped (``python3.12`` → ``python``)."""
    name = os.path.basename(word.text)
    match = _VERSIONED.match(name)
    return match.group(1) if match else name


def _operands(words: list[Word]) -> list[Word]:
    """Words that are not options (everything after ``--`` counts)."""
    out: list[Word] = []
    ended = False
    for word in words:
        if ended or not word.text.startswith("-") or word.text == "-":
            out.append(word)
        ended |= word.text == "--"
    return out


def _after_equals(word: Word) -> Word:
    """The value part of ``name=value`` / ``--option=value`` as a word of its own."""
    return Word(word.text.partition("=")[2], word.raw.partition("=")[2], word.expands, word.glob,
                word.pattern.partition("=")[2])


def unwrap(argv: list[Word]) -> tuple[list[Word], str | None]:
    """The command a wrapper runs, and an ``env -S`` string to parse, if any."""
    values = rules.WRAPPER_VALUES[base_name(argv[0])]
    skip = rules.WRAPPER_OPERANDS.get(base_name(argv[0]), 0)
    i = 1
    while i < len(argv):
        text = argv[i].text
        if text == "--":
            return argv[i + 1:], None
        if base_name(argv[0]) == "env" and (text.startswith(("-S", "--split-string"))):
            inline = text.partition("=")[2] if text.startswith("--") else text[2:]
            return [], inline or (argv[i + 1].text if i + 1 < len(argv) else "")
        if text.startswith("--"):
            i += 1 + (text[2:] in _WRAPPER_LONG_VALUES)
        elif text.startswith("-") and len(text) > 1:
            i += 1 + (text[-1] in values)
        elif "=" in text and base_name(argv[0]) == "env":
            i += 1
        elif skip:
            skip, i = skip - 1, i + 1
        else:
            break
    return argv[i:], None


def shell_string(argv: list[Word]) -> Word | None:
    """The ``-c`` command string of ``bash -c '…'`` (``None`` for scripts or stdin)."""
    i, has_c = 1, False
    while i < len(argv):
        text = argv[i].text
        if text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
            continue
        if not text.startswith(("-", "+")):
            break
        has_c |= not text.startswith("--") and "c" in text
        i += 1
    return argv[i] if has_c and i < len(argv) else None


def is_network(argv: list[Word]) -> bool:
    """Whether the command is known to reach the network (best effort by name and subcommand)."""
    name = base_name(argv[0])
    if name in rules.NETWORK_ALWAYS:
        return True
    if name == "git":
        index, _ = git_subcommand(argv)
        sub = argv[index].text if index < len(argv) else ""
        if sub == "remote":
            return any(w.text in ("show", "update", "prune", "set-head") for w in argv[index + 1:])
        return sub in rules.GIT_NETWORK
    rest = argv[1:]
    if name == "python" and [w.text for w in rest[:2]] == ["-m", "pip"]:
        name, rest = "pip", rest[2:]
    subs = rules.NETWORK_SUBCOMMANDS.get(name)
    ops = _operands(rest)
    return bool(subs and ops and ops[0].text in subs)


def is_interpreter(name: str) -> bool:
    """Shells and language runtimes that would execute what they are fed."""
    return name in rules.INTERPRETERS


class ArgvRules:
    """Checks argvs against the tables, reporting findings as (decision, reason, network)."""

    def __init__(self, judge: PathJudge, report: Report, nested: Nested) -> None:
        self.judge = judge
        self.report = report
        self.nested = nested
        self.names: list[str] = []
        """Commands seen, for the reason of an ``allow``."""

    def ask(self, reason: str, network: bool = False, outside: bool = False, code: str = "",
            **params: object) -> None:
        """Ask; ``code`` (COMMAND_REASONS) and ``params`` when the reason is a standard one."""
        self.report(coded("ask", code, reason, params, network=network, outside=outside) if code
                    else Verdict("ask", reason, network, outside))

    def deny(self, reason: str) -> None:
        self.report(Verdict("deny", reason))

    def check(self, argv: list[Word]) -> None:
        """Check one simple command (and whatever it wraps)."""
        if not argv:
            return
        if argv[0].expands:
            self.ask(f"the command name {argv[0].raw!r} is computed at run time")
            return
        name = base_name(argv[0])
        self.names.append(name)
        self._deny_rules(name, argv)
        if is_network(argv):
            self.ask(f"{name} reaches the network", network=True, code="reaches_network", name=name)
        for word in argv:
            if word.expands:
                self.ask(f"{word.raw!r} {word.expands}")
            if not word.text.isascii() and (word is argv[0] or word.text.startswith("-")):
                self.ask(f"{word.raw!r} has non-ASCII characters in a command name or option")
        if not self._dispatch(name, argv):
            self._flag_outside(argv[1:])

    def _flag_outside(self, words: list[Word]) -> None:
        """Mark arguments of unlisted commands that name a place outside the project.

        Their roles are unknown, so every argument counts. The approval policy
        never auto-approves such commands, even in modes that run unlisted
        commands freely (``python3 x.py ../other``, ``cp ~/.ssh/id_rsa .``).
        """
        for word in words:
            judged = [self.judge.word(word)]
            if word.text.startswith("-") and "=" in word.text:
                judged.append(self.judge.text(word.text.partition("=")[2]))
            for judgement in judged:
                if judgement.where in ("outside", "protected"):
                    self.ask(judgement.reason, outside=True, code="outside_path",
                             path=word.raw, protected=judgement.where == "protected")

    def _dispatch(self, name: str, argv: list[Word]) -> bool:
        """Apply the rules for ``name``; True when it is on the read-only list (paths checked there)."""
        if name in rules.WRAPPER_VALUES:
            self.ask(f"{name} runs another command", code="runs_another_command", name=name)
            inner, split = unwrap(argv)
            if split is not None:
                self.nested(split)
            self.check(inner)
        elif name in rules.SHELLS:
            self.ask(f"{name} runs a shell", code="runs_shell", name=name)
            string = shell_string(argv)
            if string is not None and not string.expands:
                self.nested(string.text)
        elif name == "eval":
            self.ask("eval runs a computed command", code="runs_eval")
            self.nested(" ".join(w.text for w in argv[1:]))
        elif argv[0].text != name:
            self.ask(f"{argv[0].raw!r} runs a program by path")
        else:
            return check_read_only(self, name, argv)
        return False

    def escapes(self, word: Word) -> bool:
        """For writes and deletes: outside the project, into git internals, or an expansion that
        starts at a home folder or the file-system root (``~/x``, ``"$HOME"``, ``/$dir``)."""
        if word.expands and word.raw.lstrip("\"'").startswith("/"):
            return True
        return self.judge.word(word).where in ("outside", "protected")

    def _deny_rules(self, name: str, argv: list[Word]) -> None:
        args = argv[1:]
        if name in rules.PRIVILEGED:
            self.deny(f"{name} runs commands with other privileges")
        elif name.startswith("mkfs") or name in rules.DISK_TOOLS:
            self.deny(f"{name} can destroy disks or stop the machine")
        elif name == "dd":
            for word in args:
                if word.text.startswith("of=") and self.escapes(_after_equals(word)):
                    self.deny(f"dd writes {word.text[3:]!r}, outside the project")
        elif name in rules.DESTRUCTIVE:
            self._destructive(name, args)
        elif name in rules.COPIERS | rules.WRITERS:
            self._writes(name, args)
        elif name == "find" and any(w.text == "-delete" for w in args):
            for word in args:
                if word.text.startswith(("-", "(", "!")):
                    break
                if self.escapes(word):
                    self.deny(f"find -delete starts at {word.raw!r}, outside the project")

    def _destructive(self, name: str, args: list[Word]) -> None:
        if any(w.text == "--no-preserve-root" for w in args):
            self.deny(f"{name} --no-preserve-root")
        operands = _operands(args)
        if name in ("chmod", "chown", "chgrp", "chattr", "setfacl") and operands:
            operands = operands[1:]
        for word in operands:
            if self.escapes(word):
                self.deny(f"{name} {word.raw} changes something outside the project or in git internals")
            elif name in ("rm", "rmdir") and self.judge.is_root(word):
                self.deny(f"{name} {word.raw} would delete the whole project folder")

    def _writes(self, name: str, args: list[Word]) -> None:
        operands = _operands(args)
        targets = operands if name in rules.WRITERS else operands[-1:]
        for i, word in enumerate(args):
            if word.text in ("-t", "--target-directory") and i + 1 < len(args):
                targets = [args[i + 1]]
            elif word.text.startswith("--target-directory="):
                targets = [_after_equals(word)]
        for word in targets:
            if self.escapes(word):
                self.deny(f"{name} writes {word.raw!r}, outside the project or in git internals")
