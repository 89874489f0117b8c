"""Which MCP servers are configured: the project's ``.mcp.json`` and the user-level file.

The format is Claude Code's: ``{"mcpServers": {"name": {...}}}`` where an entry
is either a stdio server (``command``, ``args``, ``env``; ``type`` absent or
``"stdio"``) or a remote one (``type: "http"`` for streamable HTTP, ``"sse"``
for the older SSE transport; ``url`` and ``headers``). Strings may use
``${VAR}`` and ``${VAR:-default}``; header values may also use
``${keyring:NAME}`` (a secret Foya keeps in the OS keyring, see ``secrets``).
Foya adds two optional keys per entry: ``timeout`` (seconds per tool call) and
``startupTimeout`` (seconds to connect), and reads ``cwd`` (the folder a stdio server
starts in) in the user-level file only (``start_place``).

The parser is lenient on purpose: these files are written for other tools and
by hand. A file that is not JSON, or an entry that cannot be used, becomes a
sentence in :attr:`McpListing.problems` / :attr:`ServerConfig.problem`; every
other entry still loads. Nothing here imports the ``mcp`` SDK or Qt: the
window, ``foya projects info`` and ``foya run`` all list servers through
:func:`configured_servers` without paying for the SDK.

Variables are expanded when a server starts (:func:`expand_server`), not when
the file is listed, so listing never needs the environment a launch has.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from foya_desktop.tools.confined_read import OWN, Confinement, Refused, read_text

PROJECT_FILE = ".mcp.json"
"""The project-level file, at the project root (Claude Code's name)."""
USER_FILE = "mcp.json"
"""The user-level file, in Foya's data folder (``Home.root``)."""

Scope = Literal["user", "project"]
Transport = Literal["stdio", "http", "sse"]

DEFAULT_CALL_TIMEOUT = 60.0
"""Seconds one tool call may take unless the entry says ``timeout``."""
DEFAULT_STARTUP_TIMEOUT = 30.0
"""Seconds a server may take to start and answer ``initialize``."""

_VAR = re.compile(r"\$\{([^}:]+)(?::-([^}]*))?\}")
_NAME_OK = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One configured server, as written (variables not yet expanded)."""

    name: str
    """The name as written in the file."""
    scope: Scope
    source: Path
    """The file it came from."""
    transport: Transport = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    cwd: str = ""
    """The folder a user-level stdio server starts in, as written (``""``: the data folder)."""
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    call_timeout: float = DEFAULT_CALL_TIMEOUT
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    problem: str | None = None
    """Why this server cannot start (``None``: it can be started)."""
    warnings: tuple[str, ...] = ()
    """Things worth saying that do not stop it (e.g. a literal secret-looking header)."""

    @property
    def key(self) -> str:
        """The name used in tool names (``mcp__<key>__<tool>``): letters, digits, ``_`` and ``-``."""
        return tool_name_part(self.name)

    def target(self) -> str:
        """The command line or URL as written, ``${VAR}`` unexpanded (what lists and prompts show:
        a variable's value, often a secret, is never shown or stored)."""
        if self.transport == "stdio":
            return command_line(self.command, self.args)
        return f"{self.transport} {self.url}"

    def fingerprint(self) -> str:
        """The entry as written: transport, command, arguments, env names and values, URL, header
        names and values (``${VAR}`` unexpanded). Trust covers more (the files the command runs,
        ``trust_spec.TrustSpec.fingerprint``); this tells two entries apart."""
        blob = json.dumps([self.transport, self.command, list(self.args), sorted(map(list, self.env)),
                           self.url, sorted(map(list, self.headers)), *([self.cwd] if self.cwd else [])])
        return hashlib.sha256(blob.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class McpListing:
    """Every configured server (user first, then project) and the file-level problems."""

    servers: tuple[ServerConfig, ...] = ()
    problems: tuple[str, ...] = ()
    """Sentences about files that could not be read at all (each names the file)."""
    files: tuple[Path, ...] = ()
    """The files that exist and were read."""

    def of_scope(self, scope: Scope) -> tuple[ServerConfig, ...]:
        """The servers from one level."""
        return tuple(s for s in self.servers if s.scope == scope)

    def effective(self) -> tuple[ServerConfig, ...]:
        """The servers a session of this project uses: a project entry shadows a user one of the
        same name (as in Claude Code), and entries with a problem are left out."""
        project = {s.key for s in self.of_scope("project")}
        return tuple(s for s in self.servers if s.problem is None
                     and not (s.scope == "user" and s.key in project))


def tool_name_part(name: str) -> str:
    """``name`` with every character a tool name may not hold replaced by ``_`` (at most 40)."""
    return _NAME_OK.sub("_", name)[:40] or "_"


def user_config_path(data_dir: Path) -> Path:
    """Where the user-level server list lives."""
    return data_dir / USER_FILE


def project_config_path(project_dir: Path) -> Path:
    """Where a project's server list lives."""
    return project_dir / PROJECT_FILE


def configured_servers(data_dir: Path | None, project_dir: Path | None) -> McpListing:
    """List the user-level servers (from ``data_dir``) and the project's (from ``project_dir``).

    Blocking file reads (small files); never raises for bad content: every problem is a
    sentence in the result.
    """
    servers: list[ServerConfig] = []
    problems: list[str] = []
    files: list[Path] = []
    places: list[tuple[Scope, Path]] = []
    if data_dir is not None:
        places.append(("user", user_config_path(data_dir)))
    if project_dir is not None:
        places.append(("project", project_config_path(project_dir)))
    for scope, path in places:
        found, problem, read = load_file(path, scope)
        servers += found
        if problem:
            problems.append(problem)
        if read:
            files.append(path)
    return McpListing(tuple(servers), tuple(problems), tuple(files))


def load_file(path: Path, scope: Scope) -> tuple[list[ServerConfig], str | None, bool]:
    """(servers, file-level problem, whether the file exists) for one config file."""
    try:  # confined like every file Foya reads by itself (tools.confined_read: project vs the person's own)
        text = read_text(path, OWN if scope == "user" else Confinement(path.parent))
    except FileNotFoundError:
        return [], None, False
    except Refused as exc:
        return [], f"{path}: {exc}; none of its servers were loaded.", True
    except (OSError, UnicodeDecodeError) as exc:
        return [], f"{path} could not be read ({exc.__class__.__name__}: {exc}).", True
    return *parse_text(text, path, scope), True


def parse_text(text: str, path: Path, scope: Scope) -> tuple[list[ServerConfig], str | None]:
    """Parse one file's text; bad entries carry their own problem, the rest are usable."""
    if not text.strip():
        return [], None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return [], f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); " \
                   "none of its servers were loaded."
    if not isinstance(data, dict):
        return [], f"{path} should hold a JSON object with \"mcpServers\"; none of its servers were loaded."
    entries = data.get("mcpServers")
    if entries is None:
        return [], None if not data else f"{path} has no \"mcpServers\" object; no servers were loaded."
    if not isinstance(entries, dict):
        return [], f"{path}: \"mcpServers\" should be an object of name → server; no servers were loaded."
    return [parse_entry(str(name), entry, path, scope) for name, entry in entries.items()], None


def parse_entry(name: str, entry: object, path: Path, scope: Scope) -> ServerConfig:
    """One entry; never raises (an unusable entry comes back with ``problem`` set)."""
    base = ServerConfig(name=name, scope=scope, source=path)
    if not name.strip():
        return _bad(base, "a server needs a non-empty name")
    if not isinstance(entry, dict):
        return _bad(base, "the entry should be an object with \"command\" or \"url\"")
    kind = entry.get("type", entry.get("transport"))
    if kind is None:
        kind = "http" if "url" in entry and "command" not in entry else "stdio"
    if kind == "streamable-http":
        kind = "http"
    transport: Transport
    if kind == "stdio":
        transport = "stdio"
    elif kind == "http":
        transport = "http"
    elif kind == "sse":
        transport = "sse"
    else:
        return _bad(base, f"unknown type {kind!r} (use \"stdio\", \"http\" or \"sse\")")
    try:
        call_timeout = _seconds(entry, "timeout", DEFAULT_CALL_TIMEOUT)
        startup_timeout = _seconds(entry, "startupTimeout", DEFAULT_STARTUP_TIMEOUT)
    except ValueError as exc:
        return _bad(base, str(exc))
    base = ServerConfig(name=name, scope=scope, source=path, transport=transport,
                        call_timeout=call_timeout, startup_timeout=startup_timeout)
    if transport == "stdio":
        return _stdio(base, entry)
    return _remote(base, entry)


def _stdio(base: ServerConfig, entry: dict[str, Any]) -> ServerConfig:
    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        return _bad(base, "a stdio server needs \"command\" (a program name or path)")
    args = entry.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, (str, int, float)) for a in args):
        return _bad(base, "\"args\" should be a list of strings")
    env = entry.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, (str, int, float)) for v in env.values()):
        return _bad(base, "\"env\" should be an object of name → string")
    cwd = entry.get("cwd", "")
    if not isinstance(cwd, str):
        return _bad(base, "\"cwd\" should be a folder's path")
    warnings = ("\"cwd\" is ignored in a project's .mcp.json: its servers start in the project folder",) \
        if cwd.strip() and base.scope == "project" else ()
    server = _with(base, command=command.strip(), args=tuple(str(a) for a in args),
                   env=tuple((str(k), str(v)) for k, v in env.items()),
                   cwd=cwd.strip() if base.scope == "user" else "", warnings=warnings)
    return _checked(server)


