"""Which file names look like they hold secrets.

A name check is a heuristic, not a guarantee: it exists so that reading
``.env`` or a private key is never auto-approved and ``grep`` does not dump
credentials into a model request by accident. Templates such as
``.env.example`` are ordinary files.
"""

from __future__ import annotations

import fnmatch
from pathlib import PurePath

_SECRET_NAMES = frozenset({
    ".env", ".envrc", ".netrc", "_netrc", ".npmrc", ".pypirc", ".pgpass", ".git-credentials",
    ".htpasswd", ".dockercfg", "credentials", "credentials.json", "id_rsa", "id_dsa", "id_ecdsa",
    "id_ed25519", "id_ecdsa_sk", "id_ed25519_sk", "secrets.yml", "secrets.yaml", "secrets.json",
    "secrets.toml", "service-account.json",
})

_SECRET_GLOBS = (
    ".env.*", "*.env", "*.key", "*.pem", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx",
    "*.gpg", "*.asc", "*.ppk", "*_rsa", "*_ed25519", "*.tfvars",
)

_SECRET_FOLDERS = frozenset({".ssh", ".gnupg", ".aws", ".docker", ".kube"})

_TEMPLATE_SUFFIXES = (".example", ".sample", ".template", ".dist", ".defaults")


def is_secret_looking(path: str | PurePath) -> bool:
    """True when the name (or a folder on the way) suggests credentials or keys."""
    pure = PurePath(path)
    name = pure.name.casefold()
    if not name or name.endswith(_TEMPLATE_SUFFIXES) or name.endswith(".pub"):
        return False
    if name in _SECRET_NAMES:
        return True
    if any(fnmatch.fnmatchcase(name, pattern) for pattern in _SECRET_GLOBS):
        return True
    return any(part.casefold() in _SECRET_FOLDERS for part in pure.parts[:-1])
