"""Every stable error code Foya raises, in one list, with the parameters each one carries.

An error a person may see is a :class:`~foya_desktop.core.errors.FoyaError`:
``str(error)`` is its English sentence, ``error.code`` a stable snake_case
name (never reworded) and ``error.params`` the values the sentence was built
from. The window translates through the code (``ui`` i18n); the ``foya``
command prints the English sentence. A code is either the default of an error
class (its name in snake_case, or ``default_code``) or a finer one given where
the error is raised (``InvalidOperation(..., code="session_busy", ...)``).

``params`` below are the names every error with that code carries, so a
translation may use each as ``{name}``. A code with no params has a sentence
that is particular to its raise site: translate it as a general sentence for
the code, or show the English text. Events that show an error or a notice
carry the same: ``VPStatus.error_code``/``error_params`` (a FoyaError's code,
or :data:`INTERNAL_ERROR`), ``TurnFinished.error_code``/``error_params``
(:data:`TURN_FAILED`) and ``Notice.code``/``params`` (:data:`NOTICE_CODES`).
``tests/engine/test_error_codes.py``
proves that every error class in the package and every code given at a raise
site is listed here, with the same params, and that nothing listed is stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """One stable error code."""

    code: str
    meaning: str
    """When it is raised (for translators and for scripts)."""
    params: tuple[str, ...] = ()
    """The names in ``error.params`` of every error with this code."""


_HTTP = ("status", "retry_after")
"""Every provider error: the HTTP status (``None`` before one arrived) and the server's retry hint."""
_AT = ("message_id",)
"""The message a branch or rewind was asked at."""


def _codes(*codes: ErrorCode) -> Mapping[str, ErrorCode]:
    return {c.code: c for c in codes}


