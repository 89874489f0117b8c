"""Keeping secrets out of model requests.

Two layers. Before a call: a command that names a secret-looking file
(``.env``, ``*.pem``…) anywhere in its text always asks, in every mode.
After a call: tool output is scrubbed of known secret values — the values in
the project's ``.env*`` files, private-key blocks, and the app's own
credential environment variables — unless the person explicitly approved
reading that secret file. The scrub is defence in depth against commands
that hide a file name; it is applied before anything is stored.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from foya_desktop.tools.sensitive import is_secret_looking

WORD = re.compile(r"[\w.~@/+-]+")
PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S)
SECRET_ENV_NAME = re.compile(r"(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.I)
ENV_LINE = re.compile(r"^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=\s*(.+?)\s*$", re.M)
MIN_SECRET_LEN = 6
REDACTED = "[redacted secret]"
MAX_SECRET_FILES = 50


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
    for path in _secret_files(workdir):
        try:
            text = path.read_text("utf-8", "replace")[:200_000]
        except OSError:
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


def scrub(text: str, secrets: set[str]) -> str:
    """Replace every known secret value (longest first) and any private-key block."""
    text = PRIVATE_KEY_BLOCK.sub(REDACTED, text)
    for secret in sorted(secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text
