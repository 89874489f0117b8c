"""``kernel.worktrees``: sessions in git worktrees Foya adds beside the repository.

How a worktree session relates to projects (docs/window/sessions.md "Sessions": a session's
project binding never changes; a project is one folder reference): **each
worktree is a project of its own**, registered for the worktree's folder and
named ``<repository> · <branch>``. The session is bound to it for good, like
any session. Binding it to the repository's project with a different folder
would break what a project promises: relinking a project moves every one of
its sessions to the new folder (the worktree session would silently start
working in the repository), and a project's MCP servers, trust, rules and
instruction belong to one folder. Forks and branches of a worktree session
stay in the same worktree (they copy the project, docs/window/sessions.md "Sessions").

Nothing is stored beyond the project: the branch, the uncommitted files and the
commits ahead are read from git each time (``engine.worktrees.repo``). Foya's
own git calls run with the repository's program settings off
(``engine.worktrees.git``); the agent's git in a worktree keeps every
protection of docs/privacy-security.md "Approvals and safety" (a worktree's ``.git`` is a file,
so its git asks before it runs).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.core.model import ApprovalMode, Session
from foya_desktop.engine.ops.place import Place
from foya_desktop.engine.worktrees import repo
from foya_desktop.engine.worktrees.git import GitResult, run_git
from foya_desktop.tools.git_safety import repository_programs

if TYPE_CHECKING:
    from foya_desktop.engine.areas.sessions import Sessions
    from foya_desktop.engine.lifecycle import Lifecycle
    from foya_desktop.engine.projects import Projects

FOLDER_SUFFIX = ".foya-worktrees"
"""Worktrees go to ``<repository>.foya-worktrees/<branch>`` unless another parent folder is given."""
PATCH_LIMIT = 400_000
"""Characters of the diff *Merge back…* shows; the file list is always whole."""


@dataclass(frozen=True, slots=True)
class WorktreeStatus:
    """A worktree session's folder as git sees it now."""

    session_id: str
    path: str
    repository: str
    """The repository's main folder."""
    branch: str
    base: str
    """The branch checked out in the repository's main folder (what *Merge back* merges into)."""
    changed: tuple[str, ...]
    """Uncommitted files in the worktree."""
    ahead: int
    behind: int

    @property
    def unmerged(self) -> bool:
        """Removing the worktree and branch would lose work not in the base."""
        return bool(self.changed) or self.ahead > 0


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file of the diff against the base (``-1`` lines for a binary file)."""

    path: str
    added: int
    removed: int


@dataclass(frozen=True, slots=True)
class MergePreview:
    """What *Merge back…* would bring into the base: files and hunks."""

    status: WorktreeStatus
    files: tuple[FileChange, ...]
    patch: str
    truncated: bool


@dataclass(frozen=True, slots=True)
class MergeResult:
    """How a merge back ended: merged, or stopped with conflicts left for the person."""

    merged: bool
    how: str
    conflicts: tuple[str, ...] = ()
    folder: str = ""
    """Where the conflicts wait (the repository for a merge, the worktree for a rebase)."""
    message: str = ""
    output: str = field(default="", repr=False)


class Worktrees:
    """Create, inspect, merge back and remove worktree sessions."""

    def __init__(self, projects: Projects, sessions: Sessions, lifecycle: Lifecycle) -> None:
        self._projects = projects
        self._sessions = sessions
        self._lifecycle = lifecycle

    # ---- create -----------------------------------------------------------------------

    async def create_session(self, *, workdir: str, title: str = "", branch: str = "",
                             existing: bool | None = None, parent_folder: str = "",
                             roster: Sequence[str] = (), default_vp: str | None = None,
                             connection: str = "", model: str = "",
                             approval_mode: ApprovalMode = ApprovalMode.ASK,
                             allow_broad: bool = False) -> Session:
        """A new session bound to a new worktree of the repository ``workdir`` is in.

        ``branch`` empty: a new branch named after the session. ``existing`` True: ``branch``
        must exist; False: it must not; ``None``: whichever it is. The worktree goes to
        ``<repository>.foya-worktrees/<branch>`` (or under ``parent_folder``). Uncommitted
        changes in the repository stay there: the worktree starts from the last commit.
        """
        name = branch.strip() or repo.slug(title or "New session")
        async with self._new_worktree(workdir, name, existing if branch.strip() else False, parent_folder,
                                      allow_broad) as place:
            return await self._sessions.create_session(
                title=title, workdir=place.workdir, roster=roster, default_vp=default_vp,
                connection=connection, model=model, approval_mode=approval_mode, allow_broad=allow_broad)

    async def fork(self, session_id: str, *, from_turn: str | None = None, branch: str = "",
                   existing: bool | None = None, parent_folder: str = "") -> Session:
        """Fork the session (whole, or up to a completed turn) into a new worktree of the repository
        its folder is in: the fork gets the history and settings, and is bound to the worktree's
        project instead of the source's (docs/window/sessions.md "Sessions"). The source does not change."""
        def make(place: Place) -> Awaitable[Session]:
            return self._lifecycle.fork(session_id, from_turn=from_turn, place=place)
        return await self._beside(session_id, "fork", branch, existing, parent_folder, make)

    async def branch(self, session_id: str, after_message_id: str, *, branch: str = "",
                     existing: bool | None = None, parent_folder: str = "") -> Session:
        """Branch the session after a complete reply into a new worktree (see :meth:`fork`)."""
        def make(place: Place) -> Awaitable[Session]:
            return self._lifecycle.branch(session_id, after_message_id, place=place)
        return await self._beside(session_id, "branch", branch, existing, parent_folder, make)

    async def _beside(self, session_id: str, kind: str, branch: str, existing: bool | None,
                      parent_folder: str, make: Callable[[Place], Awaitable[Session]]) -> Session:
        """A new session made by ``make`` in a new worktree of the session's repository; the branch
        is named after it (``<title> fork``) unless ``branch`` names one."""
        source = await self._sessions.get_session(session_id)
        name = branch.strip() or repo.slug(f"{source.title} {kind}")
        async with self._new_worktree(self._folder_of(source), name, existing if branch.strip() else False,
                                      parent_folder, False) as place:
            return await make(place)

    @staticmethod
    def _folder_of(session: Session) -> str:
        if not session.workdir:
            raise InvalidOperation("This session has no folder, so there is no repository to make a "
                                   "worktree of.")
        return session.workdir

    @contextlib.asynccontextmanager
    async def _new_worktree(self, workdir: str, name: str, existing: bool | None, parent_folder: str,
                            allow_broad: bool) -> AsyncIterator[Place]:
        """Add the worktree and register its project; both are taken back when what the block
        makes in it (the session) fails."""
        path, created = await asyncio.to_thread(self._add, workdir, name, existing, parent_folder)
        project_id = ""
        try:
            top = await asyncio.to_thread(repo.linked, path)
            project = await self._projects.project_for(str(path), allow_broad=allow_broad)
            project_id = project.id
            shown = top.main.path.name if top else path.name
            await self._projects.rename_project(project.id, f"{shown} · {name}")
            yield Place(project.id, project.path)
        except BaseException:
            if project_id:
                await self._projects.delete_project(project_id)
            await asyncio.to_thread(self._undo_add, path, name if created else "")
            raise

    @staticmethod
    def _add(workdir: str, name: str, existing: bool | None, parent_folder: str) -> tuple[Path, bool]:
        """``git worktree add``; returns the folder and whether a branch was created."""
        folder = Path(workdir).expanduser()
        if not folder.is_dir():
            raise InvalidOperation(f"The folder {folder} does not exist.")
        top = repo.toplevel(folder)
        if top is None:
            raise InvalidOperation(f"The folder {folder} is not in a git repository, so there is no "
                                   "repository to make a worktree of.")
        if not repo.valid_branch_name(top, name):
            raise InvalidOperation(f"'{name}' cannot be a git branch name; choose another name.")
        programs = repository_programs(top)
        if programs:
            raise InvalidOperation(
                f"The repository's own config names programs git would run ({_few(sorted(programs))}); "
                "Foya runs none of those for its own git calls. Add the worktree yourself with "
                "'git worktree add' and start a session in it.")
        listed = repo.checkouts(top)
        found = repo.branch_exists(top, name)
        if found and existing is False:
            raise InvalidOperation(
                f"A branch named '{name}' already exists in {listed[0].path}. Pick it as the existing "
                "branch (--branch), or give the session another name.", code="branch_exists", branch=name)
        if not found and existing is True:
            raise InvalidOperation(f"There is no branch '{name}' in {listed[0].path}.")
        holder = next((c.path for c in listed if found and c.branch == name), None)
        if holder is not None:
            raise InvalidOperation(
                f"The branch '{name}' is already checked out in {holder}; git allows a branch in one "
                "worktree at a time. Pick another branch, or leave it out for a new one.")
        parent = Path(parent_folder).expanduser() if parent_folder else \
            listed[0].path.parent / f"{listed[0].path.name}{FOLDER_SUFFIX}"
        path = parent / name.replace("/", "-")
        if path.exists() or path.is_symlink():
            raise InvalidOperation(f"The folder {path} already exists; Foya does not put a worktree over "
                                   "it. Remove it, or choose another branch name.")
        parent.mkdir(parents=True, exist_ok=True)
        how = (str(path), name) if found else ("-b", name, str(path), "HEAD")
        done = run_git(top, "worktree", "add", *how)
        if not done.ok:
            raise InvalidOperation(f"git could not add the worktree {path}: {done.sentence()}.")
        return path.resolve(), not found

    @staticmethod
    def _undo_add(path: Path, new_branch: str) -> None:
        """Take back a worktree whose session could not be made (and the branch made for it)."""
        main = repo.linked(path)
        if main is None:
            return
        run_git(main.main.path, "worktree", "remove", "--force", str(path))
        if new_branch:
            run_git(main.main.path, "branch", "-D", new_branch)

    # ---- read -------------------------------------------------------------------------

    async def branches(self, folder: str) -> list[str] | None:
        """The local branches of the repository ``folder`` is in (``None``: not in one). The New
        session dialog offers its worktree checkbox only for a folder in a repository."""
        def read() -> list[str] | None:
            path = Path(folder).expanduser()
            top = repo.toplevel(path) if path.is_dir() else None
            if top is None:
                return None
            done = run_git(top, "for-each-ref", "--format=%(refname:short)", "refs/heads/")
            return sorted(done.out.split()) if done.ok else []
        return await asyncio.to_thread(read)


    async def status(self, session_id: str) -> WorktreeStatus:
        """The worktree session's branch, uncommitted files and commits ahead of/behind the base;
        ``InvalidOperation`` when the session is not in a worktree."""
        session = await self._sessions.get_session(session_id)
        found = await asyncio.to_thread(_status, session)
        if found is None:
            raise InvalidOperation(f"Session {session_id} is not in a git worktree.", code="not_a_worktree")
        return found

    async def statuses(self, sessions: Sequence[Session]) -> dict[str, WorktreeStatus]:
        """The status of every worktree session among ``sessions`` (the sidebar's markers)."""
        def read() -> dict[str, WorktreeStatus]:
            found = {s.id: _status(s) for s in sessions if s.workdir and s.parent_id is None}
            return {k: v for k, v in found.items() if v is not None}
        return await asyncio.to_thread(read)

    async def merge_preview(self, session_id: str) -> MergePreview:
        """The diff of the worktree's branch against the base since they parted (files, hunks)."""
        status = await self.status(session_id)

        def read() -> MergePreview:
            where, span = Path(status.path), f"{status.base}...{status.branch}"
            numstat = run_git(where, "diff", "--no-ext-diff", "--no-textconv", "--numstat", "-z", span)
            patch = run_git(where, "diff", "--no-ext-diff", "--no-textconv", "--no-color", span)
            return MergePreview(status, _numstat(numstat.out), patch.out[:PATCH_LIMIT],
                                len(patch.out) > PATCH_LIMIT)
        return await asyncio.to_thread(read)

    # ---- merge back -------------------------------------------------------------------

    async def merge_back(self, session_id: str, how: Literal["merge", "rebase"] = "merge") -> MergeResult:
        """Merge the worktree's branch into the base (in the repository's folder), or rebase it
        onto the base and fast-forward the base. Conflicts are listed and left for the person,
        never resolved: the merge (or rebase) stays in progress where it stopped."""
        status = await self.status(session_id)
        if not status.branch:
            raise InvalidOperation(f"The worktree {status.path} has no branch checked out (detached HEAD).")
        if not status.base:
            raise InvalidOperation(f"The repository folder {status.repository} has no branch checked out "
                                   "to merge into.")
        if status.changed:
            raise InvalidOperation(
                f"The worktree has {len(status.changed)} uncommitted file(s) ({_few(status.changed)}); "
                "a merge takes commits only. Commit them first (or remove them).",
                code="worktree_uncommitted")
        if status.ahead == 0:
            raise InvalidOperation(f"Nothing to merge: '{status.branch}' has no commit that "
                                   f"'{status.base}' lacks.")
        return await asyncio.to_thread(_merge if how == "merge" else _rebase, status)

    # ---- remove -----------------------------------------------------------------------

    async def remove(self, session_id: str, *, branch: bool = True, force: bool = False) -> list[str]:
        """Delete the worktree session with its worktree folder (and its branch when ``branch``).

        Work not in the base — uncommitted files, commits the base lacks — is refused unless
        ``force`` (the person's second confirmation). Other sessions bound to the worktree keep
        it. Returns the deleted session ids.
        """
        status = await self.status(session_id)
        session = await self._sessions.get_session(session_id)
        bound = await self._projects.project_sessions(session.project_id or "")
        others = [s for s in bound if s != session_id]
        if others:
            raise InvalidOperation(f"{len(others)} other session(s) work in this worktree; delete them "
                                   "first, or delete this session alone and keep the worktree.")
        if status.unmerged and not force:
            raise InvalidOperation(
                f"The worktree holds work that is not in '{status.base}': {_unmerged(status)}. "
                "Removing it loses that work; confirm a second time (--force) to remove it anyway.",
                code="worktree_unmerged", branch=status.branch, base=status.base,
                commits=status.ahead, files=len(status.changed))
        await asyncio.to_thread(_remove, status, branch, force)
        return await self._projects.delete_project(session.project_id or "")


