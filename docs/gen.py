"""Write the user guide's generated parts from the code, so they cannot drift from it.

``python docs/gen.py`` rewrites the fragments in ``docs/_generated/``; ``python docs/gen.py
--check`` writes nothing and exits 1 naming every fragment that differs from what the code
gives now (``tests/meta/test_docs_generated.py`` runs it, so a stale page fails the tests).
The hand-written pages pull the fragments in with ``--8<--`` (pymdownx.snippets):

* ``cli-reference.md`` — every ``foya`` command's ``--help``, from
  ``foya_desktop.cli.main.build_parser()`` itself;
* ``error-codes.md`` and ``exit-codes.md`` — every code of ``core/error_codes.py`` with the
  window's sentence for it (``ui/error_text.py``) and what to do, and every exit code an error
  class carries (``core/errors.py``);
* ``shortcuts.md`` — what *Help ▸ Keyboard shortcuts* lists, read from a real main window built
  offscreen on a throw-away data folder (the actions' own key sequences, not a copy of them).

What to do about an error, and what an exit code means, are the only hand-written words here:
the code has no such text. Generation refuses to run while a code or an exit code has none, so a
new error cannot ship without its troubleshooting line.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "_generated"
HELP_COLUMNS = "96"
"""argparse wraps help to the terminal's width: a fixed one keeps the page the same everywhere."""

if str(ROOT) not in sys.path:  # ``python docs/gen.py`` from a checkout without an install
    sys.path.insert(0, str(ROOT))

