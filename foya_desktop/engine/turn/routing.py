"""Which VPs a user message goes to. ``@Name`` mentions pick a subset.

Mentions are matched case-insensitively against VP names (and ids) in the
session roster; a mention of someone not in the roster is just text.
Mentions inside VP replies are never routed (only user messages come here).
"""

from __future__ import annotations

import re

from foya_desktop.core.model import VP

MENTION = re.compile(r"(?<![\w@])@([\w\-\u00c0-\uffff]+)")


def mentioned(text: str, roster: list[VP]) -> list[VP]:
    """The roster VPs mentioned in ``text``, in roster order, without duplicates."""
    names = {m.group(1).casefold() for m in MENTION.finditer(text)}
    return [vp for vp in roster if vp.name.casefold() in names or vp.id.casefold() in names]


def targets(text: str, roster: list[VP], default_vp: str) -> list[VP]:
    """Mentioned VPs, or the default VP when nobody is mentioned."""
    picked = mentioned(text, roster)
    if picked:
        return picked
    by_id = {vp.id: vp for vp in roster}
    return [by_id.get(default_vp, roster[0])]