def _status(session: Session) -> WorktreeStatus | None:
    found = repo.linked(Path(session.workdir)) if session.workdir else None
    if found is None:
        return None
    branch = repo.current_branch(found.path)
    base = found.main.branch
    ahead, behind = repo.ahead_behind(found.path, base, branch) if base and branch else (0, 0)
    return WorktreeStatus(session.id, str(found.path), str(found.main.path), branch, base,
                          tuple(repo.changed_files(found.path)), ahead, behind)


def _numstat(out: str) -> tuple[FileChange, ...]:
    """``git diff --numstat -z``: ``added TAB removed TAB path NUL``; a rename has an empty path
    followed by ``old NUL new NUL``."""
    fields = out.split("\0")
    files: list[FileChange] = []
    i = 0
    while i < len(fields):
        head = fields[i]
        i += 1
        if not head:
            continue
        added, removed, path = head.split("\t", 2)
        if not path:  # a rename: the old and the new name follow
            path = fields[i + 1]
            i += 2
        files.append(FileChange(path, _count(added), _count(removed)))
    return tuple(files)


def _merge(status: WorktreeStatus) -> MergeResult:
    """``git merge`` in the repository's folder, with the person's git as it is."""
    main = Path(status.repository)
    done = run_git(main, "merge", "--no-edit", status.branch, programs=True)
    if done.ok:
        return MergeResult(True, "merge", folder=str(main), output=done.out,
                           message=f"Merged '{status.branch}' into '{status.base}' in {main}.")
    return _stopped(done, main, status, "merge", f"The merge of '{status.branch}' into '{status.base}'",
                    "resolve them and commit, or run 'git merge --abort'")