def _remote(base: ServerConfig, entry: dict[str, Any]) -> ServerConfig:
    url = entry.get("url")
    if not isinstance(url, str) or not url.strip():
        return _bad(base, f"a {base.transport} server needs \"url\"")
    headers = entry.get("headers", {})
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        return _bad(base, "\"headers\" should be an object of name → string")
    warnings = tuple(f"header {k} holds a literal secret; write ${{VAR}} or ${{keyring:NAME}} instead "
                     "so it is not kept in plain text" for k, v in headers.items() if _literal_secret(k, v))
    server = _with(base, url=url.strip(), headers=tuple((str(k), v) for k, v in headers.items()),
                   warnings=warnings)
    server = _checked(server)
    if server.problem is None:
        scheme = expand(server.url, {**os.environ})[0].split(":", 1)[0].lower()
        if scheme not in ("http", "https"):
            return _bad(server, f"the url should start with http:// or https://, not {scheme}:")
    return server


def _checked(server: ServerConfig) -> ServerConfig:
    """``server`` with a problem if a variable it uses is unset and has no default."""
    missing: list[str] = []
    texts = [server.command, *server.args, server.cwd, server.url, *(v for _, v in server.env),
             *(v for _, v in server.headers)]
    for text in texts:
        missing += [m for m in expand(text, os.environ)[1] if m not in missing]
    if missing:
        names = ", ".join(missing)
        return _bad(server, f"the environment variable{'s' if len(missing) > 1 else ''} {names} "
                            f"{'are' if len(missing) > 1 else 'is'} not set and "
                            f"{'have' if len(missing) > 1 else 'has'} no ${{VAR:-default}}")
    return server


