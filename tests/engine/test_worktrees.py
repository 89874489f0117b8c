"""Worktree sessions against real git (docs/window/sessions.md "Sessions": a worktree is a project of its own).

Each test builds a real repository in a temporary folder and drives ``kernel.worktrees``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.model import ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.permissions.policy import decide
from foya_desktop.tools.base import ToolContext
from foya_desktop.tools.shell import RunCommandTool
from tests.fakeprovider import FakeProviderServer, Reply
from tests.helpers.git_repo import commit_all, git, make_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository ``shop`` on ``main`` with ``a.txt``."""
    return make_repo(tmp_path / "shop")


async def test_a_new_session_in_a_worktree_gets_a_branch_named_after_it_and_its_own_project(
        kernel: Kernel, repo: Path) -> None:
    (repo / "a.txt").write_text("uncommitted in the repository\n")  # a dirty base is fine
    session = await kernel.worktrees.create_session(workdir=str(repo), title="Fix the login")
    folder = repo.parent / "shop.foya-worktrees" / "fix-the-login"
    assert session.workdir == str(folder.resolve())
    assert git(folder, "symbolic-ref", "--short", "HEAD").strip() == "fix-the-login"
    assert (folder / "a.txt").read_text() == "one\ntwo\nthree\n"  # from the last commit
    assert (repo / "a.txt").read_text() == "uncommitted in the repository\n"  # left where it was
    project = next(p for p in await kernel.projects.list_projects() if p.id == session.project_id)
    assert (project.path, project.name) == (str(folder.resolve()), "shop · fix-the-login")
    status = await kernel.worktrees.status(session.id)
    assert (status.branch, status.base, status.ahead, status.changed) == ("fix-the-login", "main", 0, ())
    assert status.repository == str(repo.resolve())


async def test_an_existing_branch_can_be_picked(kernel: Kernel, repo: Path) -> None:
    git(repo, "branch", "feature")
    session = await kernel.worktrees.create_session(workdir=str(repo), title="Work", branch="feature")
    assert Path(session.workdir).name == "feature"
    assert (await kernel.worktrees.status(session.id)).branch == "feature"


async def test_the_worktree_parent_folder_can_be_chosen(kernel: Kernel, repo: Path, tmp_path: Path) -> None:
    session = await kernel.worktrees.create_session(workdir=str(repo), title="x", parent_folder=str(tmp_path / "wt"))
    assert session.workdir == str((tmp_path / "wt" / "x").resolve())


@pytest.mark.parametrize("case", ["not a repository", "branch exists", "checked out", "folder exists",
                                  "no such branch", "bad name"])
async def test_each_refusal_is_one_sentence_and_leaves_nothing(kernel: Kernel, repo: Path, tmp_path: Path,
                                                               case: str) -> None:
    workdir, title, branch, existing = str(repo), "Fix it", "", None
    if case == "not a repository":
        (tmp_path / "plain").mkdir()
        workdir = str(tmp_path / "plain")
    elif case == "branch exists":
        git(repo, "branch", "fix-it")
    elif case == "checked out":
        branch = "main"
    elif case == "folder exists":
        (repo.parent / "shop.foya-worktrees" / "fix-it").mkdir(parents=True)
    elif case == "no such branch":
        branch, existing = "nowhere", True
    else:
        branch = "two..dots"
    before = git(repo, "worktree", "list")
    with pytest.raises(InvalidOperation) as refused:
        await kernel.worktrees.create_session(workdir=workdir, title=title, branch=branch, existing=existing)
    words = {"not a repository": "is not in a git repository", "branch exists": "already exists in",
             "checked out": "is already checked out in", "folder exists": "already exists; Foya does not put",
             "no such branch": "There is no branch 'nowhere'", "bad name": "cannot be a git branch name"}
    assert words[case] in str(refused.value)
    assert "\n" not in str(refused.value)
    assert await kernel.sessions.list_sessions() == []
    assert git(repo, "worktree", "list") == before


async def test_adding_a_worktree_runs_no_program_the_repository_names(kernel: Kernel, repo: Path,
                                                                      tmp_path: Path) -> None:
    """A ``post-checkout`` hook (and a fsmonitor) would run on ``git worktree add``; Foya's own
    git call switches them off (docs/privacy-security.md "Approvals and safety")."""
    marker = tmp_path / "ran"
    hook = repo / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\necho hook >> {marker}\n")
    hook.chmod(0o755)
    await kernel.worktrees.create_session(workdir=str(repo), title="Safe")
    assert not marker.exists()


async def _worktree_with_commit(kernel: Kernel, repo: Path, text: str) -> tuple[str, Path]:
    session = await kernel.worktrees.create_session(workdir=str(repo), title="Change")
    folder = Path(session.workdir)
    (folder / "a.txt").write_text(text)
    commit_all(folder, "change a")
    return session.id, folder


async def test_status_shows_uncommitted_files_and_commits_ahead(kernel: Kernel, repo: Path) -> None:
    session_id, folder = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    (folder / "new.txt").write_text("new\n")
    status = await kernel.worktrees.status(session_id)
    assert (status.ahead, status.behind, status.changed, status.unmerged) == (1, 0, ("new.txt",), True)


async def test_merge_back_shows_the_diff_then_merges_into_the_base(kernel: Kernel, repo: Path) -> None:
    session_id, _ = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    preview = await kernel.worktrees.merge_preview(session_id)
    assert [(f.path, f.added, f.removed) for f in preview.files] == [("a.txt", 1, 1)]
    assert "@@" in preview.patch and "+TWO" in preview.patch and "-two" in preview.patch
    result = await kernel.worktrees.merge_back(session_id)
    assert result.merged and result.conflicts == ()
    assert (repo / "a.txt").read_text() == "one\nTWO\nthree\n"
    assert (await kernel.worktrees.status(session_id)).ahead == 0