ADVICE: dict[str, str] = {
    "foya_error": "Read the sentence: it names what was refused. The log (`logs/foya.log` in the data "
                  "folder) has the details.",
    "not_found": "Check the id or name: `foya sessions list`, `foya projects list`, `foya connections list` "
                 "and `foya vps list` print the valid ones.",
    "invalid_operation": "The sentence names the rule the request breaks; change the request.",
    "bad_input": "Fix the value the sentence names; `foya COMMAND --help` shows what is accepted.",
    "session_deleted": "The session was deleted (here or by another process); pick another one.",
    "session_busy_elsewhere": "Wait until the named process (the window or another `foya`, with its pid) "
                              "has finished, or stop it there, then try again.",
    "storage_error": "Read the sentence: it names the folder or file. See "
                     "[When storage fails](data.md#when-storage-fails).",
    "database_locked": "Try again. Another program held the database longer than Foya waits (10 s): close "
                       "tools that keep `foya.sqlite3` open.",
    "disk_full": "Free space on the disk that holds the data folder (or raise the file size limit), then "
                 "*Try again*.",
    "storage_read_only": "Make the data folder and database writable for you (`chmod u+w`; `lsattr` shows "
                         "an immutable flag), or point `FOYA_HOME` at a writable folder. Reading commands "
                         "still work.",
    "wrong_file_type": "Move away what the sentence names (a folder where the database belongs, a file "
                       "where the data folder belongs), then *Try again*.",
    "database_corrupt": "*Restore the newest backup* in the dialog or `foya restore-backup`; or repair a "
                        "copy with `sqlite3 … .recover`. The damaged file is never written to.",
    "schema_too_new": "Run the newer Foya that wrote this database (or update this one).",
    "schema_invalid": "The file was not left like this by Foya: restore a backup (`foya restore-backup`).",
    "upgrade_failed": "Nothing was changed and the copy from before is in `backups/`. Keep using the older "
                      "Foya meanwhile and report the log.",
    "keyring_unavailable": "Use an environment variable instead (`--api-key-env VAR`, or *Use an "
                           "environment variable* in the dialog), or unlock or install a Secret Service "
                           "keyring.",
    "tool_error": "Nothing: the model reads the error as the tool's result and usually corrects itself.",
    "path_outside_project": "Tools work inside the session's folder: start a session bound to the folder "
                            "you mean, or copy the file in.",
    "provider_error": "*Test connection* in *Connections…* shows the provider's own words; check the base "
                      "URL and the model name.",
    "auth_error": "Check the key (the keyring entry, or the environment variable the connection names) and "
                  "that it may use the model.",
    "rate_limited": "Wait; Foya already retries with the server's hint. Fewer VPs at once send fewer "
                    "requests.",
    "overloaded": "Try again later, or pick another connection or model in the composer.",
    "context_too_long": "*Compact now*, branch from an earlier reply, or pick a model with a larger "
                        "context window.",
    "cannot_connect": "Check the base URL, that the local server runs, and DNS, TLS or a proxy on the way.",
    "provider_timeout": "Try again. A slow local model may need a longer idle limit: "
                        "`FOYA_STREAM_IDLE_SECONDS` (default 90).",
    "incomplete_stream": "Send again: what arrived is kept, marked *interrupted*.",
    "bad_response": "The base URL probably reaches something that is not the API (a web page, a proxy); "
                    "OpenAI-compatible URLs usually end in `/v1`.",
    "stream_error_event": "The provider's words follow the sentence; try again or pick another model.",
    "reply_too_large": "Ask for less per reply; `FOYA_REPLY_LIMIT_MB` (default 16) sets the limit.",
    "unreadable_reply": "Nothing: the model is told and tries again. If it keeps failing, use a model "
                        "better at tool calls.",
    "reply_cut_off": "Ask the VP to continue (what it wrote is kept, marked cut off), or raise the "
                     "connection's output limit.",
    "merge_refused": "The sentence says why (an ambiguous common part, an attachment that cannot be "
                     "read); fork instead, or merge other sessions.",
    "fork_in_progress": "Wait until the fork being made opens.",
    "rewind_stale": "Look at the new preview, then confirm again.",
    "step_limit_reached": "Send a follow-up message to let the VP go on, or split the task.",
    "step_limit_failing_calls": "The model could not send a tool call that runs: try a stronger model, or "
                                "offer the VP fewer tools.",
    "turn_stopped": "Deny with a reason in *Why not?* to let the VP try another way instead.",
    "operation_stopped": "Nothing was changed; start the operation again if you still want it.",
    "question_unanswered": "Write the answer as a new message; the VP asks again if it needs to.",
    "session_busy": "Wait for the running turn to end, or *Stop* it, then try again.",
    "branch_inside_running_turn": "Branch after an earlier turn's reply, or wait until this turn ends.",
    "branch_user_message": "Branch after a complete reply or tool result instead.",
    "branch_incomplete_reply": "Branch after an earlier complete reply or tool result.",
    "branch_call_without_result": "Branch after the tool result instead.",
    "branch_answered_later": "Branch after the tool result.",
    "rewind_images": "Rewind to an earlier plain-text message, or branch instead.",
    "rewind_not_movable_meta": "Rewind to an earlier plain-text message, or branch instead.",
    "broad_project": "Pick the project's own folder. If you mean it: confirm in the window, or pass "
                     "`--allow-broad-project` to `foya run`.",
    "work_graph_invalid": "Fix the action the sentence names (its dependencies, its id, what its kind "
                          "needs); a loop is allowed only as bounded rework.",
    "work_unknown_vp": "Add the VP to the library (`foya vps add`) or name one that exists "
                       "(`foya vps list`).",
    "work_folder_missing": "Create the folder, or give the WorkItem one that exists.",
    "work_check_refused": "Use a check command the policy lets run without asking (plain reading, the "
                          "project's tests), as the sentence's reason says.",
    "work_busy_elsewhere": "Another `foya` process (the pid named) runs the Work Center: wait for it, or "
                           "stop it.",
    "work_state": "Do it when the WorkItem is in a state that allows it (the sentence names its state).",
    "branch_exists": "Choose that branch as the existing one, or give the new session another branch name.",
    "not_a_worktree": "Only a session made in a git worktree has worktree actions; this folder is not one.",
    "worktree_uncommitted": "Commit (or discard) the worktree's changes first: a merge back takes commits.",
    "worktree_unmerged": "The work is not in the base branch yet: merge it back first, or confirm a second "
                         "time to remove it anyway.",
    "internal_error": "A bug: the log (`logs/foya.log` in the data folder) has the traceback; please "
                      "report it.",
    "turn_failed": "Each failed VP is listed with its own code: look that code up in this table.",
}
"""What a person does about each error code (the code itself only says what happened)."""

EXIT_MEANINGS: dict[int, str] = {
    0: "done (for `run`: the turn completed)",
    1: "the turn failed (not on a storage fault: that has its own code), or another refused request "
       "(unknown id, a rule)",
    2: "bad command line or input (empty prompt, not UTF-8, malformed URL…)",
    3: "the turn's reply was cut off at the length limit (kept, marked cut off); *Continue* in the window, "
       "or send \"continue\"",
    10: "the session is busy in another process: the window or another `foya` (the message names it "
        "and its pid)",
    11: "the database stayed locked longer than Foya waits (10 s): try again",
    12: "the disk is full (or a file size limit was reached)",
    13: "the data folder or database cannot be written (read-only, immutable, not yours), or something "
        "of another kind is where they belong (a folder or named pipe at the database's path, a file at "
        "the data folder's)",
    14: "the database file is damaged, empty, or not a Foya database",
    15: "the database records a schema version Foya never wrote, or one from a newer Foya",
    16: "upgrading an older database failed: it was not changed, and the copy from before is in "
        "`backups/`",
    20: "`foya work`: the action graph cannot run (a cycle other than bounded rework, an unknown "
        "dependency, a duplicate id, a kind that lacks what it needs)",
    21: "`foya work`: the roster or an action names a VP the library does not have",
    22: "`foya work`: the working folder does not exist (or is not a folder)",
    23: "`foya work`: a criterion's check command is refused by the command policy",
    70: "internal error (a bug): one sentence on stderr, the traceback in the log",
    130: "interrupted (Ctrl+C)",
    141: "standard output's reader went away (`foya sessions list | head`): Foya stops quietly",
}
"""Exit codes of ``foya``: those of the error classes, plus the ones ``cli/main.py`` returns itself."""