def _stopped(done: GitResult, where: Path, status: WorktreeStatus, how: str, what: str,
             next_step: str) -> MergeResult:
    """A merge or rebase git did not finish: the conflicts it left (never resolved here), or
    ``InvalidOperation`` with git's words when it stopped for another reason."""
    conflicts = tuple(repo.conflicted(where))
    if not conflicts:
        raise InvalidOperation(f"git could not {how} '{status.branch}' ({status.base}): {done.sentence()}.")
    return MergeResult(False, how, conflicts, str(where), output=done.out, message=(
        f"{what} stopped with conflicts in {_few(conflicts)}. They are left for you in {where}: "
        f"{next_step}."))


def _rebase(status: WorktreeStatus) -> MergeResult:
    """``git rebase`` of the branch onto the base in the worktree, then a fast-forward of the base."""
    where, main = Path(status.path), Path(status.repository)
    done = run_git(where, "rebase", status.base, programs=True)
    if not done.ok:
        what = f"The rebase of '{status.branch}' onto '{status.base}'"
        return _stopped(done, where, status, "rebase", what,
                        "resolve them and run 'git rebase --continue', or 'git rebase --abort'")
    forward = run_git(main, "merge", "--ff-only", status.branch, programs=True)
    if not forward.ok:
        raise InvalidOperation(f"'{status.branch}' was rebased onto '{status.base}', but {main} could not "
                               f"fast-forward to it: {forward.sentence()}.")
    return MergeResult(True, "rebase", folder=str(main), output=done.out + forward.out,
                       message=f"Rebased '{status.branch}' onto '{status.base}' and moved "
                               f"'{status.base}' to it.")


def _remove(status: WorktreeStatus, branch: bool, force: bool) -> None:
    main = Path(status.repository)
    done = run_git(main, "worktree", "remove", *(("--force",) if force else ()), status.path)
    if not done.ok:
        raise InvalidOperation(f"git could not remove the worktree {status.path}: {done.sentence()}.")
    if branch and status.branch and status.branch != status.base:
        gone = run_git(main, "branch", "-D" if force else "-d", status.branch)
        if not gone.ok:
            raise InvalidOperation(f"The worktree was removed, but git kept the branch '{status.branch}': "
                                   f"{gone.sentence()}.")


def _count(figure: str) -> int:
    return -1 if figure == "-" else int(figure)


def _few(names: Sequence[str]) -> str:
    shown = ", ".join(names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _unmerged(status: WorktreeStatus) -> str:
    parts = []
    if status.ahead:
        parts.append(f"{status.ahead} commit(s) on '{status.branch}'")
    if status.changed:
        parts.append(f"{len(status.changed)} uncommitted file(s) ({_few(status.changed)})")
    return " and ".join(parts)