async def test_a_conflict_is_listed_and_left_for_the_person(kernel: Kernel, repo: Path) -> None:
    session_id, _ = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    (repo / "a.txt").write_text("one\nzwei\nthree\n")
    commit_all(repo, "base changes the same line")
    result = await kernel.worktrees.merge_back(session_id)
    assert not result.merged and result.conflicts == ("a.txt",)
    assert result.folder == str(repo.resolve()) and "git merge --abort" in result.message
    assert (repo / ".git" / "MERGE_HEAD").exists()  # the merge waits for the person
    assert "<<<<<<<" in (repo / "a.txt").read_text()  # never resolved silently


async def test_rebase_moves_the_branch_onto_the_base_and_fast_forwards_it(kernel: Kernel, repo: Path) -> None:
    session_id, _ = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    (repo / "b.txt").write_text("b\n")
    commit_all(repo, "base moves on")
    result = await kernel.worktrees.merge_back(session_id, "rebase")
    assert result.merged
    assert git(repo, "log", "--format=%s", "main").split("\n")[:3] == ["change a", "base moves on", "first"]


async def test_merge_back_refuses_uncommitted_work(kernel: Kernel, repo: Path) -> None:
    session_id, folder = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    (folder / "a.txt").write_text("more\n")
    with pytest.raises(InvalidOperation) as refused:
        await kernel.worktrees.merge_back(session_id)
    assert refused.value.code == "worktree_uncommitted"


async def test_removing_unmerged_work_needs_a_second_confirmation(kernel: Kernel, repo: Path) -> None:
    session_id, folder = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    with pytest.raises(InvalidOperation) as refused:
        await kernel.worktrees.remove(session_id)
    assert refused.value.code == "worktree_unmerged" and refused.value.params["commits"] == 1
    assert folder.is_dir() and len(await kernel.sessions.list_sessions()) == 1
    deleted = await kernel.worktrees.remove(session_id, force=True)
    assert deleted == [session_id] and not folder.exists()
    assert "change" not in git(repo, "branch", "--list")
    assert await kernel.projects.list_projects() == []


async def test_a_merged_worktree_is_removed_without_asking_twice(kernel: Kernel, repo: Path) -> None:
    session_id, folder = await _worktree_with_commit(kernel, repo, "one\nTWO\nthree\n")
    await kernel.worktrees.merge_back(session_id)
    await kernel.worktrees.remove(session_id, branch=False)
    assert not folder.exists() and "change" in git(repo, "branch", "--list")


async def test_a_session_outside_a_worktree_says_so(kernel: Kernel, repo: Path) -> None:
    session = await kernel.sessions.create_session(title="plain", workdir=str(repo))
    with pytest.raises(InvalidOperation) as refused:
        await kernel.worktrees.status(session.id)
    assert refused.value.code == "not_a_worktree"


async def test_a_fork_into_a_new_worktree_keeps_the_history_and_binds_the_fork_there(
        kernel: Kernel, repo: Path, fake: FakeProviderServer) -> None:
    source = await kernel.sessions.create_session(title="Plan", workdir=str(repo), connection="fake")
    fake.script(Reply(text="a plan"))
    await kernel.turns.send(source.id, "make a plan")
    await kernel.turns.wait_idle()
    fork = await kernel.worktrees.fork(source.id)
    folder = repo.parent / "shop.foya-worktrees" / "plan-fork"
    assert fork.workdir == str(folder.resolve()) and fork.project_id != source.project_id
    assert [m.text for m in await kernel.history.messages(fork.id)] == ["make a plan", "a plan"]
    unchanged = await kernel.sessions.get_session(source.id)
    assert (unchanged.project_id, unchanged.workdir) == (source.project_id, source.workdir)
    assert (await kernel.worktrees.status(fork.id)).branch == "plan-fork"
    reply = next(m for m in await kernel.history.messages(source.id) if m.role == "assistant")
    branched = await kernel.worktrees.branch(source.id, reply.id, branch="try-b")
    assert Path(branched.workdir).name == "try-b" and (await kernel.worktrees.status(branched.id)).branch == "try-b"


async def test_a_refused_fork_leaves_no_worktree_and_no_project(kernel: Kernel, repo: Path) -> None:
    source = await kernel.sessions.create_session(title="Plan", workdir=str(repo))
    with pytest.raises(NotFound):
        await kernel.worktrees.branch(source.id, "msg_nowhere")
    assert "plan-branch" not in git(repo, "branch", "--list")
    assert not (repo.parent / "shop.foya-worktrees" / "plan-branch").exists()
    assert [p.path for p in await kernel.projects.list_projects()] == [str(repo.resolve())]


async def test_the_agents_git_in_a_worktree_keeps_foyas_protections(kernel: Kernel, repo: Path) -> None:
    """docs/privacy-security.md "Approvals and safety": git runs unasked only where the project folder holds the
    repository. A worktree's ``.git`` is a file pointing into the main repository, so the agent's
    ``git status`` there asks in ``ask`` mode and runs only confined in ``auto`` — never unasked and
    unconfined as it may in the repository folder itself."""
    session = await kernel.worktrees.create_session(workdir=str(repo), title="Agent")
    folder = Path(session.workdir)
    plan = {where: RunCommandTool().plan({"command": "git status"}, ToolContext("s", where, where / "data"))
            for where in (repo, folder)}
    assert plan[repo].auto_allow and not plan[folder].auto_allow
    assert "not the top of a git repository" in plan[folder].policy_reason
    assert decide(plan[folder], ApprovalMode.ASK, folder, set()).decision == "ask"
    assert decide(plan[folder], ApprovalMode.AUTO, folder, set()).confine
