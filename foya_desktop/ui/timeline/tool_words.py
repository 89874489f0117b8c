"""What Foya's own tools wrote into a result, in the window's language.

A tool's result is text for the model, and the model reads it in English
("[exit code: 0]", "Wrote a.md (10 bytes, was 4)", "No matches."). The
program output inside it is not ours and stays as it is; the lines our
tools add around it are ours, and a person reading the window in Chinese
must not meet them in English. Each such line is matched here as a whole
and said again from its parts — the same approach as the approval summaries
in ``ui/error_text.py``. A line that matches nothing is shown unchanged.

Two kinds of line: *sentences* (the result itself: "Wrote …", "No matches.")
and *notes* about the output (exit code, truncation, limits), which the
one-line summary lists after the first line of output.
``tests/ui/test_tool_words.py`` runs the real tools, so a tool that changes
its wording fails there instead of silently going back to English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from foya_desktop.ui import error_text, i18n

CONTEXT = "ToolWords"


@dataclass(frozen=True, slots=True)
class _Line:
    pattern: re.Pattern[str]
    template: str
    note: bool = False
    result: bool = False
    """A whole answer of a tool or the engine ("Wrote …", "You answered: …", a refusal): said only
    where it can be ours (:func:`_answers_are_ours`), never inside a program's or a file's text."""


def _line(pattern: str, template: object, *, note: bool = False) -> _Line:
    return _Line(re.compile(pattern), str(template), note)


_LAST_LINE_NOTES = re.compile(r"\[exit code: -?\d+\]|\[timed out after \d+ s; .*\]")
"""run_command's verdict: written once, as the very last line (``tools/shell.py``)."""
_INNER_NOTE = re.compile(r"\[… \d+ bytes truncated …\]")
"""The one note written inside the output: where the captured head ends (``tools/process.py``)."""


