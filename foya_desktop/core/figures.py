"""What one VP's run in a turn has spent and done, as the status line shows it.

The Yeaft seed's rules (Y41-Y46), in one place:

* tokens are the provider's reported figures for this VP's requests in this
  turn — input *including* cache reads/writes, sub-agents excluded (they run
  in their own child sessions) — never the context size or a session total;
  ``None`` means the provider reported nothing ("not provided"), never 0 — and
  while a request is still on its way (streaming, or its tool calls waiting
  for approval before the next one) nothing *could* have been reported yet, so
  it says "not reported yet" until the request ends;
* an *execution* is a tool call that actually ran (succeeded or failed); a
  *blocked* call was refused before it ran (policy, denial, read-only, plan
  mode, bad arguments) and counts as a failure, never as an execution;
* per-tool tallies keep at most :data:`MAX_TOOL_KINDS` kinds; the totals
  always cover every call;
* a call whose outcome was stored without saying whether it ran or was
  blocked (a turn recorded by a Foya older than the per-tool breakdown) is
  counted in the totals but not per tool, and the figures say the detail is
  not available (``tool_detail``) instead of showing an empty or wrong table;
* "run details": repeated calls (same tool and arguments as an earlier call
  of the turn), duplicate results (same output as an earlier result), the
  time of the latest evidence (last successful result) and how all of this is
  counted. New evidence does not mean the task is done.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

MAX_TOOL_KINDS = 128

DEBUG_WARNING = ("Debug traces may contain project text and tool output. They are for you, the owner "
                 "of this session: do not export or share them casually.")

HOW_COUNTED = (
    "Tokens are what the provider reported for this VP's model requests in this turn: input includes "
    "cached tokens, sub-agents are not included, and a provider that reports nothing shows \"not "
    "provided\". Executions are tool calls that really ran (successful or failed); blocked calls were "
    "refused before running and count as failures, not executions. Repeated calls used the same tool "
    "and arguments as an earlier call of this turn; duplicate results repeated an earlier output. "
    "New evidence does not mean the task is done."
)


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts reported by a provider; ``None`` means not reported (never zero).

    ``input_tokens`` counts every prompt token, cache reads and writes included:
    the adapters convert Anthropic's ``input_tokens`` (which excludes them) and
    pass OpenAI's ``prompt_tokens`` (which includes ``cached_tokens``) as is.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None


@dataclass(frozen=True, slots=True)
class ToolTally:
    """One tool kind's calls in the run."""

    name: str
    executions: int = 0
    failures: int = 0
    """Failed executions plus blocked calls."""
    blocked: int = 0


@dataclass(frozen=True, slots=True)
class RunFigures:
    """A snapshot of one VP's run (live while it runs; derived from the store afterwards)."""

    input_tokens: int | None = None
    """Including cache reads and writes; ``None``: not provided."""
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    """The part of the input served from the prompt cache (reuse)."""
    requests: int = 0
    executions: int = 0
    failures: int = 0
    blocked: int = 0
    tools: tuple[ToolTally, ...] = ()
    """At most ``MAX_TOOL_KINDS`` kinds, in first-use order."""
    tools_omitted: int = 0
    """Tool kinds beyond the cap (their calls are still in the totals)."""
    repeated_calls: int = 0
    duplicate_results: int = 0
    latest_evidence_at: int = 0
    """Epoch ms of the latest successful tool result; 0 when there is none yet."""
    tool_detail: bool = True
    """``False``: some calls were recorded without their outcome (an older Foya), so the
    per-tool breakdown is not available for them; the totals still count them."""
    requests_open: int = 0
    """Requests sent that have not ended yet: their usage cannot have been reported."""

    @property
    def usage_pending(self) -> bool:
        """Nothing could have been reported yet: a request is on its way, or none was sent so far
        (while the run goes on: "not reported yet", never "not provided")."""
        return self.requests_open > 0 or self.requests == 0