OWN_EXITS = (0, 2, 70, 130, 141)
"""The exit codes no error class carries: success, argparse's usage error and ``cli/main.py``'s own."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# ---- the command line ---------------------------------------------------------------------------


def _parsers(parser: argparse.ArgumentParser) -> Iterator[tuple[argparse.ArgumentParser, str]]:
    """Every parser below ``parser``, depth first, with the help line its parent gives it."""
    for action in parser._actions:  # argparse has no public walk of subcommands
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, child in action.choices.items():
                yield child, str(helps.get(name, ""))
                yield from _parsers(child)


def cli_reference() -> str:
    """Each command's ``--help``, as ``foya`` prints it."""
    from foya_desktop.cli.main import build_parser

    os.environ["COLUMNS"] = HELP_COLUMNS
    root = build_parser()
    out = [f"### `{root.prog}`\n", "```text", root.format_help().rstrip(), "```\n"]
    for parser, summary in _parsers(root):
        out.append(f"### `{parser.prog}`\n")
        if summary:
            out.append(f"{summary[0].upper()}{summary[1:]}.\n")
        out += ["```text", parser.format_help().rstrip(), "```\n"]
    return "\n".join(out)


# ---- errors and exit codes ----------------------------------------------------------------------


def _class_exit_codes() -> dict[str, int]:
    """Error code → exit code, for every error class (a finer code given at a raise site exits
    with its class's code, which the table's meaning column names)."""
    import importlib
    import pkgutil

    import foya_desktop
    from foya_desktop.core.errors import FoyaError

    for info in pkgutil.walk_packages(foya_desktop.__path__, "foya_desktop."):  # every error class
        if not info.name.startswith(("foya_desktop.ui", "foya_desktop.app")) \
                and not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found: dict[str, int] = {}
    kinds: list[type[FoyaError]] = [FoyaError]
    while kinds:
        kind = kinds.pop()
        found[kind.class_code()] = kind.exit_code
        kinds.extend(kind.__subclasses__())
    return found


def _window_sentences() -> dict[str, str]:
    """The window's English sentence per code, with ``{param}`` where a value goes."""
    from foya_desktop.core.error_codes import ERROR_CODES, INTERNAL_ERROR, TURN_FAILED
    from foya_desktop.ui import error_text

    found: dict[str, str] = {}
    for entry in (*ERROR_CODES.values(), INTERNAL_ERROR, TURN_FAILED):
        placeholders: dict[str, object] = {p: "{" + p + "}" for p in entry.params}
        exact = error_text._exact_text(entry.code, placeholders)  # the window's own table, not a copy
        kind = error_text._kinds().get(entry.code)
        if exact or kind:
            found[entry.code] = exact or kind or ""
    return found


def error_codes() -> str:
    """One row per error code: code, exit code, the window's sentence, what it means, what to do."""
    from foya_desktop.core.error_codes import ERROR_CODES, INTERNAL_ERROR, TURN_FAILED

    entries = [*ERROR_CODES.values(), INTERNAL_ERROR, TURN_FAILED]
    missing = [e.code for e in entries if e.code not in ADVICE]
    if missing:  # advice for a code that is gone is only left unused: a missing one is a gap
        raise SystemExit(f"docs/gen.py: ADVICE has no 'what to do' for {missing}")
    exits, sentences = _class_exit_codes(), _window_sentences()
    rows = ["| code | exit | what the window says | what happened | what to do |",
            "| --- | --- | --- | --- | --- |"]
    for entry in entries:
        exit_code = str(exits[entry.code]) if entry.code in exits else ""
        params = f" (params: {', '.join(f'`{p}`' for p in entry.params)})" if entry.params else ""
        rows.append(f"| `{entry.code}` | {exit_code} | {_cell(sentences.get(entry.code, '—'))} "
                    f"| {_cell(entry.meaning.replace('``', '`'))}{params} | {_cell(ADVICE[entry.code])} |")
    return "\n".join(rows) + "\n"


