"""Engine errors in the window's language, looked up by their stable code.

Why codes: the engine's English sentence is built from values (a session id,
a status code), so it cannot be a translation key. ``FoyaError`` carries a
``code`` and the ``params`` the sentence was built from; this module holds
one translatable template per known code. Unknown codes (a new error, or an
error from outside Foya) fall back to the English text, never to nothing.

Two kinds of entries:

* *exact* codes (``session_busy``, ``branch_inside_running_turn``, …) say the
  whole sentence, built from ``params``;
* *kind* codes (one per error class: ``auth_error``, ``disk_full``, …) say what
  went wrong in general; the engine's English detail (a vendor's message, a
  path) follows in parentheses when the window is not in English. The broad
  classes (``not_found``, ``invalid_operation``, ``bad_input``) have no entry:
  their sentence *is* the information, so until a finer code exists it is
  shown as the engine wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from foya_desktop.core.errors import FoyaError
from foya_desktop.ui import i18n

_EXACT: dict[str, object] = {
    "session_busy": QT_TRANSLATE_NOOP("ErrorText", "The session is busy; the message waits in the queue."),
    "session_busy:operation": QT_TRANSLATE_NOOP(
        "ErrorText", "The session is busy. Stop the running turn first."),
    "branch_inside_running_turn": QT_TRANSLATE_NOOP(
        "ErrorText",
        "Cannot branch inside the turn that is still running: branch after an "
        "earlier turn's reply, or wait until this one ends."),
    "session_deleted": QT_TRANSLATE_NOOP("ErrorText", "This session has been deleted."),
    "question_unanswered": QT_TRANSLATE_NOOP("ErrorText", "The question was closed without an answer."),
    "branch_user_message": QT_TRANSLATE_NOOP(
        "ErrorText",
        "Cannot branch at a user message: branch after a complete reply or tool result instead."),
    "branch_incomplete_reply": QT_TRANSLATE_NOOP(
        "ErrorText",
        "Cannot branch after a reply that did not complete: branch after an earlier complete "
        "reply or tool result."),
    "branch_call_without_result": QT_TRANSLATE_NOOP(
        "ErrorText",
        "Cannot branch after a tool call without its result: branch after the tool result instead."),
    "branch_answered_later": QT_TRANSLATE_NOOP(
        "ErrorText",
        "Cannot branch here: a tool call before this point gets its result only after it. "
        "Branch after the tool result."),
    "broad_project": QT_TRANSLATE_NOOP(
        "ErrorText",
        "The folder {folder} is too broad to be a project (the root, your home folder, or around "
        "Foya's data folder): tools and commands could reach nearly everything. It needs your "
        "explicit confirmation."),
    "rewind_images": QT_TRANSLATE_NOOP(
        "ErrorText",
        "This message has attachments (images). Only plain-text messages can go back to the "
        "composer, so the history cannot be rewound to it."),
    "rewind_not_movable_meta": QT_TRANSLATE_NOOP(
        "ErrorText",
        "This message carries browser elements or a command id; only plain-text messages can "
        "go back to the composer, so it cannot be rewound to."),
    "fork_in_progress": QT_TRANSLATE_NOOP(
        "ErrorText", "A fork of this session is already being made; wait for it to open."),
    "rewind_stale": QT_TRANSLATE_NOOP(
        "ErrorText", "The session or its files changed since the preview; check the new preview."),
    "reply_cut_off": QT_TRANSLATE_NOOP(
        "ErrorText",
        "{vp}'s reply was cut off at the length limit ({max_tokens} tokens); ask it to continue."),
    "step_limit_reached": QT_TRANSLATE_NOOP("ErrorText", "{vp} reached its limit of {max_steps} steps."),
    "step_limit_failing_calls": QT_TRANSLATE_NOOP(
        "ErrorText", "{vp} reached its limit of {max_steps} steps because its tool calls kept failing: "
        "in the last {failing} steps it sent none that could run (each failure was returned to it)."),
    "turn_stopped": QT_TRANSLATE_NOOP(
        "ErrorText", "You rejected the tool call without a reason, so the turn stopped."),
    "operation_stopped": QT_TRANSLATE_NOOP("ErrorText", "Stopped; nothing was changed."),
    "branch_exists": QT_TRANSLATE_NOOP(
        "ErrorText", "The branch {branch} already exists; pick it as an existing branch, or name a new one."),
    "not_a_worktree": QT_TRANSLATE_NOOP(
        "ErrorText", "This session's folder is not a git worktree Foya made."),
    "worktree_uncommitted": QT_TRANSLATE_NOOP(
        "ErrorText", "The worktree has uncommitted files; commit them first (a merge takes commits only)."),
    "worktree_unmerged": QT_TRANSLATE_NOOP(
        "ErrorText", "The worktree holds work that is not in {base}: {commits} commit(s) on {branch} and "
        "{files} uncommitted file(s); removing it needs a second confirmation."),
    "work_graph_invalid": QT_TRANSLATE_NOOP(
        "ErrorText", "The WorkItem's action graph cannot run ({action})."),
    "work_unknown_vp": QT_TRANSLATE_NOOP(
        "ErrorText", "The WorkItem names a VP that is not in the library: {vp}."),
    "work_folder_missing": QT_TRANSLATE_NOOP(
        "ErrorText", "The WorkItem's working folder does not exist: {folder}."),
    "work_check_refused": QT_TRANSLATE_NOOP(
        "ErrorText", "The check command {command} is refused by the command policy: {reason}."),
    "work_busy_elsewhere": QT_TRANSLATE_NOOP(
        "ErrorText", "The Work Center of this data folder is running in another foya process (pid {pid})."),
    "work_state": QT_TRANSLATE_NOOP("ErrorText", "The WorkItem {item} cannot do that while it is {state}."),
}
"""One template per exact code, filled from the error's ``params`` (a missing one reads "?").

