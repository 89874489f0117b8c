"""``ask_user``: a question card for the person, answered in the window.

The tool never answers for the person: with nobody to ask, or when the
question closes unanswered, the model is told so plainly.
"""

from __future__ import annotations

from typing import Any

from foya_desktop.core.errors import ToolError
from foya_desktop.tools.base import Action, ToolContext, ToolOutput

ASK_USER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "description": "The question, short and specific."},
        "choices": {"type": "array", "items": {"type": "string"},
                    "description": "Optional answers to pick from (the person may also type one)."},
    },
    "required": ["question"],
}


class AskUserTool:
    """Ask the person a question and wait for the answer."""

    name = "ask_user"
    description = ("Ask the person a question when you cannot proceed without their decision. "
                   "Offer choices when there are a few obvious options. Wait for the answer; "
                   "never assume one.")
    parameters = ASK_USER_SCHEMA

    def _args(self, args: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
        question = args.get("question")
        if not isinstance(question, str) or not question.strip():
            raise ToolError("ask_user needs a non-empty 'question'.")
        choices = args.get("choices") or []
        if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
            raise ToolError("'choices' must be a list of strings.")
        return question.strip(), tuple(c for c in choices if c.strip())[:12]

    def plan(self, args: dict[str, Any], ctx: ToolContext) -> Action:
        """Questions touch nothing."""
        question, _ = self._args(args)
        return Action(kind="ask", summary=question[:200])

    async def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        """Wait for the person's answer."""
        question, choices = self._args(args)
        if ctx.ask_user is None:
            return ToolOutput("Nobody can answer questions in this run. Continue with a clearly "
                              "stated assumption, or stop and say what you need.", is_error=True)
        try:
            answer = await ctx.ask_user(question, choices)
        except ToolError as exc:
            return ToolOutput(f"The question was not answered: {exc}. Ask again if you still "
                              "need the answer.", is_error=True)
        return ToolOutput(f"The person answered: {answer}")
