"""Each confinement layer, attacked directly through ``start_process`` (issue 8, classes 2-7).

These run real commands in the real sandbox; the attack suite
(``test_attack_suite``) drives the same attacks through a model.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from foya_desktop.tools import exposure, git_safety, sandbox
from foya_desktop.tools.process import start_process
from foya_desktop.tools.sandbox import SandboxPolicy
from foya_desktop.tools.shell_policy import classify_command

needs_sandbox = pytest.mark.skipif(not sandbox.available(), reason=f"no sandbox: {sandbox.support()}")


@pytest.fixture
def world(tmp_path: Path) -> Path:
    """A project with a repository, a secret, a hard link to an outside file, and an outside folder."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text("OUTSIDE-CANARY\n")
    proj = tmp_path / "proj"
    proj.mkdir()
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / "nested" / ".git").mkdir(parents=True)
    (proj / ".env").write_text("TOKEN=ENV-CANARY-123456\n")
    (proj / "config.yaml").write_text("ok: 1\n")
    os.link(outside / "target.txt", proj / "linked.txt")
    return proj


def _policy(proj: Path, data: Path) -> SandboxPolicy:
    found = exposure.scan(proj, data)
    return SandboxPolicy(writable=(proj,), read_only=tuple(found.read_only), hidden=tuple(found.hidden))


async def _run(command: str, proj: Path, policy: SandboxPolicy | None, timeout: float = 30) -> tuple[int, str]:
    handle = await start_process(command, proj, {"PATH": "/usr/bin:/bin"}, tail=64 * 1024, sandbox=policy)
    try:
        async with asyncio.timeout(timeout):
            code = await handle.wait()
    except TimeoutError:
        await handle.cancel()
        return -1, handle.tail()
    return code, handle.tail()


@needs_sandbox
async def test_git_folders_are_read_only(world: Path, tmp_path: Path) -> None:
    """Class 2: no hook, no config written into the project's or a nested .git."""
    _code, out = await _run("echo evil > .git/hooks/post-checkout; git config core.fsmonitor evil; "
                           "echo x > nested/.git/config; echo ok > fine.txt", world,
                           _policy(world, tmp_path / "data"))
    assert not (world / ".git" / "hooks" / "post-checkout").exists()
    assert "evil" not in (world / ".git" / "config").read_text()
    assert not (world / "nested" / ".git" / "config").exists()
    assert (world / "fine.txt").read_text() == "ok\n", out


@needs_sandbox
async def test_data_folder_secret_and_hard_link_unreadable(world: Path, tmp_path: Path) -> None:
    """Classes 3, 5, 6: the data folder is hidden, secret files and hard links read as empty."""
    data = world / "foya-data"
    data.mkdir()
    (data / "foya.db").write_text("DB-CANARY")
    _code, out = await _run("cat foya-data/foya.db; base64 .en?; od -c .env; cat linked.txt; "
                           "echo x > foya-data/new", world, _policy(world, data))
    for canary in ("DB-CANARY", "ENV-CANARY", "RU5WLUNBTkFSWS", "OUTSIDE-CANARY"):
        assert canary not in out
    assert not (data / "new").exists()
    assert (tmp_path / "outside" / "target.txt").read_text() == "OUTSIDE-CANARY\n"


@pytest.fixture
def listeners(tmp_path: Path) -> Iterator[tuple[socket.socket, socket.socket, socket.socket, str]]:
    """A TCP, a UDP and a unix-socket listener outside the project."""
    tcp = socket.create_server(("127.0.0.1", 0))
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    path = str(tmp_path / "bus.sock")
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(path)
    unix.listen()
    for s in (tcp, udp, unix):
        s.setblocking(False)
    yield tcp, udp, unix, path
    for s in (tcp, udp, unix):
        s.close()


def _received(tcp: socket.socket, udp: socket.socket, unix: socket.socket) -> list[str]:
    got: list[str] = []
    for name, s in (("tcp", tcp), ("unix", unix)):
        try:
            conn, _ = s.accept()
            conn.close()
            got.append(name)
        except BlockingIOError:
            pass
    try:
        udp.recv(100)
        got.append("udp")
    except BlockingIOError:
        pass
    return got