ERROR_CODES: Mapping[str, ErrorCode] = _codes(
    # ---- the error classes (core/errors.py and the engine) ---------------------------
    ErrorCode("foya_error", "Something Foya refused or could not do (the base class)."),
    ErrorCode("not_found", "A session, message, project, connection, VP or task id does not exist."),
    ErrorCode("invalid_operation", "A request that breaks a rule of the engine."),
    ErrorCode("bad_input", "A command-line or form value that cannot be used as given."),
    ErrorCode("session_deleted", "A write for a session that has been deleted."),
    ErrorCode("session_busy_elsewhere", "Another live process runs a turn or an operation in the session.",
              ("pid", "kind", "what")),
    ErrorCode("storage_error", "The data folder or the database file cannot be used."),
    ErrorCode("database_locked", "Another process kept the database locked too long."),
    ErrorCode("disk_full", "No space left while writing."),
    ErrorCode("storage_read_only", "The data folder or the database cannot be written."),
    ErrorCode("wrong_file_type", "A folder or a special file is at the database file's path, or a file "
              "where the data folder (or a folder above it) belongs."),
    ErrorCode("database_corrupt", "The database file is damaged or not a database."),
    ErrorCode("schema_too_new", "The database was written by a newer Foya."),
    ErrorCode("schema_invalid", "The recorded schema version is not one Foya ever wrote."),
    ErrorCode("upgrade_failed", "Upgrading an older database failed; it was not changed."),
    ErrorCode("keyring_unavailable", "No usable OS keyring: secrets are not stored in plain text."),
    ErrorCode("tool_error", "A tool failed in a way the model is told about."),
    ErrorCode("path_outside_project", "A path resolves outside the session's project folder."),
    ErrorCode("provider_error", "A model provider call failed.", _HTTP),
    ErrorCode("auth_error", "Bad or missing API key (HTTP 401/403).", _HTTP),
    ErrorCode("rate_limited", "Too many requests (HTTP 429).", _HTTP),
    ErrorCode("overloaded", "The provider is overloaded or failing for now (5xx).", _HTTP),
    ErrorCode("context_too_long", "The request exceeds the model's context window.", _HTTP),
    ErrorCode("cannot_connect", "Connection refused, DNS or TLS failure.", _HTTP),
    ErrorCode("provider_timeout", "A connect, first-byte, idle or total timeout.", _HTTP),
    ErrorCode("incomplete_stream", "The reply stream ended before its last event.", _HTTP),
    ErrorCode("bad_response", "The provider sent something outside its wire format.", _HTTP),
    ErrorCode("stream_error_event", "The provider reported an error inside the stream.",
              _HTTP),
    ErrorCode("reply_too_large", "One reply grew past its size limit (text, reasoning and tool-call "
              "arguments together); what streamed before is kept, marked interrupted.", _HTTP),
    ErrorCode("unreadable_reply", "The server could not read the model's reply as a tool call or text "
              "(said inside the stream); the model is told and tries again within its step limit.", _HTTP),
    ErrorCode("reply_cut_off", "The model's reply ended at the length limit (finish_reason \"length\", "
              "stop_reason \"max_tokens\"); it is kept marked cut off and the person may ask it to "
              "continue. ``foya run`` exits with 3.", ("vp", "max_tokens")),
    ErrorCode("merge_refused", "Two sessions cannot be merged (the sentence says why)."),
    ErrorCode("fork_in_progress", "A fork of the session is already being made."),
    ErrorCode("rewind_stale", "The session or its files changed since the rewind preview."),
    ErrorCode("step_limit_reached", "A VP reached its limit of model steps in one turn.",
              ("vp", "max_steps")),
    ErrorCode("step_limit_failing_calls", "A VP reached its limit of model steps while its tool calls "
              "kept failing: the last ``failing`` steps' calls could not be run as sent (arguments not "
              "valid JSON or against the tool's schema, an unknown tool, a reply the server could not "
              "read).", ("vp", "max_steps", "failing")),
    ErrorCode("turn_stopped", "The person rejected a tool call without feedback: the turn stops."),
    ErrorCode("operation_stopped", "A stop cancelled an operation (compaction); nothing was changed.",
              ("session_id",)),
    ErrorCode("question_unanswered", "An AskUser question got no answer (no window, or it expired)."),
    ErrorCode("work_graph_invalid", "A WorkItem's action graph cannot run: a cycle (other than bounded "
              "rework), an unknown dependency, a duplicate id, a kind without what it needs (exit 20).",
              ("action",)),
    ErrorCode("work_unknown_vp", "A WorkItem's roster names a VP the library does not have (exit 21).",
              ("vp",)),
    ErrorCode("work_folder_missing", "A WorkItem's working folder does not exist (exit 22).", ("folder",)),
    ErrorCode("work_check_refused", "A criterion's check command is refused by the command policy "
              "(exit 23).", ("command", "reason")),
    ErrorCode("work_busy_elsewhere", "Another foya process runs the Work Center of this data folder.",
              ("pid",)),
    # ---- finer codes given where they are raised --------------------------------------
    ErrorCode("session_busy", "The session is busy in this process: stop the running turn first.",
              ("session_id", "operation")),
    ErrorCode("branch_inside_running_turn", "A branch inside the turn that is still running.", _AT),
    ErrorCode("branch_exists", "A new worktree session's branch already exists (pick it as the "
              "existing one).", ("branch",)),
    ErrorCode("not_a_worktree", "A worktree operation on a session whose folder is not a git worktree."),
    ErrorCode("worktree_uncommitted", "Merge back of a worktree with uncommitted files (a merge takes "
              "commits)."),
    ErrorCode("worktree_unmerged", "Removing a worktree whose work is not in the base needs a second "
              "confirmation.", ("branch", "base", "commits", "files")),
    ErrorCode("branch_user_message", "A branch right after a user message (no reply yet).", _AT),
    ErrorCode("branch_incomplete_reply", "A branch after a reply that did not complete.", _AT),
    ErrorCode("branch_call_without_result", "A branch after a tool call that has no result.", _AT),
    ErrorCode("branch_answered_later", "A branch before a tool call's result arrived.", _AT),
    ErrorCode("rewind_images", "A rewind to a message with images (the composer cannot hold them).",
              _AT),
    ErrorCode("rewind_not_movable_meta", "A rewind to a message the composer cannot hold.", _AT),
    ErrorCode("work_state", "A WorkItem cannot do that in its state (accept before it waits for "
              "acceptance, start one that is not ready, change one that has ended).", ("item", "state")),
    ErrorCode("broad_project", "A session or project at /, the home folder or around Foya's data folder "
              "without the person's explicit confirmation (kind: root, home, contains_home, "
              "contains_data).", ("folder", "kind")),
)
"""Every code, by name."""

