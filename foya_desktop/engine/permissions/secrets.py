"""Keeping secrets out of model requests.

Two layers. Before a call: a command that names a secret-looking file
(``.env``, ``*.pem``…) anywhere in its text always asks, in every mode.
After a call: tool output is scrubbed of known secret values — the values in
the project's ``.env*`` files, private-key blocks, and the app's own
credential environment variables — unless the person explicitly approved
reading that secret file. The scrub is defence in depth against commands
that hide a file name; it is applied before anything is stored.

The ``.env*`` files are read like every project file Foya reads by itself
(``tools.confined_read``, the project as the root): a link out of the project
(to ``/proc/self/environ``, to a file of the person's), a hard link, a
pseudo-file, a FIFO (never opened, so nothing hangs) or a file over
:data:`MAX_SECRET_FILE_BYTES` is not read. A value Foya scrubs is one it
knows, so reading through a link would also let output be matched against
files outside the project.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from foya_desktop.tools.confined_read import Confinement, read_bytes
from foya_desktop.tools.sensitive import is_secret_looking

WORD = re.compile(r"[\w.~@/+-]+")
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S)
SECRET_ENV_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.I)
ENV_LINE = re.compile(r"^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=\s*(.+?)\s*$", re.M)
MIN_SECRET_LEN = 6
REDACTED = "[redacted secret]"
MAX_SECRET_FILES = 50
MAX_SECRET_FILE_BYTES = 1_000_000
"""A larger secret file is not read (no ``.env`` is that large)."""


def command_names_secret(command: str) -> bool:
    """Whether any word in the command text looks like a secret file's path."""
    for word in WORD.findall(command):
        for piece in (word, word.lstrip("@"), word.split("=")[-1]):
            if piece and is_secret_looking(piece.rstrip("/")):
                return True
    return False


def known_secrets(workdir: Path, environ: Mapping[str, str] | None = None) -> set[str]:
    """Secret values worth scrubbing from tool output for this workdir."""
    env = os.environ if environ is None else environ
    found = {v for k, v in env.items() if SECRET_ENV_NAME.search(k) and len(v) >= MIN_SECRET_LEN}
    project = Confinement(workdir, secret_values=True)
    for path in _secret_files(workdir):
        try:
            text = read_bytes(path, project, limit=MAX_SECRET_FILE_BYTES).decode("utf-8", "replace")
        except OSError:  # missing, or refused by confinement
            continue
        found |= {m.group(1).strip("'\"") for m in ENV_LINE.finditer(text)}
        found |= {m.group(0) for m in PRIVATE_KEY_BLOCK.finditer(text)}
    return {s for s in found if len(s) >= MIN_SECRET_LEN}


def _secret_files(workdir: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(workdir):
        dirnames[:] = [d for d in dirnames if d not in {".git", "node_modules", ".venv", "venv"}]
        depth = Path(dirpath).relative_to(workdir).parts
        if len(depth) >= 3:
            dirnames[:] = []
        out += [Path(dirpath, n) for n in filenames if is_secret_looking(Path(dirpath, n))]
        if len(out) >= MAX_SECRET_FILES:
            break
    return out[:MAX_SECRET_FILES]


CUT = re.compile(r"\n\[… \d+ bytes truncated …\]\n")
"""Where a command's output was cut (``tools.process.OutputBuffer.text``): the head before it, the
tail after it."""


def scrub(text: str, secrets: set[str]) -> str:
    """Replace every known secret value (longest first) and any private-key block, and the stretch
    around each place the output was cut (:func:`_scrub_cuts`)."""
    text = PRIVATE_KEY_BLOCK.sub(REDACTED, text)
    ordered = sorted(secrets, key=len, reverse=True)
    for secret in ordered:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return _scrub_cuts(text, len(ordered[0]) - 1) if ordered and CUT.search(text) else text


def _scrub_cuts(text: str, width: int) -> str:
    """Output is kept as its head and tail; a secret the cut went through is whole in neither: the
    head ends with its beginning and the tail starts with its end (a background task's 64 KiB tail
    can be aimed at one with padding). So the last ``width`` characters before every cut and the
    first ``width`` after it are replaced, ``width`` being one less than the longest known secret,
    *whatever they hold*.

    Replacing only the characters that match a piece of a secret would answer a question: a model
    that places the cut with padding and prints a guess there learns from the redaction whether the
    guess is a secret's beginning, one character at a time. A stretch of fixed width, replaced
    whenever secrets are known, says nothing about any value.
    """
    parts = CUT.split(text)
    marks = CUT.findall(text)
    for i in range(len(marks)):
        parts[i] = parts[i][:-width] + REDACTED if len(parts[i]) > width else REDACTED
        parts[i + 1] = REDACTED + parts[i + 1][width:]
    return parts[0] + "".join(mark + part for mark, part in zip(marks, parts[1:], strict=True))