@needs_sandbox
async def test_no_network_of_any_kind(world: Path, tmp_path: Path,
                                      listeners: tuple[socket.socket, socket.socket, socket.socket, str]) -> None:
    """Class 4: TCP, UDP and unix sockets outside the project reach nothing."""
    tcp, udp, unix, path = listeners
    t_port, u_port = tcp.getsockname()[1], udp.getsockname()[1]
    script = (f"import socket\n"
              f"for f in [lambda: socket.create_connection(('127.0.0.1', {t_port}), 2),\n"
              f"          lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', {u_port})),\n"
              f"          lambda: socket.socket(socket.AF_UNIX).connect({path!r})]:\n"
              f"    try: f(); print('SENT')\n"
              f"    except OSError as e: print('blocked', e)\n")
    (world / "net.py").write_text(script)
    _, out = await _run("python3 net.py", world, _policy(world, tmp_path / "data"))
    assert "SENT" not in out, out
    assert _received(tcp, udp, unix) == []
    # the same command unconfined does reach them (the test can fail)
    _code, out = await _run("python3 net.py", world, None)
    assert _received(tcp, udp, unix) == ["tcp", "unix", "udp"]


@needs_sandbox
async def test_metadata_devices_and_foya_environment(world: Path, tmp_path: Path) -> None:
    """Class 4: chmod/utime outside, /dev/shm and disks, Foya's /proc/PID/environ."""
    target = tmp_path / "outside" / "target.txt"
    before = os.stat(target)
    shm = Path("/dev/shm") / f"foya-test-{os.getpid()}"
    _code, out = await _run(f"chmod 777 {target}; touch -d 2001-01-01 {target}; echo x > {shm}; "
                           f"cat /proc/{os.getpid()}/environ; ls /proc | grep -c '^[0-9]'; "
                           "head -c 10 /dev/vda /dev/sda 2>&1 | od -c | head -2",
                           world, _policy(world, tmp_path / "data"))
    after = os.stat(target)
    assert (after.st_mode, after.st_mtime_ns) == (before.st_mode, before.st_mtime_ns)
    assert not shm.exists()
    assert "PATH=" not in out
    assert "\\0" not in out.split("\n")[-3:]  # no raw disk bytes


@needs_sandbox
async def test_setsid_and_double_fork_die_with_the_command(world: Path, tmp_path: Path) -> None:
    """Class 7: a daemon started with setsid / a double fork does not outlive its command."""
    marker = tmp_path / "alive"
    for policy in (_policy(world, tmp_path / "data"), None):
        _code, out = await _run(f"(setsid sh -c 'sleep 1; echo alive > {marker}' &) ; "
                               f"( ( sleep 1.5; echo alive >> {marker} ) & ) ; echo started", world, policy)
        assert "started" in out
    time.sleep(2.5)
    assert not marker.exists()


@needs_sandbox
async def test_timeout_kills_a_setsid_child(world: Path, tmp_path: Path) -> None:
    """Class 7: cancelling (timeout, stop) ends every process of the command."""
    marker = tmp_path / "late"
    code, _ = await _run(f"setsid sh -c 'sleep 2; echo late > {marker}' & sleep 30", world, None, timeout=1)
    assert code == -1
    time.sleep(2.5)
    assert not marker.exists()


