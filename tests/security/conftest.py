"""Shared fixtures for the attack tests: the engine fixtures, reused."""

from tests.engine.conftest import fake, kernel, keyring_backend, rec

__all__ = ["fake", "kernel", "keyring_backend", "rec"]
