"""``foya sessions set``: change a session's settings from a terminal.

The change goes through the same kernel validation as the window. The
running process (window or another ``foya run``) reads settings from the
database before every model request and tool call, so a change made here
applies there at the very next call.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from foya_desktop.cli.sessions_set import set_changes
from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import AgentMode, ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.session.settings import EFFORTS

_FLAGS = (("title", "title"), ("announcement", "announcement"), ("connection", "connection"),
          ("model", "model"), ("effort", "reasoning_effort"), ("approval", "approval_mode"),
          ("agent_mode", "agent_mode"))


def add_settings_flags(p: argparse.ArgumentParser) -> None:
    """Add the settings flags to ``foya sessions set`` (``cli.sessions_set`` owns id, roster, --json)."""
    p.add_argument("--title", metavar="T")
    p.add_argument("--announcement", metavar="A", help="shown to every VP in its system prompt")
    p.add_argument("--connection", metavar="C", help="a configured connection name")
    p.add_argument("--model", metavar="M")
    p.add_argument("--effort", metavar="|".join(EFFORTS),
                   help=f"reasoning effort: {', '.join(EFFORTS)} or 'default'")
    p.add_argument("--approval", metavar="MODE",
                   help=f"approval mode: {', '.join(m.value for m in ApprovalMode)}")
    p.add_argument("--agent-mode", dest="agent_mode", metavar="MODE",
                   help=f"agent mode: {', '.join(m.value for m in AgentMode)}")
    pin = p.add_mutually_exclusive_group()
    pin.add_argument("--pin", dest="pinned", action="store_const", const=True)
    pin.add_argument("--unpin", dest="pinned", action="store_const", const=False)


def settings_changes(args: argparse.Namespace) -> dict[str, Any]:
    """The fields the command line asked to change (validation is the kernel's)."""
    changes = {field: getattr(args, flag) for flag, field in _FLAGS if getattr(args, flag) is not None}
    if args.pinned is not None:
        changes["pinned"] = args.pinned
    return changes


async def set_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Apply the requested changes and print the resulting settings."""
    changes = {**set_changes(args), **settings_changes(args)}
    if not changes:
        raise InvalidOperation("Nothing to change: pass at least one of --title, --announcement, "
                               "--connection, --model, --effort, --approval, --agent-mode, --pin/--unpin, "
                               "--roster, --default-vp.")
    s = await kernel.sessions.update_session(args.id, **changes)
    names = {vp.id: vp.name for vp in await kernel.vps.list_vps()}
    settings = {"session_id": s.id, "title": s.title, "announcement": s.announcement,
                "connection": s.connection, "model": s.model, "reasoning_effort": s.reasoning_effort,
                "approval_mode": str(s.approval_mode), "agent_mode": str(s.agent_mode),
                "pinned": s.pinned, "roster": [names.get(v, v) for v in s.roster],
                "default_vp": names.get(s.default_vp, s.default_vp)}
    if args.json:
        print(json.dumps(settings, ensure_ascii=False))
    else:
        changed = ", ".join(f"{k}={settings[k]!r}" for k in settings if k in changes)
        print(f"Updated {s.id}: {changed}. Applies from the next model request or tool call.")
    return 0