NO_TOOL_DETAIL = ("Per-tool detail is not available for this run: it was recorded by an older Foya that "
                  "did not store whether each call ran or was blocked. The totals count every call.")


@dataclass
class FigureCounter:
    """Accumulates :class:`RunFigures` from requests and tool outcomes."""

    usage: Usage = field(default_factory=Usage)
    requests: int = 0
    executions: int = 0
    failures: int = 0
    blocked: int = 0
    tallies: dict[str, ToolTally] = field(default_factory=dict)
    omitted: set[str] = field(default_factory=set)
    calls_seen: set[str] = field(default_factory=set)
    results_seen: set[str] = field(default_factory=set)
    repeated_calls: int = 0
    duplicate_results: int = 0
    latest_evidence_at: int = 0
    detail_missing: bool = False
    requests_open: int = 0

    def request(self) -> None:
        """A model request was sent (counted while it streams)."""
        self.requests += 1
        self.requests_open += 1

    def reported(self, usage: Usage) -> None:
        """A request ended, with what the provider reported for it (maybe nothing)."""
        self.usage = add_usage(self.usage, usage)
        self.requests_open = max(0, self.requests_open - 1)

    def tool(self, name: str, arguments: str, *, blocked: bool, failed: bool, output: str,
             at: int, known: bool = True) -> None:
        """One finished tool call: ``blocked`` (never ran) or executed, ``failed`` or not.

        ``known=False``: the record does not say whether the call ran (an older Foya); it
        counts in the totals as an execution, not per tool, and the detail is marked missing.
        """
        if _digest(name, arguments) in self.calls_seen:
            self.repeated_calls += 1
        self.calls_seen.add(_digest(name, arguments))
        failure = blocked or failed
        self.blocked += int(blocked)
        self.executions += int(not blocked)
        self.failures += int(failure)
        if not failure:
            if _digest(name, output) in self.results_seen:
                self.duplicate_results += 1
            self.results_seen.add(_digest(name, output))
            self.latest_evidence_at = max(self.latest_evidence_at, at)
        if not known:
            self.detail_missing = True
            return
        self._tally(name, blocked, failure)

    def _tally(self, name: str, blocked: bool, failure: bool) -> None:
        if name not in self.tallies and len(self.tallies) >= MAX_TOOL_KINDS:
            self.omitted.add(name)
            return
        t = self.tallies.get(name, ToolTally(name))
        self.tallies[name] = ToolTally(name, t.executions + int(not blocked), t.failures + int(failure),
                                       t.blocked + int(blocked))

    def snapshot(self) -> RunFigures:
        """The figures as they are now."""
        u = self.usage
        return RunFigures(u.input_tokens, u.output_tokens, u.cache_read_tokens, self.requests,
                          self.executions, self.failures, self.blocked, tuple(self.tallies.values()),
                          len(self.omitted), self.repeated_calls, self.duplicate_results,
                          self.latest_evidence_at, not self.detail_missing, self.requests_open)


def add_usage(a: Usage, b: Usage) -> Usage:
    """Sum two usages; a field stays ``None`` only if neither reported it."""
    def plus(x: int | None, y: int | None) -> int | None:
        return None if x is None and y is None else (x or 0) + (y or 0)
    return Usage(plus(a.input_tokens, b.input_tokens), plus(a.output_tokens, b.output_tokens),
                 plus(a.cache_read_tokens, b.cache_read_tokens),
                 plus(a.cache_write_tokens, b.cache_write_tokens))


def tokens_text(value: int | None, *, pending: bool = False) -> str:
    """A full number with thousands separators, or "not provided" (never 0 for nothing) —
    "not reported yet" while a request is still on its way (``pending``)."""
    if value is None:
        return "not reported yet" if pending else "not provided"
    return f"{value:,}"


def _digest(name: str, text: str) -> str:
    return hashlib.sha256(f"{name}\0{text}".encode()).hexdigest()