QT_TRANSLATE_NOOP marks each for lupdate; the lookup (``_exact_text``) translates it when it is
shown, so the table can be built at import time, before any translator is installed."""


class _Params(dict[str, object]):
    """``str.format_map`` over an error's params: a missing one reads "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def _exact_text(code: str, params: Mapping[str, object]) -> str | None:
    if code == "session_busy_elsewhere":
        return QCoreApplication.translate(
            "ErrorText", "This session is {doing} {where}. Wait until it has finished there, or stop it "
            "there, then try again.").format(**_elsewhere(params))
    if code == "session_busy" and params.get("operation") not in (None, "turn"):
        code = "session_busy:operation"
    template = _EXACT.get(code)
    if template is None:
        return None
    return QCoreApplication.translate("ErrorText", str(template)).format_map(_Params(params))


def _elsewhere(params: Mapping[str, object]) -> dict[str, str]:
    """What another process does in a session and where (``SessionBusyElsewhere``'s ``what``,
    ``kind`` and ``pid``), in the window's words: the same sentence the command line prints
    (``store.leases.owner_sentence``), not a vaguer one of the window's own."""
    translate = QCoreApplication.translate
    doing = {
        "running a turn": translate("ErrorText", "running a turn"),
        "running a sub-agent": translate("ErrorText", "running a sub-agent"),
        "being rewound": translate("ErrorText", "being rewound"),
        "being deleted": translate("ErrorText", "being deleted"),
        "being compacted": translate("ErrorText", "being compacted"),
    }.get(str(params.get("what", "")), translate("ErrorText", "busy with an operation"))
    pid = params.get("pid", "?")
    where = (translate("ErrorText", "in the Foya window (pid {pid})") if params.get("kind") == "window"
             else translate("ErrorText", "in another foya process (pid {pid})")).format(pid=pid)
    return {"doing": doing, "where": where}


