"""``foya run``: one headless turn, streamed to the terminal."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from foya_desktop.cli.sessions_worktree import check_worktree_flags
from foya_desktop.core.errors import BadInput, ReplyCutOff, storage_exit_code
from foya_desktop.core.events import (
    Event,
    MemoryChanged,
    MessageAdded,
    Notice,
    PartDelta,
    TurnFinished,
    TurnStarted,
    VPStatus,
    event_to_json,
)
from foya_desktop.core.messages import ToolCallPart
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.core.terminal import visible
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.memory.ops import FAR_REACHING, memory_notice
from foya_desktop.engine.request.step import StreamedText
from foya_desktop.tools.paths import broad_project_reason


async def _session_for(kernel: Kernel, args: argparse.Namespace) -> Session:
    changes: dict[str, object] = {}
    if args.connection:
        await kernel.connections.get_connection(args.connection)
        changes["connection"] = args.connection
    if args.model:
        changes["model"] = args.model
    if args.approval:
        changes["approval_mode"] = ApprovalMode(args.approval)
    if args.session is not None:
        session = await kernel.sessions.get_session(args.session)
        _check_broad(session.workdir, kernel, args)
        if args.project:
            _same_folder(session, args.project)
        if args.vp:
            await _same_roster(kernel, session, args.vp)
        return await kernel.sessions.update_session(session.id, **changes) if changes else session
    _check_broad(args.project, kernel, args)
    title = args.prompt.strip().splitlines()[0][:60]
    approval = ApprovalMode(args.approval or ApprovalMode.ASK)
    if getattr(args, "worktree", False):
        return await kernel.worktrees.create_session(
            workdir=args.project or str(Path.cwd()), title=title, branch=args.branch or "",
            parent_folder=args.worktree_dir or "", roster=args.vp, connection=args.connection or "",
            model=args.model or "", approval_mode=approval,
            allow_broad=bool(getattr(args, "allow_broad_project", False)))
    return await kernel.sessions.create_session(
        title=title, workdir=args.project, roster=args.vp,
        connection=args.connection or "", model=args.model or "", approval_mode=approval,
        allow_broad=bool(getattr(args, "allow_broad_project", False)))


def _check_run_worktree(args: argparse.Namespace) -> None:
    """``--worktree`` starts a new session; ``--branch`` and ``--worktree-dir`` go with it."""
    if getattr(args, "worktree", False) and args.session is not None:
        raise BadInput("--worktree starts a new session in a new worktree; leave out --session (a session "
                       "stays in its folder: fork or branch it to work elsewhere).")
    if hasattr(args, "worktree"):
        check_worktree_flags(args)


def _check_broad(project: str | None, kernel: Kernel, args: argparse.Namespace) -> None:
    """Refuse a project that would make confinement meaningless, unless the flag says so."""
    if not project or getattr(args, "allow_broad_project", False):
        return
    reason = broad_project_reason(Path(project), kernel.data_folder)
    if reason is not None:
        raise BadInput(
            f"The project folder {project} {reason}. Tools and commands may read and change "
            "everything inside a project, so this would remove nearly all confinement. "
            "Choose a smaller folder, or pass --allow-broad-project if you really mean it.")


def read_prompt(args: argparse.Namespace) -> str:
    """The message from the argument, ``-`` (standard input) or ``--prompt-file``, checked.

    The OS limits one argument to about 128 kB, so long prompts come from a file
    or a pipe. Empty or whitespace-only text and bytes that are not UTF-8 are
    refused with a sentence (never a traceback).
    """
    _check_run_worktree(args)
    if args.session is not None and not args.session.strip():
        raise BadInput("--session needs a session id (see 'foya sessions list'); leave it out to "
                       "start a new session.")
    if args.prompt_file and args.prompt not in (None, ""):
        raise BadInput("Give the message either as an argument or with --prompt-file, not both.")
    if args.prompt_file:
        try:
            raw = Path(args.prompt_file).expanduser().read_bytes()
        except OSError as exc:
            reason = exc.strerror or exc
            raise BadInput(f"Cannot read the prompt file {args.prompt_file}: {reason}.") from None
        text = _utf8(raw, f"The prompt file {args.prompt_file}")
    elif args.prompt == "-":
        text = _utf8(sys.stdin.buffer.read(), "The prompt read from standard input")
    elif args.prompt is None:
        raise BadInput("foya run needs a message: an argument, '-' to read standard input, or "
                       "--prompt-file FILE.")
    else:
        try:
            args.prompt.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput("The message is not valid UTF-8 text (check the terminal's encoding, or "
                           "pass it with --prompt-file).") from None
        text = args.prompt
    if not text.strip():
        raise BadInput("The message is empty; say what the agent should do.")
    return text


def _utf8(raw: bytes, what: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{what} is not valid UTF-8 text (byte {exc.start} cannot be decoded).") from None


def _same_folder(session: Session, project: str) -> None:
    """``--project`` with ``--session``: accepted when it names the session's own folder."""
    given = Path(project).expanduser().resolve()
    if not session.workdir:
        raise BadInput(f"Session {session.id} is not bound to a folder, so --project {project} does not "
                       "match it; leave --project out, or bind the session to the folder in the window.")
    bound = Path(session.workdir).expanduser().resolve()
    if given != bound:
        raise BadInput(f"Session {session.id} is bound to {bound}, not {given}. A session stays in its "
                       "folder: leave --project out, or branch the session to work elsewhere.")


