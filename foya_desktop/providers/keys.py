"""API keys live in the OS keyring and nowhere else.

Foya never writes a key to its database, its settings or a file. If the only
keyring available would do exactly that (``keyrings.alt`` plaintext/"encrypted"
files, or the ``fail``/``null`` stand-ins on a headless machine), we refuse
with a sentence that says what to do instead, rather than fall back quietly.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from foya_desktop.core.errors import AuthError, KeyringUnavailable
from foya_desktop.core.model import Connection

log = logging.getLogger(__name__)

SERVICE = "foya-desktop"
"""Keyring service name; the username is the connection name."""

_INSECURE_MODULES = ("keyrings.alt", "keyring.backends.fail", "keyring.backends.null")


def describe_backend(backend: Any) -> str:
    """``module.Class`` of a keyring backend, for messages."""
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def is_secure_backend(backend: Any) -> bool:
    """Whether ``backend`` keeps secrets out of plain files: not a fail/null/alt backend and a
    priority of at least 1 (keyring's own marker for "recommended")."""
    if describe_backend(backend).startswith(_INSECURE_MODULES):
        return False
    try:
        return float(backend.priority) >= 1
    except Exception:  # priority raises on backends that cannot run here
        return False


def secure_backend(active: Any) -> Any:
    """The backend to use: ``active`` itself, or for keyring's chainer its best secure member
    (so an installed plaintext backend is never reached through the chain)."""
    chained = getattr(active, "backends", None)
    if chained is not None and "chainer" in describe_backend(active):
        for member in chained:
            if is_secure_backend(member):
                return member
    elif is_secure_backend(active):
        return active
    raise KeyringUnavailable(
        f"No secure keyring is available on this system ({describe_backend(active)}); Foya will "
        "not store the API key in plain text. Use --api-key-env VAR instead.")


class KeyStore:
    """Get, set and delete one API key per connection name."""

    def __init__(self, backend: Any = None) -> None:
        """``backend`` pins a keyring backend (tests); by default keyring's active one."""
        self._pinned = backend

    def problem(self) -> str | None:
        """A plain sentence saying why keys cannot be stored here, or ``None`` when they can."""
        try:
            self._backend()
        except KeyringUnavailable as error:
            return str(error)
        return None

    def _backend(self) -> Any:
        if self._pinned is not None:
            return secure_backend(self._pinned)
        import keyring  # keyring's import and backend discovery stay off start-up

        return secure_backend(keyring.get_keyring())

    def set_key(self, connection_name: str, api_key: str) -> None:
        """Store ``api_key`` for the connection, replacing any previous key."""
        backend = self._backend()
        import keyring.errors  # loaded by _backend() already; see there

        try:
            backend.set_password(SERVICE, connection_name, api_key)
        except keyring.errors.KeyringError as error:
            raise _failed("store", error) from None

    def get_key(self, connection_name: str) -> str | None:
        """The stored key, or ``None`` when there is none."""
        backend = self._backend()
        import keyring.errors  # loaded by _backend() already; see there

        try:
            value = backend.get_password(SERVICE, connection_name)
        except keyring.errors.KeyringError as error:
            raise _failed("read", error) from None
        return str(value) if value else None

    def delete_key(self, connection_name: str) -> None:
        """Forget the key; deleting a key that is not there is not an error."""
        backend = self._backend()
        import keyring.errors  # loaded by _backend() already; see there

        try:
            backend.delete_password(SERVICE, connection_name)
        except keyring.errors.PasswordDeleteError:
            pass
        except keyring.errors.KeyringError as error:
            raise _failed("delete", error) from None


def _failed(action: str, error: Exception) -> KeyringUnavailable:
    # Only the exception type: a backend's message could in principle quote what it was given.
    return KeyringUnavailable(f"The system keyring could not {action} the API key "
                              f"({type(error).__name__}).")


def resolve_api_key(connection: Connection, keystore: KeyStore,
                    environ: Mapping[str, str] | None = None) -> str | None:
    """The key to send for ``connection``.

    With ``api_key_env`` set, the variable must exist (a missing one is a
    configuration mistake worth a clear error). Otherwise the keyring; no key
    (or no keyring at all) means ``None``, which is valid for local servers —
    a server that needs a key will say so with a 401.
    """
    env = os.environ if environ is None else environ
    if connection.api_key_env:
        value = env.get(connection.api_key_env, "").strip()
        if not value:
            raise AuthError(f"The environment variable {connection.api_key_env} is not set, but the "
                            f"connection {connection.name!r} reads its API key from it.")
        return value
    try:
        return keystore.get_key(connection.name)
    except KeyringUnavailable as error:
        log.warning("No API key for connection %r: %s", connection.name, error)
        return None