def _kinds() -> dict[str, str]:
    translate = QCoreApplication.translate
    return {
        "auth_error": translate(
            "ErrorText", "The model service refused the API key (missing, wrong or no access)."
        ),
        "rate_limited": translate(
            "ErrorText", "The model service is limiting requests; try again in a moment."
        ),
        "overloaded": translate("ErrorText", "The model service is overloaded or failing; try again later."),
        "context_too_long": translate(
            "ErrorText",
            "The conversation is longer than the model's context window; compact it or start a branch.",
        ),
        "cannot_connect": translate(
            "ErrorText", "Cannot reach the model service (refused, name or TLS failure)."
        ),
        "provider_timeout": translate("ErrorText", "The model service took too long to answer."),
        "incomplete_stream": translate("ErrorText", "The reply stopped before it was complete."),
        "reply_too_large": translate(
            "ErrorText", "The reply was too large and was stopped so it cannot fill the memory."),
        "bad_response": translate("ErrorText", "The model service sent something Foya cannot read."),
        "stream_error_event": translate("ErrorText", "The model service reported an error while replying."),
        "unreadable_reply": translate(
            "ErrorText", "The model service could not read the model's reply as a tool call or text."),
        "provider_error": translate("ErrorText", "The model service call failed."),
        "keyring_unavailable": translate(
            "ErrorText", "This system has no secure keyring, so API keys cannot be stored."
        ),
        "database_locked": translate(
            "ErrorText", "Another program kept Foya's database locked for too long."
        ),
        "disk_full": translate("ErrorText", "The disk is full; Foya could not save."),
        "storage_read_only": translate("ErrorText", "Foya's data folder cannot be written."),
        "wrong_file_type": translate(
            "ErrorText", "Something of another kind is where Foya's database or data folder belongs; "
            "nothing there was changed."),
        "database_corrupt": translate("ErrorText", "Foya's database file is damaged; it is not written to."),
        "schema_too_new": translate(
            "ErrorText", "The database was written by a newer Foya; update Foya to open it."
        ),
        "schema_invalid": translate("ErrorText", "The database records a schema version Foya never wrote."),
        "storage_error": translate("ErrorText", "Foya's data folder cannot be used."),
        "upgrade_failed": translate(
            "ErrorText", "Foya could not upgrade its database; it was not changed, and a copy is kept."
        ),
        "path_outside_project": translate("ErrorText", "The path is outside the session's project folder."),
        "merge_refused": translate("ErrorText", "These sessions cannot be merged."),
        "internal_error": translate(
            "ErrorText", "Foya hit an internal error (a bug); the log has the details."
        ),
    }


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def error_code(error: BaseException) -> str:
    """The error's stable code (``FoyaError.code`` when it has one, else its class in snake_case)."""
    code = getattr(error, "code", "")
    return code if isinstance(code, str) and code else _snake(type(error).__name__)


def error_text(error: BaseException) -> str:
    """The sentence to show for ``error`` in the window's language."""
    english = str(error) or type(error).__name__
    if not isinstance(error, FoyaError):
        return f"{type(error).__name__}: {english}"
    raw = getattr(error, "params", None)
    params: Mapping[str, object] = raw if isinstance(raw, Mapping) else {}
    code = error_code(error)
    if code not in _EXACT and code not in _kinds():  # a subclass without its own entry: its parents'
        code = next((c for k in type(error).__mro__ if (c := _snake(k.__name__)) in _kinds()), code)
    return coded_text(code, params, english)


def coded_text(code: str, params: Mapping[str, object], english: str) -> str:
    """A coded error (an exception's, or an event's ``error_code``/``error_params``) in the window's language.

    Unknown codes, and kind codes while the window is English, give ``english``.
    """
    exact = _exact_text(code, params)
    if exact is not None:
        return exact
    summary = _kinds().get(code)
    if summary is None or i18n.active() == "en":
        return english
    if not english:
        return summary
    detail = QCoreApplication.translate("ErrorText", "{summary} ({detail})")
    return detail.format(summary=summary, detail=english)


def turn_error_text(error_code: str, error_params: Mapping[str, object], english: str) -> str:
    """A failed turn's text (``TurnFinished.error_code``/``error_params``) in the window's language.

    ``turn_failed`` lists each failed VP with its own code; each is said through
    :func:`coded_text` as ``VP: sentence``. Anything else (or English) gives ``english``.
    """
    raw = error_params.get("failures")
    if error_code != "turn_failed" or i18n.active() == "en" or not isinstance(raw, (list, tuple)):
        return english
    parts = []
    for failure in raw:
        if not isinstance(failure, Mapping):
            continue
        params = failure.get("params")
        text = coded_text(str(failure.get("code", "")), params if isinstance(params, Mapping) else {},
                          str(failure.get("error", "")))
        parts.append(QCoreApplication.translate("ErrorText", "{vp}: {error}").format(
            vp=failure.get("vp", "?"), error=text))
    return QCoreApplication.translate("ErrorText", "; ").join(parts) or english


