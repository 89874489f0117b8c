"""The agent's file tools, its commands and the files a trusted project MCP server runs.

A trusted stdio server runs project files (``tools.mcp.run_files``) unconfined, with the
person's permissions. If ``write_file``/``edit_file`` changed one without asking, the
agent would be choosing what that server runs. A change is caught at the next start
anyway (the file's hash is part of the trust, so the server waits for trust again), but
the write itself is the moment to ask: in every approval mode, auto included, such a
write asks the person, no earlier "allow" covers it, and with nobody to answer
(``foya run``) it is refused. Read-only sessions refuse writes before this is reached.

Commands that run unasked (auto mode, or classified read-only) run confined, and
:func:`read_only_run_files` adds these files to the sandbox's read-only places: a
read-only bind mount over each, so ``echo >> server.py``, ``sed -i`` (a rename onto
it) and ``rm`` all fail, and the server still starts trusted afterwards. A file that
does not exist yet (a module that would shadow an installed one) cannot be held that
way; creating it is caught at the server's next start.

The files are those recorded with each trust (what the person saw), not what
``.mcp.json`` says now, so editing the config first does not free the script.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from foya_desktop.core.model import Session
from foya_desktop.engine.permissions.policy import Verdict
from foya_desktop.store.ops_mcp_trust import trusted_servers
from foya_desktop.store.store import Store
from foya_desktop.tools.base import Action
from foya_desktop.tools.mcp.trust_spec import TrustSpec

CODE = "runs_trusted_file"
"""The verdict's code (``core/error_codes.py`` APPROVAL_REASONS; no standing rule is offered for it)."""


async def trusted_run_files(store: Store, project_id: str) -> dict[str, list[str]]:
    """Project-relative path → the trusted servers that run it."""
    runs: dict[str, list[str]] = {}
    for record in (await store.read(trusted_servers, project_id)).values():
        spec = TrustSpec.from_json(record.spec)
        for f in spec.files if spec is not None else ():
            if f.state != "outside":
                runs.setdefault(f.path, []).append(record.server)
    return runs


async def read_only_run_files(store: Store, session: Session) -> tuple[Path, ...]:
    """The files trusted servers of the session's project run, for a confined command's
    read-only places (``tools.sandbox.SandboxPolicy.read_only``)."""
    if not session.project_id or not session.workdir:
        return ()
    root = Path(await asyncio.to_thread(os.path.realpath, session.workdir))
    return tuple(root / path for path in sorted(await trusted_run_files(store, session.project_id)))


async def guard_run_files(store: Store, session: Session, action: Action, verdict: Verdict) -> Verdict:
    """``verdict``, or an *ask* when a file-tool write would change a file a trusted server runs."""
    if action.kind != "write" or verdict.decision == "deny" or not session.project_id or not session.workdir:
        return verdict
    root = Path(await asyncio.to_thread(os.path.realpath, session.workdir))
    paths = [p.relative_to(root).as_posix() for p in action.paths if p.is_relative_to(root)]
    if not paths:
        return verdict
    runs = await trusted_run_files(store, session.project_id)
    hit = next((p for p in paths if p in runs), None)
    if hit is None:
        return verdict
    servers = ", ".join(sorted(set(runs[hit])))
    return Verdict("ask", f"{hit} is run by the trusted MCP server {servers}: changing it changes what "
                          "runs on this computer, so Foya asks in every mode", code="runs_trusted_file",
                   params={"path": hit, "servers": servers})
