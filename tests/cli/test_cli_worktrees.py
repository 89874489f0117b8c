"""``foya run --worktree`` and ``foya sessions worktree …`` through the real entry point, real git."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.inproc import Foya
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.git_repo import commit_all, git, make_repo


@pytest.fixture
def foya(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Foya:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    return Foya(capsys)


def _run(foya: Foya, *args: str) -> str:
    """``foya run ARGS`` against the fake provider; the new session's id."""
    with FakeProviderServer() as server:
        assert foya("connections", "add", "fake", "--kind", "openai", "--base-url", server.base_url,
                    "--model", "fake-model")[0] in (0, 1)
        server.script(Reply(text="ok"))
        code, _out, err = foya("run", *args)
    assert code == 0, err
    return err.split("Session ", 1)[1].split()[0]


def test_run_in_a_worktree_then_status_merge_back_with_a_conflict_and_remove(foya: Foya, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    sid = _run(foya, "--project", str(repo), "--worktree", "Add the greeting")
    folder = tmp_path / "shop.foya-worktrees" / "add-the-greeting"
    assert git(folder, "symbolic-ref", "--short", "HEAD").strip() == "add-the-greeting"
    (folder / "a.txt").write_text("one\nhello\nthree\n")
    commit_all(folder, "greet")

    code, out, err = foya("sessions", "worktree", "status", sid, "--json")
    assert code == 0, err
    status = json.loads(out)
    assert (status["branch"], status["base"], status["ahead"], status["changed"]) == ("add-the-greeting",
                                                                                      "main", 1, [])
    code, out, _err = foya("sessions", "worktree", "merge-back", sid, "--preview")
    assert code == 0 and "a.txt  +1 -1" in out and "+hello" in out and "@@" in out

    (repo / "a.txt").write_text("one\nbonjour\nthree\n")
    commit_all(repo, "base greets too")
    code, out, _err = foya("sessions", "worktree", "merge-back", sid)
    assert code == 1 and "stopped with conflicts" in out and "conflict: a.txt" in out
    assert "<<<<<<<" in (repo / "a.txt").read_text()  # left for the person
    git(repo, "merge", "--abort")

    code, _out, err = foya("sessions", "worktree", "remove", sid)
    assert code == 1 and "confirm a second time (--force)" in err and "Traceback" not in err
    assert folder.is_dir()
    code, out, err = foya("sessions", "worktree", "remove", sid, "--force", "--json")
    assert code == 0 and json.loads(out) == {"deleted": [sid]}, err
    assert not folder.exists() and "add-the-greeting" not in git(repo, "branch", "--list")


def test_run_in_a_worktree_on_an_existing_branch(foya: Foya, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    git(repo, "branch", "feature")
    sid = _run(foya, "--project", str(repo), "--worktree", "--branch", "feature", "go on")
    code, out, _err = foya("sessions", "worktree", "status", sid)
    assert code == 0 and "branch feature, base main" in out


@pytest.mark.parametrize(("args", "words"), [
    (("--branch", "x", "hi"), "--branch and --worktree-dir go with --worktree"),
    (("--worktree", "--session", "ses_x", "hi"), "leave out --session"),
    (("--worktree", "--project", "PLAIN", "hi"), "is not in a git repository"),
])
def test_bad_worktree_requests_are_one_sentence(foya: Foya, tmp_path: Path, args: tuple[str, ...],
                                                words: str) -> None:
    (tmp_path / "plain").mkdir()
    code, _out, err = foya("run", *(str(tmp_path / "plain") if a == "PLAIN" else a for a in args))
    assert code != 0 and words in err and "Traceback" not in err


def test_fork_and_branch_into_a_new_worktree(foya: Foya, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    sid = _run(foya, "--project", str(repo), "Plan it")
    code, out, err = foya("sessions", "fork", sid, "--worktree", "--json")
    assert code == 0, err
    fork_id = json.loads(out)["session_id"]
    code, out, _err = foya("sessions", "worktree", "status", fork_id)
    assert code == 0 and "branch plan-it-fork, base main" in out
    messages = json.loads(foya("sessions", "show", sid, "--json")[1])["messages"]
    code, out, err = foya("sessions", "branch", sid, "--after", messages[-1]["id"], "--worktree", "--branch", "b2")
    assert code == 0 and (tmp_path / "shop.foya-worktrees" / "b2").is_dir(), err
    code, _out, err = foya("sessions", "fork", sid, "--branch", "x")
    assert code != 0 and "go with --worktree" in err


def test_a_plain_delete_keeps_the_worktree_and_says_so(foya: Foya, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "shop")
    sid = _run(foya, "--project", str(repo), "--worktree", "Keep me")
    code, out, err = foya("sessions", "delete", sid, "--yes")
    folder = tmp_path / "shop.foya-worktrees" / "keep-me"
    assert code == 0 and f"The worktree {folder.resolve()} and its branch 'keep-me' stay" in out, err
    assert folder.is_dir()
