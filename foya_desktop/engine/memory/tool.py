"""The ``memory`` tool: a VP saves, lists and forgets entries in the scopes it may write.

What a VP may write (docs/window/memory.md "Memory"):

* its own VP scope (``vp``), its session-nested scope (``session-vp``) and the
  session scope (``session``): run without asking — low risk, and every save shows
  in the timeline as the call's row with an *Undo*; a VP-scope save reaches every
  project, so it is announced too (``foya run`` prints it, the window shows a notice
  with *Undo*);
* the user scope (``user``): the person's lasting preferences reach every future
  session, so the approval policy asks the person first, in every mode
  (``engine.permissions.policy._memory``); without a window it is refused.

While the session is read-only or in plan mode every save and forget is asked like a
file write (refused without a window): memory outlives the session.

A VP never writes another VP's scopes: the VP is always the caller. It can
forget only entries of its own view (``store.memory.view_of``), and never the
person's user-scope entries (those are removed by the person).
"""

from __future__ import annotations

from typing import Any

from foya_desktop.core.errors import FoyaError, ToolError
from foya_desktop.core.memory import MEMORY_TOOL, MemoryEntry, MemoryScope, saved_entry
from foya_desktop.engine.memory.ops import changed, clean_text, parse_scope
from foya_desktop.engine.services import Services
from foya_desktop.store import memory as rows
from foya_desktop.tools.base import Action, ToolContext, ToolOutput
from foya_desktop.tools.common import arg_str

MEMORY = MEMORY_TOOL
__all__ = ["MEMORY", "MemoryTool", "describe", "saved_entry"]

SCOPE_WORDS = {
    MemoryScope.USER: "the person's own memory (every session, every VP)",
    MemoryScope.VP: "your VP memory (you, in every session)",
    MemoryScope.SESSION_VP: "your memory in this session",
    MemoryScope.SESSION: "this session's shared memory (every VP here)",
}

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["save", "list", "forget"]},
        "scope": {"type": "string", "enum": [s.value for s in MemoryScope],
                  "description": "save: where the entry goes (default session). user = the person's "
                                 "lasting preferences (asks the person); vp = your knowledge in every "
                                 "session; session-vp = your knowledge in this session; session = "
                                 "shared facts of this collaboration."},
        "text": {"type": "string", "description": "save: the fact or preference, short and self-contained."},
        "id": {"type": "string", "description": "forget: the entry id (from list)."},
    },
    "required": ["action"],
    "additionalProperties": False,
}


def describe(entry: MemoryEntry) -> str:
    """One line for the model: id, scope and text."""
    return f"- {entry.id} [{entry.scope}] {entry.text}"


class MemoryTool:
    """Save / list / forget in the caller's scopes."""

    name = MEMORY
    description = ("Remember facts across turns and sessions. save: store a short fact or preference "
                   "(scope session by default; vp or session-vp for your own role knowledge; user only "
                   "for the person's lasting preferences, which asks them). list: what you can see. "
                   "forget: remove an entry by id. Your memory is already shown in your instructions.")
    parameters = SCHEMA

    def __init__(self, svc: Services) -> None:
        self._svc = svc

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Saves and forgets are ``memory`` actions on their scope; listing is ``other``."""
        action = arg_str(args, "action") or "list"
        if action == "list":
            return Action(kind="other", summary="List memory")
        if action == "save":
            scope = self._scope(args)
            if not arg_str(args, "text").strip():
                raise ToolError("save needs the text to remember.")
            return Action(kind="memory", summary=f"Remember in {scope}: {arg_str(args, 'text')[:200]}",
                          command=str(scope))
        if action == "forget":
            if not arg_str(args, "id").strip():
                raise ToolError("forget needs the id of the entry (see action list).")
            return Action(kind="memory", summary=f"Forget {arg_str(args, 'id').strip()}", command="forget")
        raise ToolError(f"Unknown action {action!r}: use save, list or forget.")

    @staticmethod
    def _scope(args: dict[str, Any]) -> MemoryScope:
        try:
            return parse_scope(arg_str(args, "scope") or "session")
        except FoyaError as exc:
            raise ToolError(str(exc)) from None

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Do it; the result names the entry so the person (and the model) can refer to it."""
        action = arg_str(args, "action") or "list"
        store = self._svc.store
        if action == "list":
            entries = await store.read(rows.view_of, ctx.speaker, ctx.session_id)
            if not entries:
                return ToolOutput("Your memory is empty (user, VP, session-VP and session scopes).")
            return ToolOutput("\n".join(describe(e) for e in entries))
        if action == "save":
            scope = self._scope(args)
            try:
                text = clean_text(arg_str(args, "text"))
            except FoyaError as exc:
                return ToolOutput(str(exc), is_error=True)
            entry = await store.write(lambda: rows.add_memory(
                scope, text, vp_id=ctx.speaker, session_id=ctx.session_id, author=ctx.speaker,
                source_session_id=ctx.session_id))
            self._svc.bus.publish(changed(ctx.session_id, entry, "saved"))
            return ToolOutput(f"Saved {entry.id} to {scope} memory — {SCOPE_WORDS[scope]}. "
                              "The person sees it in the timeline and may undo it.")
        entry_id = arg_str(args, "id").strip()
        visible = {e.id: e for e in await store.read(rows.view_of, ctx.speaker, ctx.session_id)}
        if entry_id not in visible:
            return ToolOutput(f"{entry_id} is not in your memory (see action list); nothing was forgotten.",
                              is_error=True)
        if visible[entry_id].scope == MemoryScope.USER:
            return ToolOutput("Entries of the person's own (user) memory are theirs to remove, in the "
                              "Memory window or with `foya memory remove`; nothing was forgotten.",
                              is_error=True)
        entry = await store.write(rows.remove_memory, entry_id)
        self._svc.bus.publish(changed(ctx.session_id, entry, "removed", ctx.speaker))
        return ToolOutput(f"Forgot {entry_id}.")
