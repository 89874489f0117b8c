"""The shell parser behind the command policy: ``tree-sitter`` with the ``tree-sitter-bash`` grammar.

tree-sitter-bash is the grammar Codex uses for its command policy. It reads
``[[ ]]``, ``case``, ``$(( ))`` and here-strings, which ``bashlex`` rejected,
and it is much cheaper: import plus first parse ~5x less than bashlex's, a
parse ~100x less (figures in the README). But it is an error-tolerant grammar
written for editors, not bash itself, so this module only hands out a tree
bash would read the same way: a tree with an error or missing node is
refused, and :func:`odd_gap` finds text between a node's children that is
not plain blank space (something the grammar skipped). Known places where it
differs from bash are corrected by the walker (``shell_policy``): words after
a redirection target are the command's arguments (``rm >x -rf /``), and
``coproc`` is read as a plain command name.

Imported lazily (by the first command classified), never on the start-up path.
"""

from __future__ import annotations

import re
import threading
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node

_BLANK = re.compile(rb"(?:[ \t\n]|\\\n)*")
_local = threading.local()


@cache
def _language() -> Language:
    import tree_sitter
    import tree_sitter_bash
    return tree_sitter.Language(tree_sitter_bash.language())


def parse(source: bytes) -> Node | None:
    """The root of ``source``'s tree, or ``None`` when the grammar could not read all of it."""
    import tree_sitter
    parser = getattr(_local, "parser", None)
    if parser is None:  # a Parser is not safe to share between threads
        parser = _local.parser = tree_sitter.Parser(_language())
    root = parser.parse(source).root_node
    if root.has_error or odd_gap(source, root, edges=True):
        return None
    return root


def text(source: bytes, node: Node) -> str:
    """The source text of ``node`` (byte offsets: non-ASCII letters are allowed in commands)."""
    return source[node.start_byte:node.end_byte].decode()


def odd_gap(source: bytes, node: Node, *, edges: bool = False) -> bool:
    """Whether text between ``node``'s children (and, with ``edges``, before the first and after
    the last) is anything but blanks, newlines and line continuations, or is only a line
    continuation (which joins the two sides into one word; the grammar splits them)."""
    children = node.children
    starts = [c.start_byte for c in children] + ([len(source)] if edges else [])
    ends = ([0] if edges else []) + [c.end_byte for c in children]
    if not edges:
        starts, ends = starts[1:], ends[:-1]
    for end, start in zip(ends, starts, strict=True):
        if start <= end:
            continue
        if not _BLANK.fullmatch(source, end, start):
            return True
        if b"\\\n" in source[end:start] and not source[end:start].replace(b"\\\n", b""):
            return True  # bash removes a line continuation and joins what touches it: tr\<newline>uncate
    return False
