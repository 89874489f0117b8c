"""Agent definitions: ``.claude/agents/*.md`` and ``.foya/agents/*.md`` (Claude Code's sub-agent format).

Frontmatter ``name``, ``description``, ``tools``, ``model``, ``maxTurns``;
the body is the agent's system prompt. A definition becomes a :class:`VP`
(``to_vp``): VPs may start it as a sub-agent (``spawn_agent`` with
``agent=<name>``; the child keeps an immutable snapshot, so editing the file
later changes no running child) or the person may add it to the VP library
and so to a roster. Claude Code's tool names are mapped to Foya's.

Agent files are read confined (``tools.confined_read``): a project's agents
folder or agent file that leads out of the project is refused and reported.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from foya_desktop.core.model import VP
from foya_desktop.engine.project_files.cache import TextCache
from foya_desktop.engine.project_files.frontmatter import FrontmatterError, as_list, as_text, parse_document
from foya_desktop.engine.project_files.locations import USER_AGENTS, Locations
from foya_desktop.engine.project_files.problems import Problem, why_unusable
from foya_desktop.tools.confined_read import OWN, Confinement, check_folder

AGENT_DIRS = (".claude/agents", ".foya/agents")
MAX_TURNS = 200
CLAUDE_TOOLS = {
    "read": "read_file", "write": "write_file", "edit": "edit_file", "multiedit": "edit_file",
    "glob": "glob", "grep": "grep", "ls": "list_dir", "bash": "run_command",
    "bashoutput": "task_output", "killbash": "task_cancel", "killshell": "task_cancel",
    "task": "spawn_agent", "askuserquestion": "ask_user",
}
"""Claude Code tool name (case-insensitive) → Foya tool name. Foya names are accepted as they are."""
FAST_MODELS = ("haiku", "fast", "mini", "flash")
_SLUG = re.compile(r"[^\w\-]+")


@dataclass(frozen=True, slots=True)
class AgentDefinition:
    """One agent file that loaded."""

    name: str
    """Mention handle and ``spawn_agent`` name (letters, digits, '-', '_')."""
    description: str
    prompt: str
    """The body: the agent's system prompt."""
    tools: tuple[str, ...]
    """Foya tool names; empty means every tool the session allows (Claude Code: field omitted)."""
    unknown_tools: tuple[str, ...]
    """Names in ``tools`` Foya has no equivalent for (left out, reported)."""
    model: str
    """As written (``sonnet``, ``haiku``, ``inherit``, a model id…); a hint, the session decides."""
    max_turns: int | None
    path: str
    scope: Literal["user", "project"]

    def to_vp(self) -> VP:
        """The definition as a persona (id ``agent-<name>``; not stored until added to the library)."""
        hint = "fast" if any(m in self.model.casefold() for m in FAST_MODELS) else ""
        return VP(id=f"agent-{self.name.casefold()}", name=self.name, display_name=self.name,
                  soul=self.prompt or self.description, model_hint=hint, tools=self.tools,
                  max_steps=self.max_turns or 25)


def agent_folders(where: Locations) -> list[tuple[Path, Literal["user", "project"]]]:
    """Folders of agent files, most general first."""
    out: list[tuple[Path, Literal["user", "project"]]] = [(where.user / USER_AGENTS, "user")]
    out += [(folder / d, "project") for folder in where.folders for d in AGENT_DIRS]
    return out


def load_agents(where: Locations, cache: TextCache,
                known_tools: set[str]) -> tuple[list[AgentDefinition], list[Problem]]:
    """Every readable definition by name (deeper wins) and a problem per broken or refused file."""
    found: dict[str, AgentDefinition] = {}
    problems: list[Problem] = []
    for base, scope in agent_folders(where):
        confinement = OWN if scope == "user" else where.project
        try:
            real_base = check_folder(base, confinement)
            names = sorted(n for n in os.listdir(real_base) if n.endswith(".md")
                           and not os.path.isdir(real_base / n)) if real_base else []
        except OSError as exc:
            problems.append(Problem("agent", str(base), why_unusable(exc)))
            continue
        for path in (base / n for n in names):
            try:
                agent = read_agent(path, scope, cache, known_tools, confinement)
            except (FrontmatterError, OSError, UnicodeError) as exc:
                problems.append(Problem("agent", str(path), why_unusable(exc)))
                continue
            if agent.unknown_tools:
                problems.append(Problem("agent", str(path), "Foya has no tool called "
                                        f"{', '.join(agent.unknown_tools)}; the agent runs without it"))
            found[agent.name.casefold()] = agent
    return sorted(found.values(), key=lambda a: a.name.casefold()), problems


def read_agent(path: Path, scope: Literal["user", "project"], cache: TextCache,
               known_tools: set[str], confinement: Confinement) -> AgentDefinition:
    """One definition; ``FrontmatterError`` when it is unusable, ``Refused`` when ``confinement``
    does not let it be read."""
    doc = parse_document(cache.read(path, confinement) or "")
    if not doc.has_frontmatter:
        raise FrontmatterError("it has no frontmatter (a --- block with name and description)")
    name = _SLUG.sub("-", as_text(doc.fields.get("name")).strip() or path.stem).strip("-")[:40]
    description = " ".join(as_text(doc.fields.get("description")).split())
    if not name or not description:
        raise FrontmatterError("the frontmatter needs a name and a description")
    tools, unknown = _tools(as_list(doc.fields.get("tools")), known_tools)
    return AgentDefinition(name, description, doc.body.strip(), tools, unknown,
                           as_text(doc.fields.get("model")).strip(),
                           _max_turns(as_text(doc.fields.get("maxTurns"))), str(path), scope)


def _tools(names: list[str], known: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    mapped: list[str] = []
    unknown: list[str] = []
    for raw in names:
        name = raw if raw in known else CLAUDE_TOOLS.get(raw.casefold(), "")
        if name and name in known:
            mapped.append(name)
        else:
            unknown.append(raw)
    if names and not mapped:
        mapped = ["(none)"]  # a list of only unknown tools grants nothing, never everything
    return tuple(dict.fromkeys(mapped)), tuple(unknown)


def _max_turns(text: str) -> int | None:
    try:
        value = int(text.strip())
    except ValueError:
        if text.strip():
            raise FrontmatterError(f"maxTurns is a whole number, not {text.strip()!r}") from None
        return None
    if not 1 <= value <= MAX_TURNS:
        raise FrontmatterError(f"maxTurns is between 1 and {MAX_TURNS}, not {value}")
    return value

