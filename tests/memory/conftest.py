"""Memory tests run the real kernel on a real SQLite file against the HTTP fake provider."""

from __future__ import annotations

from tests.engine.conftest import fake, kernel, keyring_backend, project, rec
from tests.lifecycle.conftest import box

__all__ = ["box", "fake", "kernel", "keyring_backend", "project", "rec"]