def exit_codes() -> str:
    """Every exit code ``foya`` uses, with the error codes that lead to it."""
    by_exit: dict[int, list[str]] = {}
    for code, number in _class_exit_codes().items():
        by_exit.setdefault(number, []).append(code)
    unknown = sorted(set(by_exit) - set(EXIT_MEANINGS))
    if unknown:
        raise SystemExit(f"docs/gen.py: EXIT_MEANINGS has no meaning for exit code(s) {unknown}")
    rows = ["| code | meaning | error codes |", "| --- | --- | --- |"]
    for number, meaning in sorted(EXIT_MEANINGS.items()):
        if number not in by_exit and number not in OWN_EXITS:
            continue  # a meaning kept for a class that is gone: say nothing of it
        codes = ", ".join(f"`{c}`" for c in sorted(by_exit.get(number, [])))
        rows.append(f"| {number} | {_cell(meaning)} | {codes} |")
    return "\n".join(rows) + "\n"


# ---- keyboard shortcuts -------------------------------------------------------------------------


def shortcuts() -> str:
    """The help sheet's groups, from a real window's actions (offscreen, on an empty data folder,
    in English, with the default preferences: Enter sends)."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import qasync
    from PySide6.QtWidgets import QApplication

    from foya_desktop.engine.bootstrap import build_kernel
    from foya_desktop.store.home import Home
    from foya_desktop.ui import i18n
    from foya_desktop.ui.bridge import EngineBridge
    from foya_desktop.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(["foya-docs"])
    assert isinstance(app, QApplication)
    i18n.install("en", app)
    with tempfile.TemporaryDirectory(prefix="foya-docs-") as home:
        os.environ["FOYA_HOME"] = home

        async def read() -> list[tuple[str, list[tuple[str, str]]]]:
            kernel = build_kernel(Home(Path(home)))
            bridge = EngineBridge(kernel.bus)
            window = MainWindow(kernel, bridge, use_tray=False)
            try:
                return window.keyboard.shortcut_groups()
            finally:
                window.runner.close()
                bridge.close()
                window.quit_controller.quitting = True
                window.close()
                await kernel.close()

        loop = qasync.QEventLoop(app)
        with loop:
            groups = loop.run_until_complete(read())
    out: list[str] = []
    for title, rows in groups:
        out += [f"### {title}\n", "| keys | what |", "| --- | --- |"]
        out += [f"| {_cell(keys)} | {_cell(what)} |" for keys, what in rows]
        out.append("")
    return "\n".join(out)


# ---- screenshots --------------------------------------------------------------------------------

SHOTS = {"flow_en_light_3_approval.png": "window-approval.png", "flow_en_light_1_welcome.png": "welcome.png"}
"""Screenshot test output → its name in ``docs/images/``: the guide's pictures are the tests' own."""


def refresh_shots() -> int:
    """Run the first-day flow's screenshot test (``tests/ui/test_flow_shots.py``, English, light)
    and copy its pictures into ``docs/images/``."""
    import shutil
    import subprocess

    with tempfile.TemporaryDirectory(prefix="foya-shots-") as shots:
        env = {**os.environ, "FOYA_SHOTS": shots, "QT_QPA_PLATFORM": "offscreen"}
        test = "tests/ui/test_flow_shots.py::test_main_flow_screenshots[en-light]"
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
                              cwd=ROOT, env=env, check=False)
        if done.returncode:
            return done.returncode
        for source, target in SHOTS.items():
            shutil.copyfile(Path(shots) / source, ROOT / "docs" / "images" / target)
            print(f"docs/images/{target} <- {source}")
    return 0


# ---- writing and checking -----------------------------------------------------------------------


def fragments() -> dict[str, str]:
    """File name in ``docs/_generated/`` → its content."""
    note = "<!-- generated by docs/gen.py from the code; edit the code, then run it -->\n"
    return {
        "cli-reference.md": note + cli_reference(),
        "error-codes.md": note + error_codes(),
        "exit-codes.md": note + exit_codes(),
        "shortcuts.md": note + shortcuts(),
    }


def main(argv: list[str] | None = None) -> int:
    """Write the fragments, or (``--check``) say which ones are stale."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a fragment is stale")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the fragments' folder (default {OUT})")
    parser.add_argument("--shots", action="store_true",
                        help="instead: refresh docs/images/ from the screenshot tests")
    args = parser.parse_args(argv)
    if args.shots:
        return refresh_shots()
    stale = []
    for name, text in fragments().items():
        path = args.out / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"stale generated docs: {', '.join(stale)}; run: python docs/gen.py", file=sys.stderr)
        return 1
    print("generated docs are current" if args.check else f"wrote {len(stale)} fragment(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
