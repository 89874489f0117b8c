"""The ONE command classifier: ``classify_command(command, workdir) -> Verdict``.

The command is parsed with ``bashlex`` (a real bash parser) and every part of
the tree is visited: each side of ``&&``/``;``/``||``/``|``, every command and
process substitution, loop and function bodies, ``bash -c`` strings and
here-documents fed to shells. A part is ``allow`` only when it is a plain
command from the read-only list with confined arguments (``shell_argv``);
anything the walker does not fully understand is ``ask``; clearly destructive
or escaping parts are ``deny``, and a deny anywhere wins. Flags a model sends
along with a command ("safe", "requires_approval") are not inputs here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from foya_desktop.tools.shell_argv import ArgvRules, base_name, is_interpreter, unwrap
from foya_desktop.tools.shell_judge import PathJudge
from foya_desktop.tools.shell_rules import FETCHERS, SHELLS, WRAPPER_VALUES
from foya_desktop.tools.shell_verdict import Verdict, combine
from foya_desktop.tools.shell_words import Word, odd_characters, read_word

__all__ = ["Verdict", "classify_command", "normalise_command"]

MAX_DEPTH = 3
MAX_COMMAND_CHARS = 20_000
_SEPARATORS = (";", "&&", "||", "\n")
_WRITE_REDIRECTS = (">", ">>", ">|", "&>", "&>>", "<>", ">&")
_HARMLESS_DEVICES = ("/dev/stdout", "/dev/stderr", "/dev/tty")

_RAW_DANGER = (
    (re.compile(r"\b(sudo|doas|pkexec)\b"), "runs commands with other privileges"),
    (re.compile(r"\brm\s+(-\S+\s+)*(/|/\*|~/?|\$HOME/?)(\s|$|;)"), "deletes outside the project"),
    (re.compile(r"\bmkfs(\.\w+)?\b"), "formats a disk"),
    (re.compile(r"\b(curl|wget)\b[^;&]*\|\s*(\w+=\S+\s+)*(ba|z|da|k)?sh\b"), "runs a downloaded script"),
    (re.compile(r":\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:"), "fork bomb"),
    (re.compile(r"\bdd\b[^;&|]*\bof=/dev/"), "writes to a device"),
)
"""Fallback for text the parser cannot read: only the unmistakable cases."""


def _parse(command: str) -> list[Any]:
    """bashlex's trees for ``command``. Imported here, not at module level: bashlex rebuilds its
    parser tables on import (70 ms idle, several hundred under load), and the window imports this
    module before its first paint."""
    import bashlex
    trees: list[Any] = bashlex.parse(command)
    return trees


def classify_command(command: str, workdir: Path, data_dir: Path | None = None) -> Verdict:
    """Decide whether ``command`` (run by ``bash -c`` in ``workdir``) may run without asking.

    ``data_dir`` (Foya's data folder) counts as protected wherever it lies.
    """
    return _classify(command, PathJudge(workdir, data_dir), 0)


def _opaque(text: str, reason: str) -> Verdict:
    """A verdict for text that was not parsed: deny the unmistakable, ask for the rest."""
    for pattern, danger in _RAW_DANGER:
        if pattern.search(text):
            return Verdict("deny", f"{reason}, and it {danger}")
    return Verdict("ask", reason)


def _classify(command: str, judge: PathJudge, depth: int) -> Verdict:
    if not isinstance(command, str) or not command.strip():
        return Verdict("ask", "empty command")
    if len(command) > MAX_COMMAND_CHARS:
        return _opaque(command, "the command is too long to check")
    odd = odd_characters(command)
    if odd:
        return _opaque(command, f"the command {odd}")
    try:
        trees = _parse(command)
    except Exception:  # bashlex raises many types (ParsingError, NotImplementedError, AttributeError…)
        return _opaque(command, "the shell parser could not fully read it")
    walker = _Walker(command, judge, depth)
    try:
        for tree in trees:
            walker.visit(tree)
    except (AttributeError, IndexError, TypeError, ValueError):  # a tree shape bashlex rarely makes
        return _opaque(command, "the command has a shape Foya cannot check")
    names = ", ".join(dict.fromkeys(walker.rules.names))
    return combine(walker.findings, f"read-only and inside the project: {names}")


def effective_names(argv: list[Word]) -> list[str]:
    """The command's name and, through wrappers (``env``, ``timeout``…), the names it runs."""
    names: list[str] = []
    while argv and not argv[0].expands:
        names.append(base_name(argv[0]))
        if names[-1] not in WRAPPER_VALUES:
            break
        argv, _ = unwrap(argv)
    return names


class _Walker:
    """Visits a bashlex tree, collecting one finding per problem."""

    def __init__(self, source: str, judge: PathJudge, depth: int) -> None:
        self.source = source
        self.judge = judge
        self.depth = depth
        self.findings: list[Verdict] = []
        self.rules = ArgvRules(judge, self._report, self._nested)

    def _report(self, verdict: Verdict) -> None:
        self.findings.append(verdict)

    def ask(self, reason: str) -> None:
        self.findings.append(Verdict("ask", reason))

    def deny(self, reason: str) -> None:
        self.findings.append(Verdict("deny", reason))

    def _nested(self, text: str) -> None:
        """A command string run by a shell, ``eval`` or ``env -S``: classified like the outer one."""
        if self.depth >= MAX_DEPTH:
            self.findings.append(_opaque(text, "commands are nested too deeply to check"))
        else:
            self.findings.append(_classify(text, self.judge, self.depth + 1))

    def word(self, node: Any) -> Word:
        return read_word(self.source[node.pos[0]:node.pos[1]])

    def visit(self, node: Any) -> None:
        handler = getattr(self, f"_visit_{node.kind}", None)
        if handler is None:
            self.ask(f"uses shell syntax Foya does not check ({node.kind})")
        else:
            handler(node)

    def _children(self, nodes: list[Any]) -> None:
        for node in nodes:
            self.visit(node)

    def _visit_list(self, node: Any) -> None:
        for part in node.parts:
            if part.kind == "operator" and part.op not in _SEPARATORS:
                self.ask("runs something in the background" if part.op == "&" else f"uses {part.op!r}")
            elif part.kind != "operator":
                self.visit(part)

    def _visit_pipeline(self, node: Any) -> None:
        stages = [p for p in node.parts if p.kind not in ("pipe", "reservedword")]
        if any(p.kind == "reservedword" for p in node.parts):
            self.ask("negates a pipeline with '!'")
        self._children(stages)
        fetched = False
        for stage in stages:
            names = self._names_below(stage)
            if fetched and any(is_interpreter(n) for n in names):
                self.deny("pipes something downloaded from the network into an interpreter")
            fetched |= bool(names & FETCHERS)

    def _visit_command(self, node: Any) -> None:
        words = [p for p in node.parts if p.kind == "word"]
        for part in node.parts:
            if part.kind == "assignment":
                self.ask("sets variables for the command (NAME=value)")
            if part.kind in ("word", "assignment"):
                self._children(getattr(part, "parts", []))
            elif part.kind != "redirect":
                self.visit(part)
        argv = [self.word(w) for w in words]
        for word, source in zip(argv, words, strict=True):
            if not word.expands and word.text != source.word:
                self.ask(f"the parser and Foya read {word.raw!r} differently")
        self.rules.check(argv)
        names = effective_names(argv)
        for part in node.parts:
            if part.kind == "redirect":
                self._redirect(part, names)
        if any(is_interpreter(n) for n in names) and self._names_below(node, include_self=False) & FETCHERS:
            self.deny("runs code downloaded from the network")

    def _redirect(self, node: Any, names: list[str]) -> None:
        target = getattr(node, "output", None)
        if node.type in ("<<", "<<-"):
            self.ask("uses a here-document")
            heredoc = getattr(node, "heredoc", None)
            if heredoc is not None and set(names) & SHELLS:
                self._nested(heredoc.value.rpartition("\n")[0])
            return
        if isinstance(target, int) or target == "-" or not hasattr(target, "pos"):
            return  # fd duplication or closing (2>&1, >&-): no file involved
        self._children(getattr(target, "parts", []))
        word = self.word(target)
        if node.type not in _WRITE_REDIRECTS:
            where = self.judge.word(word).where
            self.findings.append(Verdict("ask", f"redirects input ({node.type} {word.raw})",
                                         outside=where in ("outside", "protected")))
        elif word.text == "/dev/null" and not word.expands:
            return
        elif word.text in _HARMLESS_DEVICES:
            self.ask(f"writes to {word.raw} by redirection")
        elif word.text.startswith("/dev/") or self.rules.escapes(word):
            self.deny(f"redirects output to {word.raw!r}, outside the project or in git internals")
        else:
            self.ask(f"writes to {word.raw!r} by redirection")

    def _names_below(self, node: Any, *, include_self: bool = True) -> set[str]:
        """Effective command names anywhere inside ``node`` (substitutions included)."""
        names: set[str] = set()
        if node.kind == "command" and include_self:
            names.update(effective_names([self.word(w) for w in node.parts if w.kind == "word"]))
        for child in _child_nodes(node):
            names |= self._names_below(child)
        return names

    def _visit_compound(self, node: Any) -> None:
        self.ask("runs a subshell or command group")
        self._children([p for p in node.list if p.kind != "reservedword"])
        for part in getattr(node, "redirects", []):
            self._redirect(part, [])

    def _visit_flow(self, node: Any) -> None:
        self.ask(f"uses control flow ({node.kind})")
        for part in node.parts:
            if part.kind == "word":
                self._children(getattr(part, "parts", []))
            elif part.kind != "reservedword":
                self.visit(part)

    _visit_if = _visit_for = _visit_while = _visit_until = _visit_flow

    def _visit_function(self, node: Any) -> None:
        self.ask("defines a function")
        name, body = node.parts[0].word, node.parts[-1]
        text = self.source[body.pos[0]:body.pos[1]]
        if name in self._names_below(body) and ("|" in text or "&" in text):
            self.deny("defines a function that spawns itself (fork bomb)")
        self.visit(body)

    def _visit_commandsubstitution(self, node: Any) -> None:
        self.ask("substitutes the output of a command")
        self.visit(node.command)

    def _visit_processsubstitution(self, node: Any) -> None:
        self.ask("uses process substitution")
        self.visit(node.command)

    def _visit_parameter(self, node: Any) -> None:
        value = str(getattr(node, "value", ""))
        self.findings.append(_opaque(value, "expands a variable") if ("$(" in value or "`" in value)
                             else Verdict("ask", "expands a variable"))

    def _visit_tilde(self, node: Any) -> None:
        self.ask("expands '~' to a home folder")

    def _visit_heredoc(self, node: Any) -> None:
        self.ask("uses a here-document")

    def _visit_word(self, node: Any) -> None:
        self._children(getattr(node, "parts", []))

    def _visit_assignment(self, node: Any) -> None:
        self.ask("sets a variable")
        self._children(getattr(node, "parts", []))

    def _visit_redirect(self, node: Any) -> None:
        self._redirect(node, [])

    def _visit_reservedword(self, node: Any) -> None:
        """Keywords carry no behaviour of their own; their constructs are visited."""

    _visit_operator = _visit_pipe = _visit_reservedword


def _child_nodes(node: Any) -> list[Any]:
    """Every bashlex node directly below ``node`` (parts, lists, substitutions, redirect targets)."""
    children: list[Any] = []
    for attr in ("parts", "list"):
        children.extend(getattr(node, attr, None) or [])
    for attr in ("command", "output", "heredoc"):
        child = getattr(node, attr, None)
        if hasattr(child, "kind"):
            children.append(child)
    return children


def normalise_command(command: str) -> str | None:
    """Canonical text of a single plain command (for exact "always allow" rules), else ``None``.

    Quoting is normalised (``ls 'a b'`` and ``ls "a b"`` are the same rule), but
    anything that expands, globs, redirects, assigns or chains has no canonical
    form: such a command can never match an "always allow" rule.
    """
    if not isinstance(command, str) or not command.strip() or odd_characters(command):
        return None
    try:
        trees = _parse(command)
    except Exception:
        return None
    if len(trees) != 1 or trees[0].kind != "command":
        return None
    texts: list[str] = []
    for part in trees[0].parts:
        if part.kind != "word" or getattr(part, "parts", None):
            return None
        word = read_word(command[part.pos[0]:part.pos[1]])
        if word.expands or word.glob or word.text != part.word:
            return None
        texts.append(word.text)
    return shlex.join(texts)