_SECRET_HEADERS = ("authorization", "token", "key", "secret", "cookie", "password")


def _literal_secret(name: str, value: str) -> bool:
    return any(word in name.lower() for word in _SECRET_HEADERS) and "${" not in value and bool(value.strip())


def _seconds(entry: dict[str, Any], key: str, default: float) -> float:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 24 * 3600:
        raise ValueError(f"\"{key}\" should be a number of seconds between 0 and 86400")
    return float(value)


def _bad(server: ServerConfig, problem: str) -> ServerConfig:
    return _with(server, problem=f"{problem} (server {server.name!r} in {server.source}).")


def _with(server: ServerConfig, **changes: Any) -> ServerConfig:
    fields = {f: getattr(server, f) for f in ServerConfig.__dataclass_fields__}
    fields.update(changes)
    return ServerConfig(**fields)


def expand(text: str, environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """``text`` with ``${VAR}`` / ``${VAR:-default}`` replaced; also the unset names without default.

    ``${keyring:NAME}`` is left as written (resolved by ``secrets`` when connecting). An
    unset variable without a default expands to the empty string and is reported.
    """
    missing: list[str] = []

    def one(match: re.Match[str]) -> str:
        var, default = match.group(1), match.group(2)
        if var.startswith("keyring:") and default is None:
            return match.group(0)
        value = environ.get(var)
        if value is None or (value == "" and default is not None):
            if default is None:
                missing.append(var)
                return ""
            return default
        return value

    return _VAR.sub(one, text), missing


@dataclass(frozen=True, slots=True)
class Expanded:
    """A server's start parameters with variables expanded (secrets still by reference)."""

    command: str
    args: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    cwd: str = ""


def expand_server(server: ServerConfig, environ: Mapping[str, str] | None = None) -> Expanded:
    """The start parameters of ``server`` in ``environ`` (default: this process's)."""
    env = os.environ if environ is None else environ
    return Expanded(command=expand(server.command, env)[0],
                    args=tuple(expand(a, env)[0] for a in server.args),
                    env={k: expand(v, env)[0] for k, v in server.env},
                    url=expand(server.url, env)[0],
                    headers={k: expand(v, env)[0] for k, v in server.headers},
                    cwd=expand(server.cwd, env)[0])


def command_line(command: str, args: tuple[str, ...] | list[str]) -> str:
    """``command`` and ``args`` as one line, words quoted as a shell would need them."""
    return " ".join(_quoted(w) for w in (command, *args))


def _quoted(word: str) -> str:
    return word if word and not re.search(r"[\s'\"\\`]", word) else "'" + word.replace("'", "'\\''") + "'"
