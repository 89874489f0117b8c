"""Finding a server's command the way the person's shell would.

A desktop launch (a menu entry, a dock) does not run the login shell, so the
PATH Foya inherits often lacks what ``~/.profile``, ``~/.bashrc``, nvm, pyenv
or Homebrew add — exactly where ``npx`` and ``uvx`` live. Foya asks the
person's ``$SHELL`` once (``-lic``, login + interactive, so both kinds of rc
file run), with a timeout, and caches the answer for the process. The
commands are looked up on this process's PATH first, then on the shell's.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
from pathlib import Path

SHELL_TIMEOUT_S = 5.0
_MARK = "__FOYA_LOGIN_PATH__"
_lock = threading.Lock()
_cache: dict[str, str] = {}


def login_shell_path(shell: str | None = None, timeout: float = SHELL_TIMEOUT_S) -> str:
    """The PATH the person's login shell sets up ('' when it cannot be learned); cached.

    Blocking (runs the shell once): call it from a worker thread.
    """
    shell = shell or os.environ.get("SHELL") or "/bin/sh"
    with _lock:
        if shell in _cache:
            return _cache[shell]
        _cache[shell] = _ask_shell(shell, timeout)
        return _cache[shell]


def _ask_shell(shell: str, timeout: float) -> str:
    script = "printf '\\n" + _MARK + "%s\\n' \"$PATH\""
    try:
        proc = subprocess.Popen([shell, "-lic", script], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                start_new_session=True)
    except OSError:
        return ""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)  # the rc files' children too (they hold the pipe)
        proc.communicate()
        return ""
    for line in out.splitlines():
        if line.startswith(_MARK):
            return line[len(_MARK):].strip()
    return ""


def search_path(environ: dict[str, str] | None = None, shell: str | None = None) -> str:
    """This process's PATH followed by the login shell's entries it lacks."""
    own = (environ if environ is not None else os.environ).get("PATH", os.defpath)
    parts = [p for p in own.split(os.pathsep) if p]
    parts += [p for p in login_shell_path(shell).split(os.pathsep) if p and p not in parts]
    return os.pathsep.join(parts)


class CommandNotFound(Exception):
    """The server's command exists neither on Foya's PATH nor on the login shell's."""


def resolve_command(command: str, path: str, cwd: Path) -> str:
    """The absolute path of ``command``; raises :class:`CommandNotFound` with a sentence."""
    if os.sep in command or command.startswith("~"):
        candidate = Path(command).expanduser()
        if not candidate.is_absolute():
            candidate = cwd / candidate
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
        raise CommandNotFound(f"The command {command} does not exist or is not executable.")
    found = shutil.which(command, path=path)
    if found is None:
        raise CommandNotFound(
            f"The command {command!r} was not found on Foya's PATH nor on your login shell's PATH "
            f"({os.environ.get('SHELL') or '/bin/sh'} -lic). Install it, or write its full path in "
            "the server's \"command\".")
    return found