def notice_text(code: str, params: Mapping[str, object], english: str) -> str:
    """A ``Notice`` event's text by its code (``core/error_codes.py`` NOTICE_CODES); else ``english``."""
    translate = QCoreApplication.translate
    if i18n.active() == "en":
        return english
    if code == "queue_paused_elsewhere":
        return translate("ErrorText", "This session is {doing} {where}; the queue is paused: resume it "
                         "once that has finished.").format(**_elsewhere(params))
    if code == "provider_retry":
        reason = _kinds().get(
            str(params.get("error_code", "")), translate("ErrorText", "The request failed.")
        )
        return translate("ErrorText", "{reason} Retrying in {delay} s (attempt {attempt}).").format(
            reason=reason, delay=params.get("delay", "?"), attempt=params.get("attempt", "?"))
    if code == "compaction_failed":
        reason = coded_text(str(params.get("error_code", "")), {}, str(params.get("error", "")))
        return translate(
            "ErrorText", "Automatic compaction failed; the turn goes on without it: {reason}"
        ).format(reason=reason)
    if code == "tools_not_passed":
        return translate(
            "ErrorText", "{host}'s chat template does not pass tools to the model; tools are off for "
            "{connection} (start the server with a template that supports tools, e.g. llama.cpp's --jinja)."
        ).format(host=params.get("host", "?"), connection=params.get("connection", "?"))
    if code == "context_overflow_retried":
        raw_window = params.get("window")
        window = i18n.number(raw_window) if isinstance(raw_window, int) else "?"
        return (translate("ErrorText", "The conversation was longer than this model's context window of "
                          "{window} tokens: Foya compacted the earlier history and sent the request again.")
                if params.get("compacted") else
                translate("ErrorText", "The conversation was longer than this model's context window of "
                          "{window} tokens: Foya now keeps within it and sent the request again.")
                ).format(window=window)
    if code == "mcp_untrusted":
        raw = params.get("servers", ())
        servers = ", ".join(str(s) for s in raw) if isinstance(raw, (list, tuple)) else str(raw)
        return translate(
            "ErrorText",
            "This project's .mcp.json configures MCP servers you have not trusted, so none of them "
            "started: {servers}. Trust them in the window (File → MCP servers…) or with `foya projects trust "
            "{project}`.",
        ).format(servers=servers, project=params.get("project", ""))
    return english


def _reason_part(code: str, p: Mapping[str, object], english: str) -> str:
    """One part of a command policy's reason (``COMMAND_REASONS``); free-form parts stay English."""
    translate = QCoreApplication.translate
    if code == "mcp_tool":
        hints = [translate("ErrorText", "the server marks it read-only")] if p.get("read_only") else []
        if p.get("open_world"):
            hints.append(translate("ErrorText", "it may reach beyond this computer"))
        text = translate("ErrorText", "MCP tool {tool} of the server {server}").format(
            tool=p.get("tool", "?"), server=p.get("server", "?"))
        return translate("ErrorText", "{text} ({hints})").format(
            text=text, hints=translate("ErrorText", "; ").join(hints)) if hints else text
    if code == "outside_path":
        return (translate("ErrorText", "{path} is inside git internals or Foya's data folder")
                if p.get("protected") else translate("ErrorText", "{path} is outside the project")
                ).format(path=p.get("path", "?"))
    fixed = {
        "commands_need_approval": translate("ErrorText", "commands need approval"),
        "mcp_needs_approval": translate("ErrorText", "MCP tools need approval"),
        "command_empty": translate("ErrorText", "the command is empty"),
        "command_unrecognised": translate("ErrorText", "the command runs nothing Foya recognises"),
        "runs_eval": translate("ErrorText", "eval runs a computed command"),
        "sets_variable": translate("ErrorText", "it sets a variable"),
        "sets_command_variables": translate("ErrorText", "it sets variables for the command (NAME=value)"),
        "expands_variable": translate("ErrorText", "it expands a variable"),
        "runs_in_background": translate("ErrorText", "it runs something in the background"),
        "uses_heredoc": translate("ErrorText", "it uses a here-document"),
        "defines_function": translate("ErrorText", "it defines a function"),
    }
    named = {
        "reaches_network": translate("ErrorText", "{name} reaches the network"),
        "runs_another_command": translate("ErrorText", "{name} runs another command"),
        "runs_shell": translate("ErrorText", "{name} runs a shell"),
    }
    if code in fixed:
        return fixed[code]
    if code in named:
        return named[code].format(name=p.get("name", "?"))
    if code == "writes_by_redirection":
        return translate("ErrorText", "it writes to {target} by redirection").format(
            target=p.get("target", "?"))
    if code == "git_writes_repository":
        return translate("ErrorText",
                         "git {sub} can change the repository (.git), which only you can allow").format(
            sub=p.get("sub", "?"))
    if code == "more_reasons":
        return translate("ErrorText", "(and {count} more)").format(count=p.get("count", "?"))
    return _free_reason(english)


