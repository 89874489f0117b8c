"""Exec wrapper: give a command its own namespaces (and, with ``--spec``, confine it), then run it.

Usage: ``python -c BOOT --parent=PID [--spec=JSON] -- CMD…`` (see ``sandbox.wrap_argv``).

Three processes: this wrapper (dies with Foya through a parent-death signal
and turns SIGTERM into the end of the namespace), the namespace's first
process (mounts ``/proc``, reaps orphans, and when the command ends, ends
the namespace — the kernel then kills everything left in it), and the
command itself, confined by Landlock and seccomp when a spec is given. If any
confinement step fails the command is not run at all.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

from foya_desktop.tools import jail, repo_guard, seccomp
from foya_desktop.tools.sandbox import SandboxPolicy, restrict_self

CANNOT_CONFINE = 126


def _fail(message: str) -> int:
    print(f"sandbox_exec: {message}; not running the command", file=sys.stderr)
    return CANNOT_CONFINE


def _exit_code(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def _run_command(command: list[str], policy: SandboxPolicy | None) -> None:
    """In the namespace: confine (when asked) and become the command. Never returns."""
    try:
        if policy is not None:
            restrict_self(policy)
            seccomp.install()
        os.execv(command[0], command)  # noqa: S606 - becoming the command is the point
    except OSError as exc:
        print(f"sandbox_exec: cannot confine or start the command ({exc}); not running it",
              file=sys.stderr)
    os._exit(CANNOT_CONFINE)


def _namespace_init(command: list[str], policy: SandboxPolicy | None) -> None:
    """PID 1 of the namespace: start the command, reap orphans, end with it. Never returns."""
    try:
        jail.die_with_parent(signal.SIGKILL)
        jail.mount_proc()
    except OSError as exc:
        if policy is not None:
            print(f"sandbox_exec: {exc}; not running the command", file=sys.stderr)
            os._exit(CANNOT_CONFINE)
    child = os.fork()
    if child == 0:
        _run_command(command, policy)
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:  # pragma: no cover - the command is always our child
            os._exit(1)
        if pid == child:
            os._exit(_exit_code(status))  # ends the namespace: the kernel kills the rest


def main(argv: list[str]) -> int:
    """Parse, enter namespaces, start the namespace's first process, relay its exit code."""
    if "--" not in argv:
        print("sandbox_exec: missing -- before the command", file=sys.stderr)
        return 2
    split = argv.index("--")
    opts, command = argv[:split], argv[split + 1:]
    parent = next((int(o.split("=", 1)[1]) for o in opts if o.startswith("--parent=")), 0)
    spec = next((o.split("=", 1)[1] for o in opts if o.startswith("--spec=")), None)
    policy = SandboxPolicy.from_json(spec) if spec is not None else None
    try:
        jail.die_with_parent(signal.SIGKILL)
    except OSError as exc:
        return _fail(str(exc))
    if parent and os.getppid() != parent:
        return _fail("Foya ended before the command started")
    known: set[tuple[int, int]] = set()
    try:
        jail.enter_namespaces(network=policy is None or not policy.block_network)
        if policy is not None:
            jail.read_only_world(policy.writable, policy.read_only, policy.hidden)
            os.chdir(os.getcwd())  # the old working folder lies below the new mounts
            known = _repositories_before(policy)
    except OSError as exc:
        return _fail(str(exc))
    init = os.fork()
    if init == 0:
        _namespace_init(command, policy)

    def _end(signum: int, frame: FrameType | None) -> None:
        os.kill(init, signal.SIGKILL)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _end)
    _, status = os.waitpid(init, 0)  # returns once every process of the namespace has ended
    if policy is not None:
        _quarantine_new(policy, known)
    return _exit_code(status)


def _repositories_before(policy: SandboxPolicy) -> set[tuple[int, int]]:
    """Every repository in the project (the first writable place) before the command: made
    read-only (package folders the engine's scan skips included), remembered by identity."""
    found, complete = repo_guard.find_repositories(policy.writable[0])
    if not complete:
        raise OSError(f"the project has more than {repo_guard.MAX_ENTRIES} entries to check for git "
                      "repositories")
    jail.protect(p for p in found if p not in policy.read_only)
    return {i for p in found if (i := repo_guard.identity(p)) is not None}


def _quarantine_new(policy: SandboxPolicy, known: set[tuple[int, int]]) -> None:
    """Quarantine every repository the command created (see ``repo_guard``) and say so."""
    root = policy.writable[0]
    found, complete = repo_guard.find_repositories(root)
    for place in found:
        if repo_guard.identity(place) in known:
            continue
        shown = os.path.relpath(place, root)
        try:
            moved = repo_guard.quarantine(place)
        except OSError as exc:
            print(f"foya: this command created a git repository at {shown} and Foya could not "
                  f"quarantine it ({exc.strerror}); do not run git there before checking its config",
                  file=sys.stderr)
            continue
        print(f"foya: quarantined the git repository this command created at {shown} (renamed "
              f"{os.path.relpath(moved, root)}): a command that runs without your approval may not "
              "create repositories, whose config git would obey later. Ask for approval to create one.",
              file=sys.stderr)
    if not complete:
        print("foya: the project is too large to check for git repositories this command created",
              file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
