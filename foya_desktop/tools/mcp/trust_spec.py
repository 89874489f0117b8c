"""What trusting a project MCP server covers, and what changed since it was trusted.

A :class:`TrustSpec` is everything that decides what a server runs and what Foya sends
it: the transport, the command and arguments, every environment variable's name *and*
value, the URL, every header's name and value — all as written in ``.mcp.json``, with
``${VAR}`` unexpanded (expanded only when the server starts, so no secret is kept or
shown) — and the SHA-256 of the project files the command runs (``run_files``). Trust
is recorded for its :attr:`~TrustSpec.fingerprint`; any difference is a changed server
that waits for trust again, and :func:`changes` says what differs (with a capped
unified diff for a changed file). The fingerprint starts with :data:`SPEC_VERSION`, so a
trust recorded by an older Foya (which fingerprinted less) never matches.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from foya_desktop.tools.mcp.config import ServerConfig, command_line, expand_server
from foya_desktop.tools.mcp.run_files import MAX_FILES, RunFile, run_files

SPEC_VERSION = 2
"""Bumped whenever the fingerprint covers more: older trusts then no longer match."""
MAX_DIFF_LINES = 200
MAX_DIFF_CHARS = 12_000
_VARIABLE = re.compile(r"\$\{([^}:]+)(?::-[^}]*)?\}")


@dataclass(frozen=True, slots=True)
class TrustSpec:
    """One server as the person trusts it (``${VAR}`` as written)."""

    transport: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    files: tuple[RunFile, ...] = ()
    more_files: int = 0
    """Files past ``run_files.MAX_FILES`` (counted, not checked)."""

    @property
    def fingerprint(self) -> str:
        """``v<SPEC_VERSION>:`` and the SHA-256 of everything above (order of env and headers aside)."""
        blob = json.dumps({"transport": self.transport, "command": self.command, "args": list(self.args),
                           "env": sorted(list(p) for p in self.env), "url": self.url,
                           "headers": sorted(list(p) for p in self.headers),
                           "files": [f.key() for f in self.files], "more_files": self.more_files},
                          ensure_ascii=False, sort_keys=True)
        return f"v{SPEC_VERSION}:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()

    @property
    def target(self) -> str:
        """The command line or URL as written (one line)."""
        return command_line(self.command, self.args) if self.transport == "stdio" \
            else f"{self.transport} {self.url}"

    def variables(self) -> list[str]:
        """The environment variables it reads when it starts (``${VAR}``; not the keyring's)."""
        texts = [self.command, *self.args, *(v for _, v in self.env), self.url, *(v for _, v in self.headers)]
        names = [m for t in texts for m in _VARIABLE.findall(t)]
        return list(dict.fromkeys(n for n in names if not n.startswith("keyring:")))

    def keyring(self) -> list[str]:
        """The keyring secrets its headers use (``${keyring:NAME}``)."""
        names = [m for _, v in self.headers for m in _VARIABLE.findall(v)]
        return list(dict.fromkeys(n.removeprefix("keyring:") for n in names if n.startswith("keyring:")))

    def to_json(self) -> str:
        """What the trust record keeps (with the files' texts, for later diffs)."""
        return json.dumps({"v": SPEC_VERSION, "transport": self.transport, "command": self.command,
                           "args": list(self.args), "env": [list(p) for p in self.env], "url": self.url,
                           "headers": [list(p) for p in self.headers], "more_files": self.more_files,
                           "files": [{"path": f.path, "state": f.state, "sha256": f.sha256, "size": f.size,
                                      "note": f.note, "text": f.text, "hidden": f.hidden}
                                     for f in self.files]}, ensure_ascii=False)

    @staticmethod
    def from_json(text: str) -> TrustSpec | None:
        """A kept spec, or ``None`` for anything else (an older Foya kept none)."""
        try:
            data: Any = json.loads(text)
            return TrustSpec(
                str(data["transport"]), str(data["command"]), tuple(str(a) for a in data["args"]),
                tuple((str(k), str(v)) for k, v in data["env"]), str(data["url"]),
                tuple((str(k), str(v)) for k, v in data["headers"]),
                tuple(RunFile(str(f["path"]), f["state"], str(f["sha256"]), int(f["size"]), str(f["note"]),
                              None if f["text"] is None else str(f["text"]), str(f["hidden"]))
                      for f in data["files"]), int(data["more_files"]))
        except (ValueError, KeyError, TypeError):
            return None


def spec_of(server: ServerConfig, project_dir: Path | None) -> TrustSpec:
    """``server`` as it is now; the files it runs from ``project_dir`` (blocking: hashes files)."""
    files: tuple[RunFile, ...] = ()
    more = 0
    if server.transport == "stdio" and project_dir is not None and server.problem is None:
        started = expand_server(server)
        files, more = run_files(started.command, started.args, started.env, project_dir)
    return TrustSpec(server.transport, server.command, server.args, server.env, server.url,
                     server.headers, files, more)


def describe(spec: TrustSpec) -> list[str]:
    """Everything the person trusts, one fact a line (the command line's words; English)."""
    lines = [f"command: {spec.target}" if spec.transport == "stdio" else f"url: {spec.target}"]
    lines += [f"env {k}={v}" for k, v in spec.env]
    lines += [f"header {k}: {v}" for k, v in spec.headers]
    if spec.variables():
        lines.append("reads from your environment when it starts: " + ", ".join(spec.variables()))
    if spec.keyring():
        lines.append("uses keyring secrets: " + ", ".join(spec.keyring()))
    lines += [f"runs {file_state(f)}" for f in spec.files if f.state != "missing"]
    if spec.more_files:
        lines.append(f"and {spec.more_files} more project files beside these, not checked "
                     f"(at most {MAX_FILES} are)")
    return lines


def file_state(f: RunFile) -> str:
    """One file as the prompts say it."""
    if f.state == "file":
        extra = f", {f.note}" if f.note else ""
        return f"{f.path} (sha256 {f.sha256[:12]}, {f.size:,} bytes{extra})"
    if f.state == "outside":
        return f"{f.path} → {f.note} (outside the project: not checked)"
    if f.state == "missing":
        return f"{f.path} (absent)"
    return f"{f.path} (cannot be read: {f.note})"


@dataclass(frozen=True, slots=True)
class Change:
    """One difference between the trusted spec and the current one."""

    what: Literal["older", "transport", "command", "url", "env", "header", "file", "more_files"]
    """``older``: trusted by an older Foya that kept no spec (nothing to compare)."""
    name: str = ""
    """The variable, header or file."""
    before: str | None = None
    """``None``: it was not there."""
    after: str | None = None
    """``None``: it is gone."""
    diff: str = ""
    """For a changed file: a unified diff (capped), or why none can be shown."""


def changes(old: TrustSpec | None, new: TrustSpec) -> tuple[Change, ...]:
    """What differs, in the order a reader checks it."""
    if old is None:
        return (Change("older"),)
    out: list[Change] = []
    place = "command" if new.transport == "stdio" else "url"
    for what, a, b in (("transport", old.transport, new.transport), (place, old.target, new.target)):
        if a != b:
            out.append(Change(what, before=a, after=b))  # type: ignore[arg-type]
    for what, before, after in (("env", dict(old.env), dict(new.env)),
                                ("header", dict(old.headers), dict(new.headers))):
        for name in dict.fromkeys([*before, *after]):
            if before.get(name) != after.get(name):
                out.append(Change(what, name, before.get(name), after.get(name)))  # type: ignore[arg-type]
    was, now = {f.path: f for f in old.files}, {f.path: f for f in new.files}
    for path in sorted(set(was) | set(now)):
        then, current = was.get(path), now.get(path)
        if then is None or current is None or then.key() != current.key():
            out.append(Change("file", path, file_state(then) if then else None,
                              file_state(current) if current else None, _file_diff(path, then, current)))
    if old.more_files != new.more_files:
        out.append(Change("more_files", before=str(old.more_files), after=str(new.more_files)))
    return tuple(out)


def _file_diff(path: str, old: RunFile | None, new: RunFile | None) -> str:
    if new is None or new.state != "file":
        return ""
    if new.text is None:
        return f"(no diff shown: {new.hidden or 'its content is not kept'})"
    if old is not None and old.state == "file" and old.text is None:
        return f"(no diff shown: the trusted version's content was not kept: {old.hidden})"
    before = old.text if old is not None and old.text is not None else ""
    lines = list(difflib.unified_diff(before.splitlines(keepends=True), new.text.splitlines(keepends=True),
                                      f"a/{path}" if before else "/dev/null", f"b/{path}"))
    text = "".join(line if line.endswith("\n") else line + "\n" for line in lines[:MAX_DIFF_LINES])
    if len(lines) > MAX_DIFF_LINES or len(text) > MAX_DIFF_CHARS:
        text = text[:MAX_DIFF_CHARS] + f"[… diff cut at {MAX_DIFF_LINES} lines / {MAX_DIFF_CHARS:,} chars]\n"
    return text


def change_lines(change: Change) -> list[str]:
    """One change as lines of text (English; the command line prints them)."""
    if change.what == "older":
        return ["it was trusted by an older Foya, which did not record its environment values, headers "
                "or the files it runs: review it as new"]
    label = {"transport": "type", "command": "command", "url": "url", "env": f"env {change.name}",
             "header": f"header {change.name}", "file": f"file {change.name}",
             "more_files": "unchecked files"}[change.what]
    if change.before is None:
        head = f"{label}: added: {change.after}"
    elif change.after is None:
        head = f"{label}: removed (was {change.before})"
    else:
        head = f"{label}: {change.before} → {change.after}"
    return [head, *change.diff.splitlines()]