def test_unasked_git_runs_no_repository_program(tmp_path: Path) -> None:
    """Class 1: fsmonitor, pagers, hooks in the repo and a bare-repo-shaped subfolder run nothing."""
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil.sh"
    evil.write_text(f"#!/bin/sh\necho pwned >> {marker}\n")
    evil.chmod(0o755)
    proj = tmp_path / "proj"
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    (proj / "a.txt").write_text("a\n")
    subprocess.run(["git", "-C", str(proj), "add", "a.txt"], check=True)
    for key in ("core.fsmonitor", "core.pager", "core.hooksPath", "gpg.program"):
        subprocess.run(["git", "-C", str(proj), "config", key, str(evil)], check=True)
    fixtures = proj / "fixtures"
    (fixtures / "objects").mkdir(parents=True)
    (fixtures / "refs").mkdir()
    (fixtures / "HEAD").write_text("ref: refs/heads/main\n")
    (fixtures / "config").write_text("[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
                                     f"\tworktree = ..\n\tfsmonitor = {evil}\n")
    # a folder laid out like a repository is git internals: entering it asks (and git stays pinned)
    assert classify_command("cd fixtures && git status", proj).decision == "ask"
    for command in ("git status", "cd fixtures && git status", "git diff", "git log -p", "git show"):
        if command != "cd fixtures && git status":
            assert classify_command(command, proj).decision == "allow", command
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **git_safety.safe_env(proj)}
        subprocess.run(["bash", "-c", command], cwd=proj, env=env, capture_output=True, check=False)
    assert not marker.exists()
    subprocess.run(["bash", "-c", "cd fixtures && git status"], cwd=proj, capture_output=True, check=False,
                   env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert marker.exists(), "without the safe environment the attack works (the test can fail)"


def test_repository_drivers_and_missing_repository_ask(tmp_path: Path) -> None:
    """Class 1: program settings that cannot be overridden make git ask; so does a project
    that is not the top of a repository."""
    proj = tmp_path / "proj"
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    assert classify_command("git diff", proj).decision == "allow"
    for key in ("diff.x.textconv", "filter.y.clean", "diff.external"):
        subprocess.run(["git", "-C", str(proj), "config", key, "cat"], check=True)
        verdict = classify_command("git diff", proj)
        assert verdict.decision == "ask" and key in verdict.reason
        subprocess.run(["git", "-C", str(proj), "config", "--unset", key], check=True)
    plain = tmp_path / "plain"
    plain.mkdir()
    assert classify_command("git status", plain).decision == "ask"


def test_support_check_matches_a_real_probe() -> None:
    """The cheap support check (used by the approval policy) agrees with running the wrapper."""
    lifetime, confined = sandbox.probe()
    assert (sandbox.lifetime_support() is None) == (lifetime is None), lifetime
    assert (sandbox.support() is None) == (confined is None), confined


@pytest.mark.parametrize("command", ["git commit -m wip", "git init sub", "git config core.fsmonitor ./x",
                                     "git -C sub config alias.st '!sh evil'", "git checkout -b topic",
                                     "git add -A", "git stash"])
def test_git_commands_that_may_change_dot_git_ask_in_every_mode(tmp_path: Path, command: str) -> None:
    """Class 2: a command that would write .git asks — also in auto mode, where it would otherwise
    run confined (and fail on the read-only .git). Read-only mode refuses it; once the person
    allows it, it runs as allowed (a grant for the exact command)."""
    from foya_desktop.core.model import ApprovalMode
    from foya_desktop.engine.permissions.policy import decide, grant_key
    from foya_desktop.tools.base import ToolContext
    from foya_desktop.tools.shell import RunCommandTool

    proj = tmp_path / "proj"
    subprocess.run(["git", "init", "-q", str(proj)], check=True)
    ctx = ToolContext("ses_x", proj, tmp_path / "data")
    action = RunCommandTool().plan({"command": command}, ctx)
    assert action.outside and ".git" in action.policy_reason
    for mode in (ApprovalMode.ASK, ApprovalMode.AUTO_EDIT, ApprovalMode.AUTO):
        assert decide(action, mode, proj, set()).decision == "ask", (command, mode)
    assert decide(action, ApprovalMode.READ_ONLY, proj, set()).decision == "deny"
    key = grant_key(action, proj)
    if key is not None:  # a simple command: "allow for this session" covers exactly it
        assert decide(action, ApprovalMode.AUTO, proj, {key}).decision == "allow"
    # plain reads stay unasked
    for read in ("git status", "git log -1", "git diff"):
        assert RunCommandTool().plan({"command": read}, ctx).auto_allow, read