_FREE_REASONS: tuple[tuple[re.Pattern[str], object], ...] = (
    (re.compile(r"^'(?P<name>[^']+)' is not on the read-only list$"),
     QT_TRANSLATE_NOOP("ErrorText", "{name} is not on the read-only list")),
    (re.compile(r"^(?P<name>.+) with (?P<count>\d+) operands writes a file$"),
     QT_TRANSLATE_NOOP("ErrorText", "{name} with {count} operands writes a file")),
    (re.compile(r"^sed without a script$"), QT_TRANSLATE_NOOP("ErrorText", "sed without a script")),
    (re.compile(r"^git without a subcommand$"), QT_TRANSLATE_NOOP("ErrorText", "git without a subcommand")),
    (re.compile(r"^find -L follows symbolic links$"),
     QT_TRANSLATE_NOOP("ErrorText", "find -L follows symbolic links")),
    (re.compile(r"^git branch NAME creates a branch$"),
     QT_TRANSLATE_NOOP("ErrorText", "git branch NAME creates a branch")),
    (re.compile(r"^cd without exactly one folder$"),
     QT_TRANSLATE_NOOP("ErrorText", "cd without exactly one folder")),
    (re.compile(r"^cd (?P<name>\S+) leaves the project or goes to an unknown folder$"),
     QT_TRANSLATE_NOOP("ErrorText", "cd {name} leaves the project or goes to an unknown folder")),
    # the command policy's denials (tools/shell_policy.py), in a "Not allowed: …" tool result
    (re.compile(r"^pipes something downloaded from the network into an interpreter$"),
     QT_TRANSLATE_NOOP("ErrorText", "pipes something downloaded from the network into an interpreter")),
    (re.compile(r"^runs code downloaded from the network$"),
     QT_TRANSLATE_NOOP("ErrorText", "runs code downloaded from the network")),
    (re.compile(r"^redirects output to (?P<target>'.+'), outside the project or in git internals$"),
     QT_TRANSLATE_NOOP("ErrorText", "redirects output to {target}, outside the project or in git internals")),
    (re.compile(r"^defines a function that spawns itself \(fork bomb\)$"),
     QT_TRANSLATE_NOOP("ErrorText", "defines a function that spawns itself (fork bomb)")),
)
"""The command checker's own sentences (tools/shell_readonly.py, tools/shell_policy.py) that carry no
code yet: the frequent ones by their fixed shape, the names in them kept as they are. One table for
both places they are shown: an approval's reason and a refused call's tool row."""


def policy_reason_text(reason: str) -> str:
    """A command policy's reason as a tool result writes it (parts joined by "; "), each known part
    in the window's language, unknown parts as they are."""
    return QCoreApplication.translate("ErrorText", "; ").join(_free_reason(p) for p in reason.split("; "))


def _free_reason(english: str) -> str:
    for pattern, template in _FREE_REASONS:
        match = pattern.match(english)
        if match is not None:
            return QCoreApplication.translate("ErrorText", str(template)).format(**match.groupdict())
    return english


def _parts_text(raw: object) -> str:
    parts = raw if isinstance(raw, (list, tuple)) else ()
    said = []
    for part in parts:
        if isinstance(part, Mapping):
            params = part.get("params")
            code, text = str(part.get("code", "")), str(part.get("text", ""))
            said.append(_reason_part(code, params if isinstance(params, Mapping) else {}, text))
    return QCoreApplication.translate("ErrorText", "; ").join(said)


