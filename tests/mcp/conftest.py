"""Real MCP servers (FastMCP, stdio and streamable HTTP on 127.0.0.1) and a real kernel."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engine.conftest import fake, kernel, keyring_backend, project, rec  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


def stdio_entry(tag: str, *extra: str, mode: str = "stdio") -> dict[str, object]:
    """A ``.mcp.json`` entry that starts the fake server over stdio."""
    return {"command": sys.executable, "args": ["-m", "tests.mcp.fake_server", mode, tag, *extra],
            "env": {"PYTHONPATH": str(ROOT)}}


MARKER_SERVER = """import json, os, sys
VERSION = {version!r}
with open(os.environ["FOYA_TEST_MARKER"], "a", encoding="utf-8") as fh:
    fh.write(json.dumps({{"version": VERSION, "env": dict(os.environ)}}) + "\\n")
sys.argv = [sys.argv[0], "stdio", *sys.argv[1:]]
from tests.mcp.fake_server import main
main()
"""
"""A project script that records (version, its environment) in ``$FOYA_TEST_MARKER`` when it
starts, then serves the fake server's tools over stdio."""


def marker_server(folder: Path, marker: Path, tag: str, version: str = "v1",
                  env: dict[str, str] | None = None) -> dict[str, object]:
    """Write ``server.py`` (:data:`MARKER_SERVER`) into ``folder``; its ``.mcp.json`` entry."""
    (folder / "server.py").write_text(MARKER_SERVER.format(version=version), encoding="utf-8")
    return {"command": sys.executable, "args": ["server.py", tag],
            "env": {"PYTHONPATH": str(ROOT), "FOYA_TEST_MARKER": str(marker), **(env or {})}}


def marker_lines(marker: Path) -> list[dict[str, object]]:
    """What the marker servers recorded, one start a line."""
    if not marker.exists():
        return []
    return [json.loads(line) for line in marker.read_text(encoding="utf-8").splitlines() if line]


def write_config(path: Path, servers: dict[str, object]) -> None:
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def processes_with(tag: str) -> list[int]:
    """Live processes whose command line holds ``tag``."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            cmd = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(") ", 1)[1][0]
        except (OSError, IndexError):
            continue
        if tag.encode() in cmd and state != "Z" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def wait_gone(tag: str, seconds: float = 10.0) -> list[int]:
    """Wait (bounded) until no process holds ``tag``; returns what is left."""
    deadline = time.monotonic() + seconds
    while processes_with(tag) and time.monotonic() < deadline:
        time.sleep(0.05)
    return processes_with(tag)


@pytest.fixture
def tag() -> str:
    return f"mcptag-{uuid.uuid4().hex[:10]}"


def _serve(tag: str, transport: str, path: str) -> Iterator[str]:
    """A FastMCP server on 127.0.0.1 over ``transport``; yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tests.mcp.fake_server", transport, tag, str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture
def http_server(tag: str) -> Iterator[str]:
    """A streamable-HTTP FastMCP server on 127.0.0.1; yields its URL."""
    yield from _serve(tag, "http", "/mcp")


@pytest.fixture
def sse_server(tag: str) -> Iterator[str]:
    """An SSE FastMCP server on 127.0.0.1 (the older HTTP transport); yields its URL."""
    yield from _serve(tag, "sse", "/sse")


async def await_gone(tag: str, seconds: float = 20.0) -> list[int]:
    """``wait_gone`` that keeps the event loop running (for tests on a live loop)."""
    import asyncio
    deadline = time.monotonic() + seconds
    while processes_with(tag) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return processes_with(tag)
