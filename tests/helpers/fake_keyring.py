"""A keyring backend that keeps secrets in memory: behaves like an OS keyring
(set/get/delete per service and user) without touching the machine's one."""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    """Secure-looking in-memory keyring for tests (priority above 1)."""

    priority = 10

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # keyring is unannotated
        self.secrets: dict[tuple[str, str], str] = {}

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def delete_password(self, service: str, username: str) -> None:
        if (service, username) not in self.secrets:
            raise PasswordDeleteError("no such password")
        del self.secrets[(service, username)]
