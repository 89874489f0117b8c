"""What a folder offers: rules, skills, agent files and MCP servers, with what failed and why.

One function for ``foya projects info`` (text and ``--json``) and the window, so both
say the same thing. The MCP part lists configuration only (``tools.mcp.config``); it
never starts a server or imports the SDK. Files that confinement refused
(``tools.confined_read``: a link out of the project, a hard link, a pseudo-file,
too large…) are problems with ``"refused": true`` and get their own heading.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from foya_desktop.engine.project_files.catalog import ProjectContext, ProjectFiles
from foya_desktop.engine.project_files.problems import mcp_problem
from foya_desktop.engine.project_files.rules import RULES_BUDGET_CHARS
from foya_desktop.tools.mcp.config import McpListing, configured_servers


def folder_report(data_dir: Path, folder: Path, known_tools: set[str]) -> dict[str, Any]:
    """The JSON-ready report for ``folder`` used as project root and workdir (blocking I/O)."""
    ctx = ProjectFiles().load_sync(data_dir, str(folder), str(folder), known_tools)
    return report_of(ctx, configured_servers(data_dir, folder), folder)


def report_of(ctx: ProjectContext, mcp: McpListing, folder: Path) -> dict[str, Any]:
    """Rules, skills, agents and servers as plain data."""
    return {
        "folder": str(folder),
        "searched": [str(f) for f in ctx.where.folders],
        "rules": {"budget_chars": RULES_BUDGET_CHARS, "truncated": ctx.rules.truncated,
                  "files": [{"path": f.path, "scope": f.scope, "chars": f.chars, "sent_chars": f.sent_chars}
                            for f in ctx.rules.files]},
        "skills": [{"name": s.name, "description": s.description, "path": s.path, "scope": s.scope}
                   for s in ctx.skills],
        "agents": [{"name": a.name, "description": a.description, "path": a.path, "scope": a.scope,
                    "tools": list(a.tools), "model": a.model, "max_turns": a.max_turns}
                   for a in ctx.agents],
        "mcp_servers": [{"name": s.name, "scope": s.scope, "source": str(s.source), "transport": s.transport,
                         "target": s.url or " ".join((s.command, *s.args)).strip(), "problem": s.problem}
                        for s in mcp.servers],
        "problems": [{"kind": p.kind, "path": p.path, "reason": p.reason, "refused": p.refused}
                     for p in (*ctx.problems, *map(mcp_problem, mcp.problems))]
                    + [{"kind": "mcp", "path": str(s.source), "reason": s.problem, "refused": False}
                       for s in mcp.servers if s.problem],
    }


def report_text(report: dict[str, Any]) -> str:
    """The report as plain lines for a terminal."""
    lines = [f"Project files for {report['folder']}"]
    rules = report["rules"]
    lines.append(f"\nRules (sent within {rules['budget_chars']:,} characters"
                 + (", TRUNCATED" if rules["truncated"] else "") + "):")
    lines += [f"  {r['path']}  ({r['scope']}, {r['chars']:,} chars"
              + (f", {r['sent_chars']:,} sent" if r["sent_chars"] < r["chars"] else "") + ")"
              for r in rules["files"]] or ["  none"]
    for title, key in (("Skills", "skills"), ("Agent definitions", "agents")):
        lines.append(f"\n{title}:")
        lines += [f"  {x['name']}  — {x['description'][:70]}  ({x['path']})"
                  for x in report[key]] or ["  none"]
    lines.append("\nMCP servers:")
    lines += [f"  {m['name']}  ({m['scope']}, {m['transport']}) {m['target']}"
              for m in report["mcp_servers"]] or ["  none"]
    refused = [p for p in report["problems"] if p["refused"]]
    if refused:
        lines.append("\nRefused (not read, so never sent to a model):")
        lines += [f"  {p['path'] or p['kind']}: {p['reason']}" for p in refused]
    lines.append("\nFailed to load:")
    lines += [f"  {p['path'] or p['kind']}: {p['reason']}" for p in report["problems"]
              if not p["refused"]] or ["  nothing"]
    return "\n".join(lines)