_OUTPUT_LINES: tuple[_Line, ...] = (  # what tools write around and into their output
    # run_command (tools/shell.py)
    _line(r"\(no output\)", QT_TRANSLATE_NOOP("ToolWords", "(no output)")),
    _line(r"\[exit code: (?P<code>-?\d+)\]", QT_TRANSLATE_NOOP("ToolWords", "exit code {code}"), note=True),
    _line(r"\[timed out after (?P<seconds>\d+) s; the command and its children were killed\]",
          QT_TRANSLATE_NOOP("ToolWords",
                            "timed out after {seconds} s; the command and its children were killed"),
          note=True),
    _line(r"could not start bash: (?P<error>.+)",
          QT_TRANSLATE_NOOP("ToolWords", "could not start bash: {error}")),
    # output caps (tools/process.py, tools/writes.py, tools/mcp/client.py, engine/project_files)
    _line(r"\[… (?P<count>\d+) bytes truncated …\]",
          QT_TRANSLATE_NOOP("ToolWords", "{count} bytes truncated"), note=True),
    _line(r"\[… (?P<count>\d+) characters truncated …\]",
          QT_TRANSLATE_NOOP("ToolWords", "{count} characters truncated"), note=True),
    _line(r"\[… diff truncated …\]", QT_TRANSLATE_NOOP("ToolWords", "diff truncated"), note=True),
    _line(r"\[… truncated\]", QT_TRANSLATE_NOOP("ToolWords", "truncated"), note=True),
    # read_file / list_files (tools/files.py)
    _line(r"\[more lines follow; continue with offset=(?P<offset>\d+)\]",
          QT_TRANSLATE_NOOP("ToolWords", "more lines follow from line {offset}"), note=True),
    _line(r"\[output limit of (?P<limit>\d+) characters reached; continue with offset=(?P<offset>\d+)\]",
          QT_TRANSLATE_NOOP("ToolWords", "limit of {limit} characters reached; more from line {offset}"),
          note=True),
    _line(r"\(empty file\)", QT_TRANSLATE_NOOP("ToolWords", "(empty file)")),
    _line(r"\[the file has fewer than (?P<first>\d+) lines\]",
          QT_TRANSLATE_NOOP("ToolWords", "the file has fewer than {first} lines")),
    _line(r"(?P<path>.+): \(empty folder\)", QT_TRANSLATE_NOOP("ToolWords", "{path}: (empty folder)")),
    _line(r"(?P<path>.+)/ \((?P<count>\d+) shown\)",
          QT_TRANSLATE_NOOP("ToolWords", "{path}/ ({count} shown)")),
    _line(r"\[(?P<count>\d+) more entries not shown\]",
          QT_TRANSLATE_NOOP("ToolWords", "{count} more entries not shown"), note=True),
    _line(r"(?P<path>.+) is a binary file; read_file shows text only\.",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is a binary file; read_file shows text only.")),
    _line(r"(?P<path>.+) is an image \((?P<mime>[^)]+)\); use view_image to look at it\.",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is an image ({mime}); use view_image to look at it.")),
    # glob / grep (tools/search.py)
    _line(r"No matches\.", QT_TRANSLATE_NOOP("ToolWords", "No matches.")),
    _line(r"No files match\.", QT_TRANSLATE_NOOP("ToolWords", "No files match.")),
    _line(r"No matches: (?P<what>.+) is not a folder",
          QT_TRANSLATE_NOOP("ToolWords", "No matches: {what} is not a folder")),
    _line(r"(?P<path>.+) is a binary file; grep searches text only\.",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is a binary file; grep searches text only.")),
    _line(r"\[(?P<count>\d+) more not shown; narrow the pattern\]",
          QT_TRANSLATE_NOOP("ToolWords", "{count} more not shown"), note=True),
    _line(r"\[search stopped after (?P<count>\d+) entries; narrow the (?:pattern|path)\]",
          QT_TRANSLATE_NOOP("ToolWords", "search stopped after {count} entries"), note=True),
    _line(r"\[stopped at (?P<count>\d+) matches; narrow the pattern or the path\]",
          QT_TRANSLATE_NOOP("ToolWords", "stopped at {count} matches"), note=True),
    _line(r"\[(?P<count>\d+) secret-looking file\(s\) not searched\]",
          QT_TRANSLATE_NOOP("ToolWords", "{count} secret-looking file(s) not searched"), note=True),
)

_ANSWERS: tuple[_Line, ...] = (  # marked ``result`` below
    # write_file / edit_file (tools/writes.py), view_image (tools/view_image.py)
    _line(r"Created (?P<path>.+) \((?P<size>\d+) bytes\)",
          QT_TRANSLATE_NOOP("ToolWords", "Created {path} ({size} bytes)")),
    _line(r"Wrote (?P<path>.+) \((?P<size>\d+) bytes, was (?P<before>\d+)\)",
          QT_TRANSLATE_NOOP("ToolWords", "Wrote {path} ({size} bytes, was {before})")),
    _line(r"Edited (?P<path>.+): replaced (?P<count>\d+) occurrences?",
          QT_TRANSLATE_NOOP("ToolWords", "Edited {path}: replaced {count} occurrence(s)")),
    _line(r"Binary file (?P<path>.+) changes \((?P<before>\d+) → (?P<size>\d+) bytes\)",
          QT_TRANSLATE_NOOP("ToolWords", "Binary file {path} changes ({before} → {size} bytes)")),
    _line(r"Image (?P<path>.+) \((?P<mime>[\w.+-]+/[\w.+-]+), (?P<size>\d+) bytes\)",
          QT_TRANSLATE_NOOP("ToolWords", "Image {path} ({mime}, {size} bytes)")),
    # arguments the tool refused (ToolError texts: tools/writes.py, common.py, search.py, shell.py, fdwalk.py)
    _line(r"old_string was not found in the file; read the file and copy the text exactly",
          QT_TRANSLATE_NOOP("ToolWords", "old_string was not found in the file")),
    _line(r"old_string occurs (?P<count>\d+) times; add surrounding lines to make it unique "
          r"or set replace_all to true",
          QT_TRANSLATE_NOOP("ToolWords", "old_string occurs {count} times; it must be unique")),
    _line(r"old_string and new_string are the same; nothing would change",
          QT_TRANSLATE_NOOP("ToolWords", "old_string and new_string are the same; nothing would change")),
    _line(r"old_string must not be empty \(use write_file to create a file\)",
          QT_TRANSLATE_NOOP("ToolWords", "old_string must not be empty")),
    _line(r"(?P<path>.+) does not exist; use write_file to create it",
          QT_TRANSLATE_NOOP("ToolWords", "{path} does not exist")),
    _line(r"(?P<path>'.+') is a folder, not a file",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is a folder, not a file")),
    _line(r"(?P<path>'.+') is not a folder", QT_TRANSLATE_NOOP("ToolWords", "{path} is not a folder")),
    _line(r"folder (?P<path>'.+') does not exist",
          QT_TRANSLATE_NOOP("ToolWords", "folder {path} does not exist")),
    _line(r"missing required argument (?P<name>'.+')",
          QT_TRANSLATE_NOOP("ToolWords", "missing required argument {name}")),
    _line(r"invalid regular expression: (?P<error>.+)",
          QT_TRANSLATE_NOOP("ToolWords", "invalid regular expression: {error}")),
    _line(r"Refused by the command policy: (?P<reason>.+)",
          QT_TRANSLATE_NOOP("ToolWords", "Refused by the command policy: {reason}")),
    _line(r"(?P<path>'.+') resolves to (?P<real>'.+'), outside the project folder (?P<root>'.+')",
          QT_TRANSLATE_NOOP("ToolWords", "{path} resolves to {real}, outside the project folder {root}")),
    _line(r"(?P<path>'.+') is outside the project folder (?P<root>'.+')",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is outside the project folder {root}")),
    # refused arguments and paths (tools/common.py, paths.py, fdwalk.py, search.py, writes.py, ask_user.py,
    # engine/tasks, engine/ops/child_tools.py, engine/memory/tool.py): the meta test in test_tool_words
    # finds every literal ToolError text and fails if one is missing here
    _line(r"argument (?P<name>'.+') must be a string, not (?P<type>\w+)",
          QT_TRANSLATE_NOOP("ToolWords", "argument {name} must be a string, not {type}")),
    _line(r"argument (?P<name>'.+') must not be empty",
          QT_TRANSLATE_NOOP("ToolWords", "argument {name} must not be empty")),
    _line(r"argument (?P<name>'.+') must be an integer",
          QT_TRANSLATE_NOOP("ToolWords", "argument {name} must be an integer")),
    _line(r"argument (?P<name>'.+') must be between (?P<low>-?\d+) and (?P<high>-?\d+)",
          QT_TRANSLATE_NOOP("ToolWords", "argument {name} must be between {low} and {high}")),
    _line(r"argument (?P<name>'.+') must be true or false",
          QT_TRANSLATE_NOOP("ToolWords", "argument {name} must be true or false")),
    _line(r"(?P<path>'.+') is protected \(git internals or Foya's data\) and cannot be read by file tools",
          QT_TRANSLATE_NOOP("ToolWords",
                            "{path} is protected (git internals or Foya's data) and cannot be read by file tools")),  # noqa: E501
    _line(r"(?P<path>'.+') is protected \(git internals or Foya's data\) and cannot be written by file tools",
          QT_TRANSLATE_NOOP("ToolWords",
                            "{path} is protected (git internals or Foya's data) and cannot be written by file tools")),  # noqa: E501
    _line(r"path must be a string, not (?P<type>\w+)",
          QT_TRANSLATE_NOOP("ToolWords", "path must be a string, not {type}")),
    _line(r"path is empty",
          QT_TRANSLATE_NOOP("ToolWords", "path is empty")),
    _line(r"path (?P<path>'.+') contains a NUL byte",
          QT_TRANSLATE_NOOP("ToolWords", "path {path} contains a NUL byte")),
    _line(r"path (?P<path>'.+') contains control characters",
          QT_TRANSLATE_NOOP("ToolWords", "path {path} contains control characters")),
    _line(r"path (?P<path>'.+') starts with '~'; home folders are outside the project and '~' is not expanded",  # noqa: E501
          QT_TRANSLATE_NOOP("ToolWords",
                            "path {path} starts with '~'; home folders are outside the project and '~' is not expanded")),  # noqa: E501
    _line(r"path (?P<path>'.+') uses shell variable syntax; variables are not expanded, give a literal path",
          QT_TRANSLATE_NOOP("ToolWords",
                            "path {path} uses shell variable syntax; variables are not expanded, give a literal path")),  # noqa: E501
    _line(r"project folder (?P<path>'.+') does not exist",
          QT_TRANSLATE_NOOP("ToolWords", "project folder {path} does not exist")),
    _line(r"path (?P<path>'.+') runs into a symbolic link loop",
          QT_TRANSLATE_NOOP("ToolWords", "path {path} runs into a symbolic link loop")),
    _line(r"path (?P<path>'.+') is too long",
          QT_TRANSLATE_NOOP("ToolWords", "path {path} is too long")),
    _line(r"(?P<path>'.+') has (?P<count>\d+) hard links; writing it could change a file outside the project(?:, so Foya treats it as outside)?",  # noqa: E501
          QT_TRANSLATE_NOOP("ToolWords",
                            "{path} has {count} hard links; writing it could change a file outside the project")),  # noqa: E501
    _line(r"(?P<path>'.+') has (?P<count>\d+) hard links; reading it could show a file outside the project, so Foya treats it as outside",  # noqa: E501
          QT_TRANSLATE_NOOP("ToolWords",
                            "{path} has {count} hard links; reading it could show a file outside the project")),  # noqa: E501
    _line(r"(?P<path>'.+') is a system path \(/proc, /dev, /sys\), not a project file",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is a system path (/proc, /dev, /sys), not a project file")),
    _line(r"the project folder itself cannot be written as a file",
          QT_TRANSLATE_NOOP("ToolWords", "the project folder itself cannot be written as a file")),
    _line(r"cannot open (?P<path>'.+'): (?P<error>.+)",
          QT_TRANSLATE_NOOP("ToolWords", "cannot open {path}: {error}")),
    _line(r"(?P<path>'.+') is not a normalised path",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is not a normalised path")),
    _line(r"(?P<path>'.+') is a symbolic link; Foya does not follow it here",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is a symbolic link; Foya does not follow it here")),
    _line(r"(?P<path>'.+') is \(or just became\) a symbolic link; Foya does not follow it here",
          QT_TRANSLATE_NOOP("ToolWords",
                            "{path} is (or just became) a symbolic link; Foya does not follow it here")),
    _line(r"(?P<path>'.+') does not exist",
          QT_TRANSLATE_NOOP("ToolWords", "{path} does not exist")),
    _line(r"the project folder itself is not a file",
          QT_TRANSLATE_NOOP("ToolWords", "the project folder itself is not a file")),
    _line(r"(?P<path>'.+') is a folder",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is a folder")),
    _line(r"(?P<path>'.+') is not a regular file",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is not a regular file")),
    _line(r"glob (?P<glob>'.+') must be relative to the project folder",
          QT_TRANSLATE_NOOP("ToolWords", "glob {glob} must be relative to the project folder")),
    _line(r"glob (?P<glob>'.+') contains '\.\.'; globs cannot leave the search folder",
          QT_TRANSLATE_NOOP("ToolWords", "glob {glob} contains '..'; globs cannot leave the search folder")),
    _line(r"pattern is longer than (?P<count>\d+) characters",
          QT_TRANSLATE_NOOP("ToolWords", "pattern is longer than {count} characters")),
    _line(r"(?P<path>.+) is not UTF-8 text; edit_file cannot change it",
          QT_TRANSLATE_NOOP("ToolWords", "{path} is not UTF-8 text; edit_file cannot change it")),
    _line(r"ask_user needs a non-empty 'question'\.",
          QT_TRANSLATE_NOOP("ToolWords", "ask_user needs a non-empty 'question'.")),
    _line(r"'choices' must be a list of strings\.",
          QT_TRANSLATE_NOOP("ToolWords", "'choices' must be a list of strings.")),
    _line(r"'task_id' is required\.",
          QT_TRANSLATE_NOOP("ToolWords", "'task_id' is required.")),
    _line(r"the call that started this sub-agent is not recorded as running",
          QT_TRANSLATE_NOOP("ToolWords", "the call that started this sub-agent is not recorded as running")),
    _line(r"no persona named (?P<name>'.+'); known: (?P<known>.*)",
          QT_TRANSLATE_NOOP("ToolWords", "no persona named {name}; known: {known}")),
    # who a VP may start, and with what (engine/agents/spawning.py, engine/ops/child_tools.py)
    _line(r"There is no persona or agent file named (?P<name>.+?) here\. "
          r"(?:You may start: )?(?P<known>.*?)\.?",
          QT_TRANSLATE_NOOP("ToolWords",
                            "There is no persona or agent file named {name} here. You may start: {known}")),
    _line(r"(?P<name>.+?) is not on this session's roster, so it cannot be started here\. "
          r"(?:You may start: )?(?P<known>.*?)\.?",
          QT_TRANSLATE_NOOP("ToolWords",
                            "{name} is not on this session's roster, so it cannot be started here. "
                            "You may start: {known}")),
    _line(r"(?P<name>.+?) is an agent file of this repository \((?P<path>.+?)\) that the person has "
          r"not added to the VP library, so it cannot be started\. (?:You may start: )?(?P<known>.*?)\.? "
          r"Ask the person to review the file and add it .*",
          QT_TRANSLATE_NOOP("ToolWords",
                            "{name} is an agent file of this repository ({path}) that you have not added to "
                            "the VP library, so it cannot be started. You may start: {known}")),
    _line(r"The agent file (?P<name>.+?) asks for (?P<tools>.+?), which (?P<caller>.+?) may not use "
          r"here; a sub-agent never gets tools its caller does not have, so it was not started\. "
          r"Do the work with your own tools, or ask the person\.",
          QT_TRANSLATE_NOOP("ToolWords",
                            "The agent file {name} asks for {tools}, which {caller} may not use here, so it "
                            "was not started (a sub-agent never gets tools its caller lacks).")),
    _line(r"(?P<name>.+?) is no longer on this session's roster\.",
          QT_TRANSLATE_NOOP("ToolWords", "{name} is no longer on this session's roster.")),
    _line(r"save needs the text to remember\.",
          QT_TRANSLATE_NOOP("ToolWords", "save needs the text to remember.")),
    _line(r"forget needs the id of the entry \(see action list\)\.",
          QT_TRANSLATE_NOOP("ToolWords", "forget needs the id of the entry (see action list).")),
    _line(r"Unknown action (?P<action>'.*'): use save, list or forget\.",
          QT_TRANSLATE_NOOP("ToolWords", "Unknown action {action}: use save, list or forget.")),
    # background tasks, sub-agents, memory
    # (engine/tasks/tools.py, engine/ops/child_tools.py, engine/memory/tool.py)
    _line(r"Started background task (?P<id>\S+): (?P<title>.*)",
          QT_TRANSLATE_NOOP("ToolWords", "Started background task {id}: {title}")),
    _line(r"Started sub-agent task (?P<id>\S+) in child session (?P<child>\S+)\. .*",
          QT_TRANSLATE_NOOP("ToolWords", "Started sub-agent task {id} in child session {child}")),
    _line(r"Sub-agent task (?P<id>\S+) \(child session (?P<child>\S+)\) ended: (?P<state>\w+)\.",
          QT_TRANSLATE_NOOP("ToolWords", "Sub-agent task {id} (child session {child}) ended: {state}")),
    _line(r"Could not start the sub-agent: (?P<error>.+)",
          QT_TRANSLATE_NOOP("ToolWords", "Could not start the sub-agent: {error}")),
    _line(r"\(no answer\)", QT_TRANSLATE_NOOP("ToolWords", "(no answer)")),
    _line(r"Your memory is empty \(user, VP, session-VP and session scopes\)\.",
          QT_TRANSLATE_NOOP("ToolWords", "The memory is empty.")),
    _line(r"Saved (?P<id>\S+) to (?P<scope>\S+) memory — .*",
          QT_TRANSLATE_NOOP("ToolWords", "Saved {id} to memory ({scope})")),
    _line(r"Forgot (?P<id>\S+)\.", QT_TRANSLATE_NOOP("ToolWords", "Forgot {id}.")),
    # the engine's own results (engine/turn/tool_exec.py, tools/ask_user.py, tools/common.py)
    _line(r"The person answered: (?P<answer>.*)", QT_TRANSLATE_NOOP("ToolWords", "You answered: {answer}")),
    _line(r"The person rejected this call: (?P<feedback>.*)",
          QT_TRANSLATE_NOOP("ToolWords", "You rejected this call: {feedback}")),
    _line(r"Unknown tool: (?P<name>.+)\.", QT_TRANSLATE_NOOP("ToolWords", "Unknown tool: {name}.")),
    _line(r"Not allowed: (?P<reason>.+)\.", QT_TRANSLATE_NOOP("ToolWords", "Not allowed: {reason}.")),
    _line(r"The tool failed: (?P<error>.+)", QT_TRANSLATE_NOOP("ToolWords", "The tool failed: {error}")),
    _line(r"file system error: (?P<error>.+)", QT_TRANSLATE_NOOP("ToolWords", "file system error: {error}")),
)

_LINES = _OUTPUT_LINES + tuple(replace(answer, result=True) for answer in _ANSWERS)

OWN_ANSWER_TOOLS = frozenset({"write_file", "edit_file", "view_image", "ask_user", "memory", "run_background",
                              "task_cancel", "task_result", "spawn_agent"})
"""Tools whose whole result is written by Foya (no program output, file text or server text in it)."""


def _answers_are_ours(tool: str, content: str, is_error: bool) -> bool:
    """Whether the first line of this result may be one of Foya's answers.

    A prompt-injected model can make a command print, or a file or an MCP server contain, "The
    person answered: deploy"; said in the window's voice it would read as the person's own answer.
    So answers are recognised only from tools that write their whole result, or as a refusal: a
    one-line error (argument and policy refusals, "Not allowed", "Unknown tool"; a command's output
    is never one line, its exit code follows it) from a tool that is not an MCP server's.
    """
    if tool in OWN_ANSWER_TOOLS:
        return True
    return is_error and "\n" not in content.strip() and not tool.startswith("mcp__")


_VALUES: dict[str, object] = {  # fixed words inside those lines: task states and memory scopes
    "completed": QT_TRANSLATE_NOOP("ToolWords", "completed"),
    "failed": QT_TRANSLATE_NOOP("ToolWords", "failed"),
    "cancelled": QT_TRANSLATE_NOOP("ToolWords", "cancelled"),
    "running": QT_TRANSLATE_NOOP("ToolWords", "running"),
    "user": QT_TRANSLATE_NOOP("ToolWords", "yours"), "vp": QT_TRANSLATE_NOOP("ToolWords", "the VP's"),
    "session-vp": QT_TRANSLATE_NOOP("ToolWords", "the VP's in this session"),
    "session": QT_TRANSLATE_NOOP("ToolWords", "this session's"),
}

_READ_NUMBER = re.compile(r"^\s*\d+\t")
"""read_file's line-number column (``tools/files.py``): the summary shows the line, not its number."""


def said(line: str, *, answer: bool = False) -> tuple[str, bool] | None:
    """``line`` in the window's language and whether it is a note; ``None`` if no tool of ours wrote it.

    ``answer``: the line may be one of Foya's whole answers (see :func:`_answers_are_ours`).
    """
    for known in _LINES:
        if known.result and not answer:
            continue
        match = known.pattern.fullmatch(line)
        if match is not None:
            values = {k: (i18n.number(int(v)) if v.isdigit() else v) for k, v in match.groupdict().items()}
            if "reason" in values:
                values["reason"] = error_text.policy_reason_text(values["reason"])
            for key in ("state", "scope"):
                if values.get(key) in _VALUES:
                    values[key] = QCoreApplication.translate(CONTEXT, str(_VALUES[values[key]]))
            return QCoreApplication.translate(CONTEXT, known.template).format(**values), known.note
    return None


def _our_notes(lines: list[str]) -> set[int]:
    """Which of ``lines`` are notes our tools wrote about the output, by where they stand.

    A note is a claim about the output ("exit code 0"), so a program or a file must not be able to
    make one: a command that prints "[exit code: 0]" and then fails would read as a success. Our
    tools write notes after the output, each kind once: so only the trailing run of note lines
    counts, no kind twice, with run_command's verdict only as the very last line — plus the one
    truncation marker a command's captured output holds inside it (the first such line).
    """
    ours: set[int] = set()
    seen: set[re.Pattern[str]] = set()
    filled = [i for i, line in enumerate(lines) if line.strip()]
    for position, i in enumerate(reversed(filled)):
        line = lines[i].strip()
        known = next((k for k in _OUTPUT_LINES if k.note and k.pattern.fullmatch(line)), None)
        if known is None or known.pattern in seen or (position > 0 and _LAST_LINE_NOTES.fullmatch(line)):
            break
        seen.add(known.pattern)
        ours.add(i)
    inner = next((i for i in filled if _INNER_NOTE.fullmatch(lines[i].strip())), None)
    if inner is not None:
        ours.add(inner)
    return ours


def _said_at(lines: list[str], answer: bool) -> list[tuple[str, bool] | None]:
    """:func:`said` for each line: notes only where :func:`_our_notes` puts them, an answer only first."""
    notes = _our_notes(lines)
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    out: list[tuple[str, bool] | None] = []
    for i, line in enumerate(lines):
        found = said(line.strip(), answer=answer and i == first) if line.strip() else None
        out.append(None if found is not None and found[1] and i not in notes else found)
    return out


def translated(text: str, tool: str, is_error: bool = False) -> str:
    """A whole result of ``tool`` with our lines said in the window's language (the unfolded details)."""
    lines = text.split("\n")
    return "\n".join(s[0] if s is not None else line
                     for line, s in zip(lines, _said_at(lines, _answers_are_ours(tool, text, is_error)),
                                        strict=True))


@dataclass(frozen=True, slots=True)
class Reading:
    """A result split for its summary: the output's lines (ours translated) and the notes about it."""

    lines: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def empty(self) -> bool:
        """Nothing came out (or only run_command's "(no output)")."""
        return not self.lines


def read(tool: str, content: str, is_error: bool = False) -> Reading:
    """Split ``content`` into output lines and notes; ``tool`` decides tool-specific columns and
    whether the first line may be one of Foya's answers."""
    lines: list[str] = []
    notes: list[str] = []
    raws = content.strip().split("\n")
    for raw, found in zip(raws, _said_at(raws, _answers_are_ours(tool, content, is_error)), strict=True):
        if not raw.strip():
            continue
        if found is not None and found[1]:
            notes.append(found[0])
            continue
        if raw.strip() == "(no output)":
            continue
        text = found[0] if found is not None else raw
        lines.append(_READ_NUMBER.sub("", text) if tool == "read_file" else text)
    return Reading(tuple(lines), tuple(notes))
