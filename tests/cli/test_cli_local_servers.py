"""``foya run`` against what small local servers do: a reply cut at the length limit is not a
completed turn (exit 3, said on stderr), and the window the server states is learned."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_cli import add_fake, foya, home, server
from tests.fakeprovider import FakeProviderServer, Reply
from tests.fakeprovider.local_server import LlamaServer

__all__ = ["home", "server"]  # the fixtures of test_cli, used here by name


def test_run_of_a_reply_cut_at_the_length_limit_exits_3_saying_so(home: Path, server: FakeProviderServer) -> None:
    """Before: the cut text printed, exit 0, nothing said: a script took half an answer as whole."""
    add_fake(home, server)
    server.script(Reply(text="Step one: open the", finish_reason="length"))
    run = foya(home, "run", "How do I do it?")
    assert run.returncode == 3, run.stderr
    assert "Step one: open the" in run.stdout
    assert run.stderr.strip().splitlines()[-1].startswith(
        "foya: error: Omni: Omni's reply was cut off at the length limit (")


def test_run_against_a_llama_server_learns_its_window(home: Path, server: FakeProviderServer) -> None:
    add_fake(home, server)
    server.llama = LlamaServer(n_ctx=4096)
    server.script(Reply(text="Hi."))
    run = foya(home, "run", "hello")
    assert run.returncode == 0, run.stderr
    listed = foya(home, "connections", "list", "--json")
    assert '"context_window": 4096' in listed.stdout, listed.stdout
    assert server.requests[-1].body["max_tokens"] < 4096