def approval_reason_text(code: str, params: Mapping[str, object], english: str) -> str:
    """Why an approval is asked (``ApprovalRequested.reason_code``/``reason_params``), in the window's words.

    Codes are ``core/error_codes.py`` APPROVAL_REASONS; the command policy's parts
    (COMMAND_REASONS) are said one by one, free-form ones (a parsed command's
    details) in English. Unknown codes, or the English window, give ``english``.
    """
    translate = QCoreApplication.translate
    if not code or i18n.active() == "en":
        return english
    fixed = {
        "secret_file": translate("ErrorText", "the file looks like it holds secrets"),
        "read_only_mode": translate("ErrorText", "the session is in read-only mode"),
        "file_change_ask_mode": translate("ErrorText", "file changes need approval in ask mode"),
        "command_names_secret": translate(
            "ErrorText", "the command names a file that looks like it holds secrets"),
        "command_uses_network": translate("ErrorText", "the command uses the network"),
        "memory_user_scope": translate(
            "ErrorText", "saving to the person's own memory (seen in every session) needs approval"),
        "memory_read_only": translate(
            "ErrorText", "the session is read-only: changing memory, which outlives it, needs approval"),
        "memory_plan_mode": translate(
            "ErrorText", "the session is in plan mode: changing memory, which outlives it, needs approval"),
    }
    if code in fixed:
        return fixed[code]
    parts = _parts_text(params.get("parts")) or english
    if code in ("command_policy", "mcp_policy"):
        return parts
    if code == "mcp_outside":
        return translate("ErrorText", "{reason}; its arguments name a path outside the project").format(
            reason=parts)
    if code == "auto_mode_unconfined":
        return translate(
            "ErrorText", "{reason}; auto mode runs commands confined, but {why_not}, so Foya asks"
        ).format(reason=parts, why_not=params.get("why_not", "?"))
    if code == "runs_trusted_file":
        return translate(
            "ErrorText", "{path} is run by the trusted MCP server {servers}: changing it changes what runs "
            "on this computer, so Foya asks in every mode").format(path=params.get("path", "?"),
                                                                 servers=params.get("servers", "?"))
    if code == "cannot_confine":
        return translate(
            "ErrorText", "{reason}; Foya cannot confine it because {why_not}, so it asks"
        ).format(reason=parts, why_not=params.get("why_not", "?"))
    return english


_SUMMARY_VERBS: dict[str, object] = {
    "Write ": QT_TRANSLATE_NOOP("ApprovalSummary", "Write {what}"),
    "Edit ": QT_TRANSLATE_NOOP("ApprovalSummary", "Edit {what}"),
    "Read ": QT_TRANSLATE_NOOP("ApprovalSummary", "Read {what}"),
    "List ": QT_TRANSLATE_NOOP("ApprovalSummary", "List {what}"),
    "View image ": QT_TRANSLATE_NOOP("ApprovalSummary", "View the image {what}"),
    "Load skill ": QT_TRANSLATE_NOOP("ApprovalSummary", "Load the skill {what}"),
    "Start sub-agent: ": QT_TRANSLATE_NOOP("ApprovalSummary", "Start a sub-agent: {what}"),
    "Hand to ": QT_TRANSLATE_NOOP("ApprovalSummary", "Hand over to {what}"),
    "load the schema of ": QT_TRANSLATE_NOOP("ApprovalSummary", "Load the schema of {what}"),
}
"""The engine's approval summaries (``Action.summary``: "Write notes.md", "Read src/app.py"…) are
an English verb and an object (a path, a name: the agent's data). The verb is said in the window's
language; the object stays as it is. Summaries without a known verb (a command, a question, an MCP
call) are the agent's own words and are shown unchanged."""

_SUMMARY_PATTERNS: tuple[tuple[re.Pattern[str], object], ...] = (
    (re.compile(r"^Find (?P<pattern>.+) in (?P<where>\S+)$"),
     QT_TRANSLATE_NOOP("ApprovalSummary", "Find {pattern} in {where}")),
    (re.compile(r"^Search (?P<pattern>.+) in (?P<where>\S+)$"),
     QT_TRANSLATE_NOOP("ApprovalSummary", "Search {pattern} in {where}")),
)


def approval_summary_text(summary: str) -> str:
    """An approval's summary in the window's language (see :data:`_SUMMARY_VERBS`)."""
    if i18n.active() == "en":
        return summary
    for pattern, template in _SUMMARY_PATTERNS:
        match = pattern.match(summary)
        if match is not None:
            return QCoreApplication.translate("ApprovalSummary", str(template)).format(**match.groupdict())
    for verb, template in _SUMMARY_VERBS.items():
        if summary.startswith(verb) and len(summary) > len(verb):
            return QCoreApplication.translate("ApprovalSummary", str(template)).format(
                what=summary[len(verb):])
    return summary


INTERRUPTED_REASONS: dict[str, object] = {
    "stopped": QT_TRANSLATE_NOOP("Summaries", "stopped by you"),
    "length": QT_TRANSLATE_NOOP("Summaries", "at the length limit"),
}
"""``Message.meta["interrupted_reason"]`` codes the engine writes (engine/turn/runner.py); any
other reason is an error's own text and is shown as it is."""


def interrupted_reason_text(reason: str) -> str:
    """Why a reply was cut off, in the window's language."""
    template = INTERRUPTED_REASONS.get(reason)
    return QCoreApplication.translate("Summaries", str(template)) if template is not None else reason