NOTICE_CODES: Mapping[str, ErrorCode] = _codes(
    ErrorCode("queue_paused_elsewhere", "A queued message met another process's claim: the queue paused.",
              ("pid", "kind", "what")),
    ErrorCode("provider_retry", "A provider request failed and is sent again after a delay (seconds).",
              ("error_code", "status", "delay", "attempt")),
    ErrorCode("compaction_failed", "Automatic compaction failed; the turn goes on uncompacted.",
              ("error_code", "error")),
    ErrorCode("mcp_untrusted", "The project's .mcp.json names servers not trusted yet: none started.",
              ("servers", "project")),
    ErrorCode("tools_not_passed", "The server's chat template cannot render tools (llama.cpp /props "
              "chat_template_caps.supports_tools false): requests of this connection carry none (once per "
              "connection and process).", ("host", "connection")),
    ErrorCode("context_overflow_retried", "The server refused a request as longer than its context window "
              "(``window`` tokens): the history before the turn was compacted (``compacted``) or the window "
              "learned, and the request sent once more.", ("window", "compacted")),
)
"""Codes of ``Notice`` events (``notice.code``/``notice.params``)."""

INTERNAL_ERROR = ErrorCode("internal_error", "A VP run crashed on a bug (not a FoyaError).", ("type",))
"""The code of ``VPStatus.error_code`` when the error was not a FoyaError."""

TURN_FAILED = ErrorCode("turn_failed", "One or more VPs of a turn failed (``TurnFinished.error_code``).",
                        ("failures",))
"""``failures``: per failed VP ``vp`` (its name), ``code``/``params`` (a code above), ``error`` (English)."""

APPROVAL_REASONS: Mapping[str, ErrorCode] = _codes(
    ErrorCode("secret_file", "The file looks like it holds secrets."),
    ErrorCode("read_only_mode", "The session is in read-only mode (a deny)."),
    ErrorCode("file_change_ask_mode", "File changes need approval in ask mode."),
    ErrorCode("command_names_secret", "The command names a file that looks like it holds secrets."),
    ErrorCode("command_uses_network", "The command uses the network."),
    ErrorCode("command_policy", "The command policy's reasons (``parts``: COMMAND_REASONS).", ("parts",)),
    ErrorCode("auto_mode_unconfined", "Auto mode would confine the command, but the sandbox is missing "
              "(``why_not``: the system's English reason).", ("parts", "why_not")),
    ErrorCode("cannot_confine", "Foya cannot confine an allowed command here, so it asks.",
              ("parts", "why_not")),
    ErrorCode("mcp_policy", "An MCP server's tool needs approval (``parts``).", ("parts",)),
    ErrorCode("mcp_outside", "An MCP tool's arguments name a path outside the project.", ("parts",)),
    ErrorCode("memory_user_scope", "A VP wants to change the person's own (user-scope) memory."),
    ErrorCode("runs_trusted_file", "A file tool would change a file that a trusted MCP server runs "
              "(asked in every mode, no standing rule).", ("path", "servers")),
    ErrorCode("memory_read_only", "A VP wants to change memory while the session is read-only."),
    ErrorCode("memory_plan_mode", "A VP wants to change memory while the session is in plan mode."),
)
"""Codes of ``ApprovalRequested.reason_code`` (and of the policy's ``Verdict.code``)."""

COMMAND_REASONS: Mapping[str, ErrorCode] = _codes(
    ErrorCode("commands_need_approval", "Commands need approval (the policy's default)."),
    ErrorCode("mcp_needs_approval", "MCP tools need approval (the policy's default)."),
    ErrorCode("mcp_tool", "The MCP tool and its server, with its hints.",
              ("tool", "server", "read_only", "open_world")),
    ErrorCode("command_empty", "The command is empty."),
    ErrorCode("command_unrecognised", "The command runs nothing Foya recognises."),
    ErrorCode("reaches_network", "A program of the command reaches the network.", ("name",)),
    ErrorCode("runs_another_command", "A program runs another command (xargs, env, …).", ("name",)),
    ErrorCode("runs_shell", "A program runs a shell.", ("name",)),
    ErrorCode("runs_eval", "eval runs a computed command."),
    ErrorCode("outside_path", "A word names a path outside the project (``protected``: git internals "
              "or Foya's data folder).", ("path", "protected")),
    ErrorCode("writes_by_redirection", "The command writes a file by redirection.", ("target",)),
    ErrorCode("git_writes_repository", "A git subcommand off the read-only list may change .git.", ("sub",)),
    ErrorCode("sets_variable", "The command sets a shell variable."),
    ErrorCode("sets_command_variables", "The command sets variables for a program (NAME=value)."),
    ErrorCode("expands_variable", "The command expands a variable."),
    ErrorCode("runs_in_background", "The command runs something in the background."),
    ErrorCode("uses_heredoc", "The command uses a here-document."),
    ErrorCode("defines_function", "The command defines a function."),
    ErrorCode("more_reasons", "How many more reasons were left out.", ("count",)),
)
"""Codes of the parts of a command policy's reason (``params["parts"]``; ``""``: free-form text)."""
