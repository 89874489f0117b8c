"""API keys in the OS keyring only, with a real in-memory keyring backend."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import keyring
import keyring.backend
import keyring.errors
import pytest
from keyring.backends import fail

from foya_desktop.core.errors import AuthError, KeyringUnavailable
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.providers.keys import SERVICE, KeyStore, is_secure_backend, resolve_api_key, secure_backend

KEY = "sk-test-0123456789abcdef"


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring that keeps secrets in a dict, standing in for the OS keyring."""

    priority = 5

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.secrets.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("not found")


class PlaintextLikeKeyring(MemoryKeyring):
    """Stands in for keyrings.alt's file backends: low priority means "not recommended"."""

    priority = 0.5  # type: ignore[assignment]


class AltModuleKeyring(MemoryKeyring):
    """Any backend from the keyrings.alt distribution is refused whatever its priority."""


AltModuleKeyring.__module__ = "keyrings.alt.file"


class LockedKeyring(MemoryKeyring):
    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.PasswordSetError(f"could not store {password}")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def fail_keyring() -> Iterator[Any]:
    previous = keyring.get_keyring()
    backend = fail.Keyring()  # type: ignore[no-untyped-call]
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


def connection(**kwargs: Any) -> Connection:
    return Connection(name=kwargs.pop("name", "work"), kind=ProviderKind.OPENAI,
                      base_url="http://127.0.0.1:1/v1", **kwargs)


def test_set_get_delete_round_trip(memory_keyring: MemoryKeyring) -> None:
    store = KeyStore()
    assert store.get_key("work") is None
    store.set_key("work", KEY)
    assert memory_keyring.secrets == {(SERVICE, "work"): KEY}
    assert store.get_key("work") == KEY
    store.set_key("work", KEY + "2")
    assert store.get_key("work") == KEY + "2"
    store.delete_key("work")
    assert store.get_key("work") is None
    store.delete_key("work")  # deleting twice is fine


def test_problem_says_whether_keys_can_be_stored(memory_keyring: MemoryKeyring) -> None:
    assert KeyStore().problem() is None
    problem = KeyStore(fail.Keyring()).problem()  # type: ignore[no-untyped-call]
    assert problem is not None
    assert problem.startswith("No secure keyring is available on this system")


def test_fail_backend_is_refused_with_a_clear_sentence(fail_keyring: Any) -> None:
    store = KeyStore()
    with pytest.raises(KeyringUnavailable) as caught:
        store.set_key("work", KEY)
    message = str(caught.value)
    assert message.startswith("No secure keyring is available on this system (keyring.backends.fail")
    assert "Foya will not store the API key in plain text. Use --api-key-env VAR instead." in message
    assert KEY not in message
    with pytest.raises(KeyringUnavailable):
        store.get_key("work")
    with pytest.raises(KeyringUnavailable):
        store.delete_key("work")


@pytest.mark.parametrize("backend_class", [PlaintextLikeKeyring, AltModuleKeyring])
def test_plaintext_backends_are_refused_and_never_written(backend_class: type[MemoryKeyring]) -> None:
    backend = backend_class()
    with pytest.raises(KeyringUnavailable, match="No secure keyring"):
        KeyStore(backend).set_key("work", KEY)
    assert backend.secrets == {}


def test_chainer_uses_only_its_secure_member() -> None:
    plaintext, secure = PlaintextLikeKeyring(), MemoryKeyring()

    class FakeChainer:
        backends = [plaintext, secure]  # the plaintext one first, as if it had priority

    FakeChainer.__module__ = "keyring.backends.chainer"
    assert secure_backend(FakeChainer()) is secure
    KeyStore(FakeChainer()).set_key("work", KEY)
    assert secure.secrets
    assert not plaintext.secrets

    class OnlyPlaintextChainer:
        backends = [plaintext]

    OnlyPlaintextChainer.__module__ = "keyring.backends.chainer"
    with pytest.raises(KeyringUnavailable):
        secure_backend(OnlyPlaintextChainer())


def test_backend_errors_become_keyring_unavailable_without_the_key() -> None:
    store = KeyStore(LockedKeyring())
    with pytest.raises(KeyringUnavailable) as caught:
        store.set_key("work", KEY)
    assert KEY not in str(caught.value)
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__
    with pytest.raises(KeyringUnavailable, match="could not read"):
        store.get_key("work")


def test_is_secure_backend() -> None:
    assert is_secure_backend(MemoryKeyring())
    assert not is_secure_backend(fail.Keyring())  # type: ignore[no-untyped-call]
    assert not is_secure_backend(PlaintextLikeKeyring())
    assert not is_secure_backend(AltModuleKeyring())


def test_resolve_prefers_the_environment_variable(memory_keyring: MemoryKeyring) -> None:
    KeyStore().set_key("work", "from-keyring")
    conn = connection(api_key_env="FOYA_TEST_KEY")
    assert resolve_api_key(conn, KeyStore(), {"FOYA_TEST_KEY": "from-env"}) == "from-env"


def test_resolve_missing_environment_variable_is_a_clear_error() -> None:
    with pytest.raises(AuthError, match="environment variable FOYA_MISSING is not set"):
        resolve_api_key(connection(api_key_env="FOYA_MISSING"), KeyStore(MemoryKeyring()), {})


def test_resolve_from_keyring(memory_keyring: MemoryKeyring) -> None:
    store = KeyStore()
    assert resolve_api_key(connection(), store, {}) is None  # local servers need no key
    store.set_key("work", KEY)
    assert resolve_api_key(connection(), store, {}) == KEY


def test_resolve_without_any_keyring_means_no_key(fail_keyring: Any) -> None:
    assert resolve_api_key(connection(), KeyStore(), {}) is None
