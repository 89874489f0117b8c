"""The ONE command classifier: ``classify_command(command, workdir) -> Verdict``.

The command is parsed with ``tree-sitter-bash`` (``shell_tree``, which refuses
trees with errors or skipped text) and every part of the tree is visited: each
side of ``&&``/``;``/``||``/``|``, every command and process substitution
(also inside ``[[ ]]``, ``case``, ``$(( ))`` and expansions), loop and
function bodies, ``coproc`` commands, ``bash -c`` strings and here-documents
fed to shells. A part is ``allow`` only when it is a plain command from the
read-only list with confined arguments (``shell_argv``); any node kind not
handled here is ``ask``; clearly destructive or escaping parts are ``deny``,
and a deny anywhere wins. Flags a model sends along with a command ("safe",
"requires_approval") are not inputs here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from foya_desktop.tools.shell_argv import ArgvRules, base_name, is_interpreter, unwrap
from foya_desktop.tools.shell_judge import PathJudge
from foya_desktop.tools.shell_rules import FETCHERS, SHELLS, WRAPPER_VALUES
from foya_desktop.tools.shell_verdict import Verdict, coded, combine
from foya_desktop.tools.shell_words import Word, odd_characters, read_word

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["Verdict", "argvs_read", "classify_command", "normalise_command"]

MAX_DEPTH = 3
MAX_COMMAND_CHARS = 20_000
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


_FLOW = frozenset({"if_statement", "while_statement", "for_statement", "c_style_for_statement",
                   "case_statement"})
_FLOW_PARTS = frozenset({"do_group", "elif_clause", "else_clause", "case_item"})
_WORDS = frozenset({"word", "string", "raw_string", "ansi_c_string", "translated_string", "concatenation",
                    "string_content", "number", "variable_name", "special_variable_name", "extglob_pattern",
                    "regex", "brace_expression", "array", "subscript", "binary_expression",
                    "unary_expression", "ternary_expression", "parenthesized_expression",
                    "postfix_expression", "test_operator", "heredoc_content", "file_descriptor"})
"""Node kinds that are (parts of) words or expressions: they run nothing themselves, but what
they contain (substitutions, expansions) is visited."""
_SEPARATORS = frozenset({";", "&&", "||", "|", "|&", "\n"})
_CASE_ENDS = frozenset({";;", ";&", ";;&"})
_BRACKETS = frozenset({"(", ")", "{", "}", "((", "))", "[[", "]]", "[", "]", "=", "!", "$((", "$(", "`", "<(",
                       ">(", "${", "\"", "$", "'"})
"""Anonymous tokens of constructs that are handled by their node (keywords are handled likewise)."""
_COMMENT_BEFORE = frozenset(b" \t\n;&|()")
_UNREAD_SUBSTITUTION = re.compile(r"`([^`]*)`|\$\(([^()]*)\)")
_COPROC_NAME = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_]*\s+(?=[{(])")


_PARSER_MISSING = ("the shell parser (tree-sitter-bash) is not installed; reinstall Foya "
                   "(`.venv/bin/pip install -e .`)")


def _parse(command: str) -> Node | None:
    from foya_desktop.tools import shell_tree  # lazy: off the start-up path
    return shell_tree.parse(command.encode())


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
        return coded("ask", "command_empty", "empty command")
    if len(command) > MAX_COMMAND_CHARS:
        return _opaque(command, "the command is too long to check")
    odd = odd_characters(command)
    if odd:
        return _opaque(command, f"the command {odd}")
    try:
        root = _parse(command)
    except ImportError:  # a broken install must not crash the tool, nor let anything through
        return _opaque(command, _PARSER_MISSING)
    if root is None:
        return _opaque(command, "the shell parser could not fully read it")
    walker = _Walker(command, judge, depth)
    try:
        walker.statement(root)
    except (AttributeError, IndexError, TypeError, ValueError, RecursionError):  # a shape not foreseen
        return _opaque(command, "the command has a shape Foya cannot check")
    if not walker.findings and not walker.rules.names:
        return coded("ask", "command_unrecognised", "the command runs nothing Foya recognises")
    names = ", ".join(dict.fromkeys(walker.rules.names))
    return combine(walker.findings, f"read-only and inside the project: {names}")


def argvs_read(command: str, workdir: Path) -> list[list[str]] | None:
    """The simple commands of ``command`` as the policy reads and checks them (quotes removed),
    in order; ``None`` when it is not parsed. For diagnostics and the test that holds the
    parser to bash's own reading of every command the policy allows."""
    if odd_characters(command):
        return None
    try:
        root = _parse(command)
    except ImportError:
        return None
    if root is None:
        return None
    walker = _Walker(command, PathJudge(workdir), 0)
    walker.statement(root)
    return walker.argvs


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
    """Visits a tree-sitter-bash tree, collecting one finding per problem.

    ``statement`` takes nodes that run something; ``words`` takes words and expressions and
    visits what they contain. A kind neither knows is ``ask``.
    """

    def __init__(self, command: str, judge: PathJudge, depth: int) -> None:
        self.source = command.encode()
        self.judge = judge
        self.depth = depth
        self.findings: list[Verdict] = []
        self.rules = ArgvRules(judge, self._report, self._nested)
        self.argvs: list[list[str]] = []
        """Every simple command's words as checked (see :func:`argvs_read`)."""

    def _report(self, verdict: Verdict) -> None:
        self.findings.append(verdict)

    def ask(self, reason: str, code: str = "", **params: object) -> None:
        """Ask; ``code`` (COMMAND_REASONS) and ``params`` when the reason is a standard one."""
        self.findings.append(coded("ask", code, reason, params) if code else Verdict("ask", reason))

    def deny(self, reason: str) -> None:
        self.findings.append(Verdict("deny", reason))

    def _nested(self, text: str) -> None:
        """A command string run by a shell, ``eval`` or ``env -S``: classified like the outer one."""
        if self.depth >= MAX_DEPTH:
            self.findings.append(_opaque(text, "commands are nested too deeply to check"))
        else:
            self.findings.append(_classify(text, self.judge, self.depth + 1))

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode()

    def word(self, node: Node) -> Word:
        return read_word(self.text(node))

    # --- statements -------------------------------------------------------------------------

    def statement(self, node: Node) -> None:
        kind = node.type
        self._check_gaps(node)
        if kind == "command":
            self._command(node, [])
        elif kind == "redirected_statement":
            self._redirected(node)
        elif kind == "pipeline":
            self._pipeline(node)
        elif kind in ("program", "list"):
            self._parts(node)
        elif kind in ("subshell", "compound_statement"):
            self.ask("runs a subshell or command group" if node.children[0].type != "((" else
                     "uses an arithmetic command (( ))")
            self._parts(node)
        elif kind in _FLOW:
            self.ask(f"uses control flow ({node.children[0].type})")
            self._parts(node)
        elif kind == "negated_command":
            self.ask("negates a pipeline with '!'")
            self._parts(node)
        elif kind == "function_definition":
            self._function(node)
        elif kind == "test_command":
            self.ask("uses a test ([[ ]] or [ ])")
            self._parts(node)
        elif kind == "variable_assignment":
            self.ask("sets a variable", "sets_variable")
            self._parts(node)
        elif kind in ("declaration_command", "unset_command"):
            self.ask(f"uses {node.children[0].type} (changes variables)")
            self._parts(node)
        elif kind == "comment":
            self._comment(node)
        else:
            self.ask(f"uses shell syntax Foya does not check ({kind})")

    def _check_gaps(self, node: Node) -> None:
        from foya_desktop.tools.shell_tree import odd_gap
        if odd_gap(self.source, node):
            self.ask("the parser skipped part of the command")

    def _parts(self, node: Node) -> None:
        """The children of a compound node: statements, words, keywords and separators.

        Bare words are expected only inside constructs (``for x in WORDS``, ``case WORD``,
        tests); where statements belong (a program, a list, a pipeline) they are not understood.
        """
        words_ok = node.type not in ("program", "list", "pipeline")
        for child in node.children:
            if not child.is_named:
                if child.type == "&":
                    self.ask("runs something in the background", "runs_in_background")
                elif child.type in _CASE_ENDS and node.type != "case_item":
                    self.ask(f"uses {child.type!r} outside a case")
                elif not (child.type in _SEPARATORS | _CASE_ENDS | _BRACKETS or child.type.isalpha()):
                    self.ask(f"uses {child.type!r}")
            elif child.type in _FLOW_PARTS:
                self._check_gaps(child)
                self._parts(child)
            elif words_ok and (child.type in _WORDS or child.type in _SUBSTITUTIONS):
                self.words(child)
            else:
                self.statement(child)

    def _comment(self, node: Node) -> None:
        """bash starts a comment only at the beginning of a word."""
        before = self.source[node.start_byte - 1] if node.start_byte else ord("\n")
        if before not in _COMMENT_BEFORE:
            self.ask("the parser and bash may disagree about a '#'")

    def _pipeline(self, node: Node) -> None:
        stages = [c for c in node.children if c.is_named]
        self._parts(node)
        fetched = False
        for stage in stages:
            names = self._names_below(stage)
            if fetched and any(is_interpreter(n) for n in names):
                self.deny("pipes something downloaded from the network into an interpreter")
            fetched |= bool(names & FETCHERS)

    def _redirected(self, node: Node) -> None:
        body = node.child_by_field_name("body")
        redirects = node.children_by_field_name("redirect")
        if len(redirects) + (body is not None) != len(node.children):
            self.ask("redirects in a shape Foya does not check")
        extra = self._misread_words(redirects)
        if body is not None and body.type == "command":
            self._command(body, extra, redirects)
            return
        if extra:
            self.ask("has words after a redirection")
        if body is not None:
            self.statement(body)
        for redirect in redirects:
            self._redirect(redirect, [])

    def _command(self, node: Node, extra: list[Node], outer: list[Node] | None = None) -> None:
        """One simple command; ``extra`` are words the grammar put after a redirection target
        (``rm >x -rf /``): bash passes them to the command."""
        self._check_gaps(node)
        name = node.child_by_field_name("name")
        words = ([name] if name is not None else []) + node.children_by_field_name("argument") + extra
        inner = node.children_by_field_name("redirect")
        misread = self._misread_words(inner)
        if misread:  # their place among the words is not known: ask, but still check them
            self.ask("has words inside a redirection")
            words += misread
        redirects = inner + (outer or [])
        for child in node.children:
            if child.type == "variable_assignment":
                self.ask("sets variables for the command (NAME=value)", "sets_command_variables")
                self._parts(child)
            elif child.type == "command_name":
                continue
            elif child not in words and child not in redirects:
                self.ask(f"uses shell syntax Foya does not check ({child.type})")
        argv = [self.word(w) for w in words]
        for word_node in words:
            self.words(word_node)
        self.argvs.append([w.text for w in argv])
        if argv and argv[0].text == "coproc" and not argv[0].expands:
            self._coproc(words[0])
        self.rules.check(argv)
        names = effective_names(argv)
        for redirect in redirects:
            self._redirect(redirect, names)
        if any(is_interpreter(n) for n in names) and self._names_below(node, include_self=False) & FETCHERS:
            self.deny("runs code downloaded from the network")

    def _misread_words(self, redirects: list[Node]) -> list[Node]:
        """Words the grammar put inside redirections that bash passes to the command: targets
        after the first (``rm >/dev/null -rf /``) and a "descriptor" that is not a number
        (``ls -n2>&1`` is ``ls -n2`` with ``>&1``)."""
        words: list[Node] = []
        for redirect in redirects:
            descriptor = redirect.child_by_field_name("descriptor")
            if descriptor is not None and not self.text(descriptor).isdigit():
                words.append(descriptor)
            words += redirect.children_by_field_name("destination")[1:]
        return words

    def _coproc(self, keyword: Node) -> None:
        """The grammar reads ``coproc`` as a command name: what follows it is classified as a
        command of its own (after the optional NAME of ``coproc NAME { …; }``)."""
        self.ask("runs a coprocess (coproc)")
        rest = self.source[keyword.end_byte:].decode()
        named = _COPROC_NAME.match(rest)
        self._nested(rest[named.end():] if named else rest)

    def _redirect(self, node: Node, names: list[str]) -> None:
        self._check_gaps(node)
        operator = next((c.type for c in node.children if not c.is_named), "")
        if node.type == "heredoc_redirect":
            self._heredoc(node, names)
            return
        if node.type == "herestring_redirect":
            self.ask("uses a here-string")
            self._parts(node)
            return
        if node.type != "file_redirect":
            self.ask(f"uses shell syntax Foya does not check ({node.type})")
            return
        targets = node.children_by_field_name("destination")
        if operator in (">&-", "<&-") or not targets:
            return  # closing a descriptor
        target = targets[0]
        self.words(target)
        word = self.word(target)
        if operator in (">&", "<&") and word.text.isdigit() and not word.expands:
            return  # descriptor duplication (2>&1): no file involved
        if operator not in _WRITE_REDIRECTS:
            where = self.judge.word(word).where
            self.findings.append(Verdict("ask", f"redirects input ({operator} {word.raw})",
                                         outside=where in ("outside", "protected")))
        elif word.text == "/dev/null" and not word.expands:
            return
        elif word.text in _HARMLESS_DEVICES:
            self.ask(f"writes to {word.raw} by redirection", "writes_by_redirection", target=word.raw)
        elif word.text.startswith("/dev/") or self.rules.escapes(word):
            self.deny(f"redirects output to {word.raw!r}, outside the project or in git internals")
        else:
            self.ask(f"writes to {word.raw!r} by redirection", "writes_by_redirection", target=word.raw)

    def _heredoc(self, node: Node, names: list[str]) -> None:
        self.ask("uses a here-document", "uses_heredoc")
        for child in node.children:
            if child.type == "heredoc_body":
                self.words(child)  # an unquoted delimiter expands $(…) in the body
                if set(names) & SHELLS:
                    self._nested(self.text(child))
            elif child.is_named and child.type not in ("heredoc_start", "heredoc_end"):
                self.statement(child)  # cat <<EOF | sh: the rest of the pipeline

    def _names_below(self, node: Node, *, include_self: bool = True) -> set[str]:
        """Effective command names anywhere inside ``node`` (substitutions included)."""
        names: set[str] = set()
        if node.type == "command" and include_self:
            name = node.child_by_field_name("name")
            argv = ([name] if name is not None else []) + node.children_by_field_name("argument")
            names.update(effective_names([self.word(w) for w in argv]))
        for child in node.children:
            names |= self._names_below(child)
        return names

    def _function(self, node: Node) -> None:
        self.ask("defines a function", "defines_function")
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is None or body is None:
            self.ask("defines a function in a shape Foya does not check")
            self._parts(node)
            return
        text = self.text(body)
        if self.word(name).text in self._names_below(body) and ("|" in text or "&" in text):
            self.deny("defines a function that spawns itself (fork bomb)")
        self.statement(body)

    # --- words ------------------------------------------------------------------------------

    def words(self, node: Node) -> None:
        """A word or expression: visit the substitutions and expansions inside it."""
        kind = node.type
        if not node.is_named:
            return
        if kind in ("command_substitution", "process_substitution"):
            self.ask("substitutes the output of a command" if kind == "command_substitution"
                     else "uses process substitution")
            self._parts(node)
        elif kind in ("simple_expansion", "expansion"):
            value = self.text(node)
            self.findings.append(_opaque(value, "expands a variable") if ("$(" in value or "`" in value)
                                 else coded("ask", "expands_variable", "expands a variable"))
            self._word_parts(node)
        elif kind == "arithmetic_expansion":
            self.ask("uses arithmetic expansion $(( ))")
            self._word_parts(node)
        elif kind in _WORDS or kind in ("command_name", "heredoc_body"):
            if kind in ("word", "string_content") and node.named_child_count == 0:
                self._unread_substitutions(node)
            self._word_parts(node)
        else:
            self.ask(f"uses shell syntax Foya does not check ({kind})")

    def _unread_substitutions(self, node: Node) -> None:
        """A plain word the grammar did not split, holding what bash would run anyway
        (``${x:-`rm -rf /`}``): ask, and classify what the backticks or ``$( )`` hold."""
        value = self.text(node)
        if "`" not in value and "$(" not in value:
            return
        self.ask("holds a command substitution the parser did not read")
        for match in _UNREAD_SUBSTITUTION.finditer(value):
            self._nested(match.group(1) or match.group(2) or "")

    def _word_parts(self, node: Node) -> None:
        for child in node.children:
            self.words(child)


_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution", "simple_expansion", "expansion",
                            "arithmetic_expansion"})


def normalise_command(command: str) -> str | None:
    """Canonical text of a single plain command (for exact "always allow" rules), else ``None``.

    Quoting is normalised (``ls 'a b'`` and ``ls "a b"`` are the same rule), but
    anything that expands, globs, redirects, assigns or chains has no canonical
    form: such a command can never match an "always allow" rule.
    """
    if not isinstance(command, str) or not command.strip() or odd_characters(command):
        return None
    try:
        root = _parse(command)
    except ImportError:
        return None
    if root is None or len(root.children) != 1 or root.children[0].type != "command":
        return None
    from foya_desktop.tools.shell_tree import odd_gap
    node = root.children[0]
    if odd_gap(command.encode(), node):
        return None
    source = command.encode()
    texts: list[str] = []
    for child in node.children:
        part = child.children[0] if child.type == "command_name" and child.child_count == 1 else child
        if part.type not in ("word", "string", "raw_string", "concatenation"):
            return None
        word = read_word(source[part.start_byte:part.end_byte].decode())
        if word.expands or word.glob:
            return None
        texts.append(word.text)
    return shlex.join(texts)