async def _same_roster(kernel: Kernel, session: Session, names: list[str]) -> None:
    """``--vp`` with ``--session``: accepted when the names are the session's roster."""
    by_id = {vp.id: vp for vp in await kernel.vps.list_vps()}
    roster = [by_id[i].name for i in session.roster if i in by_id] or list(session.roster)
    wanted = {n.strip().lstrip("@").casefold() for n in names}
    have = {n.casefold() for n in roster} | {i.casefold() for i in session.roster}
    if not wanted <= have or len(wanted) != len({n.casefold() for n in roster}):
        given = " --vp ".join(names)
        raise BadInput(f"Session {session.id} has the roster {', '.join(roster)}; --vp {given} "
                       "does not match it. Leave --vp out to keep the roster (address VPs with @Name).")


class _Printer:
    """Streams one turn's events to stdout and remembers how it ended."""

    def __init__(self, as_json: bool, session_id: str, names: dict[str, str]) -> None:
        self.as_json = as_json
        self.session_id = session_id
        self.names = names
        self.user_message_id = ""
        self.turn_of: dict[str, str] = {}
        """user message id → turn id (the turn may start before ``send`` returns)."""
        self.finished: dict[str, TurnFinished] = {}
        self.done: asyncio.Future[TurnFinished] = asyncio.get_running_loop().create_future()
        self._floor = ""
        """The VP whose reply is printing now; parallel VPs' text waits in ``_held`` meanwhile."""
        self._held: dict[str, StreamedText] = {}
        self._ended: set[str] = set()

    def __call__(self, event: Event) -> None:
        if event.session_id != self.session_id:
            return
        if isinstance(event, TurnStarted):
            self.turn_of[event.user_message_id] = event.turn_id
        if self.as_json:
            print(json.dumps(event_to_json(event), ensure_ascii=False), flush=True)
        else:
            self._text(event)
        if isinstance(event, TurnFinished):
            self.finished[event.turn_id] = event
        self.settle()

    def settle(self) -> None:
        """Resolve ``done`` once our turn (known by its user message) has finished."""
        turn_id = self.turn_of.get(self.user_message_id)
        if turn_id in self.finished and not self.done.done():
            self.done.set_result(self.finished[turn_id])

    def _text(self, event: Event) -> None:
        if isinstance(event, PartDelta) and event.kind == "text":
            self._say(event.speaker, visible(event.text))
        elif isinstance(event, VPStatus) and event.state in ("done", "stopped", "error"):
            self._ended.add(event.speaker)
            if event.speaker == self._floor:
                self._next_floor()
        elif isinstance(event, TurnFinished):
            self._floor = ""
            self._next_floor()
        elif isinstance(event, MessageAdded) and event.message.role == "assistant":
            for call in (p for p in event.message.parts if isinstance(p, ToolCallPart)):
                args = json.dumps(call.arguments, ensure_ascii=False)[:120]
                # one_line: a model-chosen name with a newline must not print a made-up call line
                print("\n" + visible(f"[{call.name} {args}]", one_line=True), file=sys.stderr, flush=True)
        elif isinstance(event, MessageAdded) and event.message.meta.get("blocked"):
            result = event.message.tool_result
            if result is not None:  # a call that never ran says so, not only to the model
                print(visible(f"[{result.name} not run: {result.content[:300]}]", one_line=True),
                      file=sys.stderr, flush=True)
        elif isinstance(event, Notice):
            print(f"\n[{event.level}] {visible(event.text)}", file=sys.stderr, flush=True)
        elif isinstance(event, MemoryChanged) and event.change == "saved" and event.scope in FAR_REACHING:
            print(visible(memory_notice(event, self.names)), file=sys.stderr, flush=True)

    def _say(self, speaker: str, text: str) -> None:
        """Print ``text`` of ``speaker`` now if it has the floor, else keep it for its turn: VPs
        replying in parallel print one whole block each, never words of two replies mixed."""
        if not self._floor:
            self._take_floor(speaker)
        if speaker == self._floor:
            print(text, end="", flush=True)
        else:
            self._held.setdefault(speaker, StreamedText()).append(text)

    def _take_floor(self, speaker: str) -> None:
        self._floor = speaker
        if len(self.names) > 1:
            print(f"\n── {visible(self.names.get(speaker, speaker), one_line=True)} ──", flush=True)

    def _next_floor(self) -> None:
        """The VP on the floor is done: the next one that already said something prints it all."""
        self._floor = ""
        while self._held and not self._floor:
            speaker = next(iter(self._held))
            pieces = self._held.pop(speaker)
            self._take_floor(speaker)
            print("".join(pieces), end="", flush=True)
            if speaker in self._ended:
                self._floor = ""


