"""The command policy's answer, and how answers about the parts of a command combine."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

Decision = Literal["allow", "ask", "deny"]
_RANK: dict[Decision, int] = {"allow": 0, "ask": 1, "deny": 2}


@dataclass(frozen=True, slots=True)
class Verdict:
    """What to do with a command, and why in plain words."""

    decision: Decision
    """``allow``: run without asking; ``ask``: the person decides; ``deny``: never run."""
    reason: str
    network: bool = False
    """The command (or a part of it) reaches the network: never approved automatically."""
    outside: bool = False
    """The command names a path outside the project or in git internals (``cat ../x``,
    ``cp ~/.ssh/id_rsa .``): never approved automatically, even where other commands are."""
    parts: tuple[Mapping[str, object], ...] = ()
    """``reason`` as parts a window can translate: each ``{"code", "params", "text"}``, the code
    one of ``core/error_codes.py`` COMMAND_REASONS (``""``: free-form, show ``text``)."""

    @property
    def reason_parts(self) -> tuple[Mapping[str, object], ...]:
        """The parts of ``reason`` (one free-form part when none were given)."""
        return self.parts or (reason_part("", self.reason),)


def reason_part(code: str, text: str, **params: object) -> dict[str, object]:
    """One translatable part of a reason: its code, the values it was built from, the English text."""
    return {"code": code, "params": params, "text": text}


def coded(decision: Decision, code: str, text: str, params: Mapping[str, object] | None = None, *,
          network: bool = False, outside: bool = False) -> Verdict:
    """A verdict whose reason is one of the standard ones (``code``, see COMMAND_REASONS)."""
    return Verdict(decision, text, network, outside, (reason_part(code, text, **(params or {})),))


def combine(parts: Iterable[Verdict], allow_reason: str) -> Verdict:
    """The strictest decision wins (deny > ask > allow); reasons of that level are joined."""
    found = list(parts)
    network = any(v.network for v in found)
    outside = any(v.outside for v in found)
    worst: Decision = max((v.decision for v in found), key=_RANK.__getitem__, default="allow")
    if worst == "allow":
        return Verdict("allow", allow_reason, network, outside)
    reasons = list(dict.fromkeys(v.reason for v in found if v.decision == worst))
    shown = "; ".join(reasons[:4]) + (f" (and {len(reasons) - 4} more)" if len(reasons) > 4 else "")
    by_text = {str(p["text"]): p for v in found if v.decision == worst for p in v.reason_parts}
    pieces = list(by_text.values())
    if len(pieces) > 4:
        more = len(pieces) - 4
        pieces = [*pieces[:4], reason_part("more_reasons", f"(and {more} more)", count=more)]
    return Verdict(worst, shown, network, outside, tuple(pieces))
