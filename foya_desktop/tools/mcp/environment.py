"""The environment a stdio MCP server starts with: a minimal base plus what its entry names.

Foya's own environment holds the connections' API keys (``OPENAI_API_KEY``…), cloud and
git credentials, the desktop session's bus (the keyring behind it) and whatever else the
person exported. None of it reaches a server unless its entry names it — ``"env":
{"GITHUB_TOKEN": "${GITHUB_TOKEN}"}`` — so the person sees, at trust, every variable a
project server is given. The base is what programs need to start and behave normally:

- ``PATH`` (Foya's, with the login shell's entries appended: ``shell_path``), ``HOME``,
  ``USER``, ``LOGNAME``, ``SHELL``, ``TERM``, ``TMPDIR``, ``TZ``;
- the locale: ``LANG``, ``LANGUAGE`` and every ``LC_*``;
- on Windows the variables its programs cannot start without (``SYSTEMROOT``, ``COMSPEC``,
  ``PATHEXT``, ``APPDATA``, ``TEMP``…).

Not in the base (name them in ``env`` when a server needs them): proxies (their URLs may
carry passwords), ``DISPLAY``/``WAYLAND_DISPLAY``, ``DBUS_SESSION_BUS_ADDRESS`` and
``XDG_RUNTIME_DIR`` (the keyring and the desktop are reached through them),
``SSL_CERT_FILE``, ``VIRTUAL_ENV``, and every key, token and credential variable. A value
that is a shell function (``() {…}``) is never passed on.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

BASE = ("HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "TZ", "LANG", "LANGUAGE")
"""Passed on from Foya's environment (besides ``PATH`` and ``LC_*``)."""
WINDOWS_BASE = ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "APPDATA", "LOCALAPPDATA",
                "USERPROFILE", "USERNAME", "HOMEDRIVE", "HOMEPATH", "TEMP", "TMP", "PROGRAMDATA",
                "PROGRAMFILES", "PROCESSOR_ARCHITECTURE")


def server_environment(path: str, named: Mapping[str, str],
                       environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of one stdio server: the base from ``environ`` (default: Foya's),
    ``PATH`` = ``path``, then the entry's own variables (``named``, already expanded) over them."""
    source = os.environ if environ is None else environ
    wanted = (*BASE, *WINDOWS_BASE) if os.name == "nt" else BASE
    env = {k: v for k, v in source.items()
           if (k in wanted or k.startswith("LC_")) and not v.startswith("()")}
    env["PATH"] = path
    env.update(named)
    return env