async def run_command(kernel: Kernel, args: argparse.Namespace) -> int:
    """Run the turn; exit 0 only when it completed."""
    session = await _session_for(kernel, args)
    print(f"Session {session.id}", file=sys.stderr, flush=True)
    if not session.workdir:
        print("This session has no folder: its VPs can answer, but no file tool or command is available "
              "to them. Bind it to a folder in the window (or start one with --project DIR).",
              file=sys.stderr, flush=True)
    names = {vp.id: vp.name for vp in await kernel.vps.list_vps() if vp.id in session.roster}
    printer = _Printer(args.json, session.id, names)
    unsubscribe = kernel.bus.subscribe(printer)
    try:
        receipt = await kernel.turns.send(session.id, args.prompt)
        printer.user_message_id = receipt.message_id or ""
        printer.settle()
        finished = await printer.done
    finally:
        unsubscribe()
    if not args.json:
        print()
    if args.json:
        print(json.dumps({"type": "Result", "session_id": session.id, "status": finished.status,
                          "error": finished.error}), flush=True)
    if finished.status != "completed":
        reason = finished.error or f"the turn ended with status {finished.status}"
        print(f"foya: error: {visible(reason)}", file=sys.stderr)
        return _failed_turn_exit_code(finished)
    return 0


def _failed_turn_exit_code(finished: TurnFinished) -> int:
    """1 — or, when a VP failed on a storage fault (the disk filled up while the reply was stored),
    that fault's own exit code (12 for a full disk…), as the README's table promises; else 3 when a
    reply was cut off at the length limit (kept, marked so: a script must not take it as whole)."""
    failures = finished.error_params.get("failures", ())
    codes = [failure.get("code") for failure in (failures if isinstance(failures, (list, tuple)) else ())
             if isinstance(failure, Mapping)]
    for code in codes:
        if isinstance(code, str) and (exit_code := storage_exit_code(code)) is not None:
            return exit_code
    return ReplyCutOff.exit_code if ReplyCutOff.class_code() in codes else 1

