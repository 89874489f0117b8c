"""The lenient frontmatter reader: what real SKILL.md and agent files contain must load (F07)."""

from __future__ import annotations

import pytest

from foya_desktop.engine.project_files.frontmatter import FrontmatterError, as_list, parse_document


def test_unquoted_globs_and_colons_in_values_load() -> None:
    doc = parse_document("---\nname: py\ndescription: Use when: editing *.py: always\n"
                         "globs: *.py, **/*.pyi\n---\nBody\n")
    assert doc.fields["description"] == "Use when: editing *.py: always"
    assert as_list(doc.fields["globs"]) == ["*.py", "**/*.pyi"]
    assert doc.body == "Body"


def test_lists_block_scalars_quotes_and_continuations() -> None:
    text = ("\ufeff---\n# a comment\ntools:\n  - Read\n  - 'Grep'\nflow: [a, \"b\"]\n"
            "folded: >\n  one\n  two\nliteral: |\n  line 1\n  line 2\n"
            "plain: starts here\n  and continues\nquoted: \"say \\\"hi\\\"\"\nempty:\n---\n")
    f = parse_document(text).fields
    assert f["tools"] == ["Read", "Grep"] and f["flow"] == ["a", "b"]
    assert f["folded"] == "one two" and f["literal"] == "line 1\nline 2"
    assert f["plain"] == "starts here and continues" and f["quoted"] == 'say "hi"'
    assert f["empty"] == ""


def test_no_frontmatter_is_all_body() -> None:
    doc = parse_document("# Just markdown\n")
    assert not doc.has_frontmatter and doc.fields == {} and doc.body == "# Just markdown\n"


@pytest.mark.parametrize(("text", "reason"), [
    ("---\nname: x\n", "no closing ---"),
    ("---\nname: x\nnot a pair\n---\n", "line 3 is not 'key: value'"),
])
def test_unreadable_frontmatter_says_where(text: str, reason: str) -> None:
    with pytest.raises(FrontmatterError, match=reason):
        parse_document(text)


def test_comma_or_space_separated_tools() -> None:
    assert as_list("Read, Grep Glob") == ["Read", "Grep", "Glob"] and as_list(None) == []
