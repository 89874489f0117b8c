"""The error tree. Every error a person may see carries a plain-words message.

Messages never contain API keys: provider errors are built from status codes
and vendor error *types*, not from request headers.

Every error also carries a stable ``code`` (snake_case, never reworded) and
the ``params`` its sentence was built from, so a window can show its own
translated text; ``str(error)`` stays the English default. A subclass names
its default code in ``default_code``; a raise site may pass a finer one.
``core/error_codes.py`` is the one list of every code and its params.
"""

from __future__ import annotations

import re
from typing import ClassVar


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class FoyaError(Exception):
    """Base of every error Foya raises on purpose.

    ``exit_code`` is what the ``foya`` command exits with for it (the README
    lists them): scripts can tell a busy session from a full disk.
    """

    exit_code: int = 1

    default_code: ClassVar[str] = ""
    """The code of this kind of error (the class name in snake_case when empty)."""

    def __init__(self, text: str = "", *, code: str = "", **params: object) -> None:
        super().__init__(text)
        self.code: str = code or type(self).class_code()
        """Stable identifier of the error (for translations and scripts)."""
        self.params: dict[str, object] = params
        """The values the English text was built from."""

    @classmethod
    def class_code(cls) -> str:
        """The code of this kind of error (``core/error_codes.py`` lists every code)."""
        return cls.default_code or _snake(cls.__name__)

    @property
    def default_text(self) -> str:
        """The English sentence (what ``str()`` gives)."""
        return str(self)


class NotFound(FoyaError):
    """A session, message, project, connection or VP id that does not exist."""


class InvalidOperation(FoyaError):
    """A request that breaks a rule (e.g. rebinding a project, branching at a user message)."""


class BadInput(InvalidOperation):
    """A command line or form value that cannot be used as given (exit code 2, like a usage error)."""

    exit_code = 2


class SessionDeleted(FoyaError):
    """A write for a session that has been deleted (tombstoned)."""


class SessionBusyElsewhere(InvalidOperation):
    """Another live process (the window or another ``foya``) runs a turn or operation in the session."""

    exit_code = 10

    def __init__(self, message: str, *, pid: int, kind: str, what: str = "") -> None:
        super().__init__(message, pid=pid, kind=kind, what=what)
        self.pid = pid
        self.kind = kind


class StorageError(FoyaError):
    """The data folder or the database file cannot be used; the message says what to do."""

    exit_code = 11


class DatabaseLocked(StorageError):
    """Another process kept the database locked longer than the busy timeout."""

    exit_code = 11


class DiskFull(StorageError):
    """No space left (or the file size limit reached) while writing."""

    exit_code = 12


class StorageReadOnly(StorageError):
    """The data folder or the database file cannot be written."""

    exit_code = 13


class WrongFileType(StorageError):
    """Something of another kind is where Foya's data belongs: a folder (or a pipe, a device) at
    the database file's path, a file where the data folder (or a folder above it) should be.
    Nothing there is changed; the exit code is the unwritable data folder's."""

    exit_code = 13


class DatabaseCorrupt(StorageError):
    """The database file is damaged, empty or not a database: it is never written to."""

    exit_code = 14


class SchemaTooNew(StorageError):
    """The database was written by a newer Foya; opening it read-write could corrupt it."""

    exit_code = 15


class SchemaInvalid(StorageError):
    """The recorded schema version is not a version Foya ever wrote (``0``, ``-1``, ``abc``)."""

    exit_code = 15


class UpgradeFailed(StorageError):
    """Upgrading an older database failed: nothing was changed, a copy from before is kept.

    Its own exit code: a script that retries a locked database (11) should not retry an upgrade
    that will fail the same way each time."""

    exit_code = 16


def storage_exit_code(code: str) -> int | None:
    """The exit code of the storage fault with error code ``code`` (``disk_full`` → 12), else None.

    A turn reports its VPs' failures as codes (the events carry no exception objects); ``foya
    run`` exits with the fault's own code when one of them was the storage's, so a script can tell
    a full disk it can free from a model that failed (1).
    """
    kinds: list[type[StorageError]] = [StorageError]
    while kinds:
        kind = kinds.pop()
        if kind.class_code() == code:
            return kind.exit_code
        kinds.extend(kind.__subclasses__())
    return None


class KeyringUnavailable(FoyaError):
    """No usable OS keyring backend: refuse to store secrets in plain text."""


class ToolError(FoyaError):
    """A tool failed in a way the model should be told about."""


class PathOutsideProject(ToolError):
    """A path that resolves outside the session's workdir (or is otherwise unsafe)."""


class ProviderError(FoyaError):
    """A model provider call failed.

    ``retryable`` says whether the request may be sent again (only before a
    stream has started); ``retry_after`` is the server's hint in seconds.
    """

    retryable: bool = False

    def __init__(self, message: str, *, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message, status=status, retry_after=retry_after)
        self.status = status
        self.retry_after = retry_after


class AuthError(ProviderError):
    """Bad or missing API key (401/403)."""


class RateLimited(ProviderError):
    """Too many requests (429)."""

    retryable = True


class Overloaded(ProviderError):
    """Server overloaded or temporarily failing (5xx, 529, 408, 409)."""

    retryable = True


class ContextTooLong(ProviderError):
    """The request exceeds the model's context window.

    ``window`` is the window the server said it has, when its error body says so (llama.cpp's
    ``n_ctx``): the engine learns it from there (``engine.connections.window``)."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None,
                 window: int | None = None) -> None:
        super().__init__(message, status=status, retry_after=retry_after)
        self.window = window


class CannotConnect(ProviderError):
    """Connection refused, DNS failure, TLS failure."""

    retryable = True


class ProviderTimeout(ProviderError):
    """Connect, first-byte, idle-gap or total timeout."""


class IncompleteStream(ProviderError):
    """The stream ended (or broke) before its terminal event."""


class BadResponse(ProviderError):
    """The provider sent something that is not its documented wire format."""


class StreamErrorEvent(ProviderError):
    """The provider reported an error inside the stream (e.g. Anthropic ``error`` event)."""


class ReplyTooLarge(ProviderError):
    """One reply accumulated more than its limit (``providers.budget``): a broken or hostile server
    streaming without end. What streamed before is kept, marked interrupted."""


class ReplyCutOff(FoyaError):
    """The model's reply ended at the length limit (``finish_reason: "length"``, Anthropic
    ``stop_reason: "max_tokens"``): what it wrote is kept, marked cut off, never as complete
    (docs/index.md "Honest history"); the person may ask it to continue."""

    exit_code = 3


class UnreadableReply(StreamErrorEvent):
    """The server reported inside the stream that it could not read the model's reply as its chat
    format (llama.cpp: "Failed to parse input at pos …", usually a malformed tool call).

    Not the service failing but the model writing wrongly: the turn tells the model what failed
    and lets it try again within its step limit (``engine.turn.runner``).
    """
