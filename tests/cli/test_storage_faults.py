"""Storage and environment faults through the real ``foya`` entry point: one plain sentence,
a distinct exit code, no traceback, and the data never written to (issue 14).

Read-only folders and a full disk are real: a read-only bind mount and a tiny tmpfs in a
private mount namespace (``unshare -m``), skipped where the machine does not allow it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_cli import add_fake, foya
from tests.fakeprovider import FakeProviderServer, Reply

EXIT_LOCKED, EXIT_FULL, EXIT_READ_ONLY, EXIT_CORRUPT, EXIT_SCHEMA = 11, 12, 13, 14, 15


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    return env


def _plain(out: subprocess.CompletedProcess[str], code: int) -> str:
    assert out.returncode == code, (out.returncode, out.stderr)
    assert "Traceback" not in out.stderr and "Traceback" not in out.stdout
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("foya: error:")]
    assert len(lines) == 1, out.stderr
    return lines[0]


def _make(home: Path, server: FakeProviderServer) -> str:
    """Fill ``home`` with one session of one turn ("hello" → "stored reply"); its id."""
    proj = home.parent / "proj"
    proj.mkdir(exist_ok=True)
    add_fake(home, server)
    server.script(Reply(text="stored reply"))
    ran = foya(home, "run", "--project", str(proj), "hello")
    assert ran.returncode == 0, ran.stderr
    return ran.stderr.split("Session ", 1)[1].split()[0]


@pytest.fixture
def made_session(tmp_path: Path) -> tuple[Path, str]:
    """A data folder with a real database holding one session, and that session's id."""
    home = tmp_path / "home"
    with FakeProviderServer() as server:
        return home, _make(home, server)


@pytest.fixture
def made(made_session: tuple[Path, str]) -> Path:
    """A data folder with a real database holding one session."""
    return made_session[0]


@pytest.fixture
def session(made_session: tuple[Path, str]) -> str:
    """The id of the one session in ``made``."""
    return made_session[1]


READING_COMMANDS: tuple[Callable[[Path, str], tuple[str, ...]], ...] = (
    lambda home, session: ("projects", "list"),
    lambda home, session: ("projects", "info", str(home.parent / "proj")),
    lambda home, session: ("connections", "list"),
    lambda home, session: ("vps", "list"),
    lambda home, session: ("mcp", "list", str(home.parent / "proj")),
    lambda home, session: ("sessions", "show", session),
    lambda home, session: ("sessions", "show", session, "--json"),
    lambda home, session: ("sessions", "export", session),
    lambda home, session: ("sessions", "export", session, "--format", "json"),
    lambda home, session: ("sessions", "status", session),
    lambda home, session: ("sessions", "debug", session),
    lambda home, session: ("usage",),
    lambda home, session: ("usage", "--session", session),
    lambda home, session: ("search", "hello"),
    lambda home, session: ("memory", "list"),
)
"""Commands that only read (docs/data.md "Two processes, one database"): they must work beside a writer
holding the lock and on a read-only folder. ``sessions status|debug`` and ``usage`` opened a writing
store (a lease, the write lock) and waited 10 s, then failed, beside a writer or on a read-only
folder."""


def _db(home: Path) -> Path:
    return home / "foya.sqlite3"


def _checkpoint(home: Path) -> None:
    con = sqlite3.connect(_db(home))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


def _page(data: bytes) -> int:
    """The page size the header records (1 means 65536, SQLite's encoding)."""
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size


def _corrupt_page(data: bytes) -> bytes:
    page = _page(data)
    middle = (len(data) // page // 2) * page
    return data[:middle] + b"\xff" * page + data[middle + page:]


CORRUPTIONS: dict[str, Callable[[bytes], bytes]] = {
    "garbage-header": lambda d: b"this is not sqlite" + d[18:],
    "truncated-half": lambda d: d[: len(d) // 2],
    "page-overwritten": _corrupt_page,
    "header-zeroed": lambda d: b"\0" * 100 + d[100:],
    "random-tail": lambda d: d[:4096] + os.urandom(len(d) - 4096),
    "last-page-cut": lambda d: d[: len(d) - _page(d)],
    "page-size-invalid": lambda d: d[:16] + b"\x00\x03" + d[18:],
    "schema-page-garbled": lambda d: d[:100] + os.urandom(_page(d) - 100) + d[_page(d):],
    "one-page-left": lambda d: d[: _page(d)],
}


@pytest.mark.parametrize("variant", sorted(CORRUPTIONS))
def test_a_corrupt_database_is_never_written_and_a_repair_is_offered(made: Path, variant: str) -> None:
    _checkpoint(made)
    damaged = CORRUPTIONS[variant](_db(made).read_bytes())
    _db(made).write_bytes(damaged)
    for args in (("sessions", "list"), ("run", "hello")):
        line = _plain(foya(made, *args), EXIT_CORRUPT)
        assert "Foya did not write to it" in line and ".recover" in line
    assert _db(made).read_bytes() == damaged


def test_a_zero_length_database_is_not_replaced(made: Path) -> None:
    _checkpoint(made)
    _db(made).write_bytes(b"")
    (made / "foya.sqlite3-wal").unlink(missing_ok=True)
    line = _plain(foya(made, "sessions", "list"), EXIT_CORRUPT)
    assert "is empty (0 bytes" in line
    _plain(foya(made, "run", "hi"), EXIT_CORRUPT)
    assert _db(made).stat().st_size == 0


def test_a_sqlite_file_of_another_program_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    con = sqlite3.connect(home / "foya.sqlite3")
    con.execute("CREATE TABLE photos(id INTEGER PRIMARY KEY)")
    con.commit()
    con.close()
    before = (home / "foya.sqlite3").read_bytes()
    line = _plain(foya(home, "connections", "list"), EXIT_CORRUPT)
    assert "not a Foya database" in line
    assert (home / "foya.sqlite3").read_bytes() == before


@pytest.mark.parametrize("version", ["0", "-1", "abc", "99999"])
def test_a_bad_schema_version_is_refused_without_backups(made: Path, version: str) -> None:
    con = sqlite3.connect(_db(made))
    con.execute("UPDATE meta_row SET value=? WHERE key='schema_version'", (version,))
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    before = _db(made).read_bytes()
    for _ in range(2):
        line = _plain(foya(made, "run", "hi"), EXIT_SCHEMA)
        assert ("no Foya ever wrote" in line) or ("newer version of Foya" in line)
        _plain(foya(made, "sessions", "list"), EXIT_SCHEMA)
    assert _db(made).read_bytes() == before
    assert not list((made / "backups").glob("*")) if (made / "backups").exists() else True


def test_a_failing_upgrade_keeps_one_backup(made: Path) -> None:
    """An old database whose upgrade fails: a sentence each time, and one backup, not one per try."""
    con = sqlite3.connect(_db(made))
    con.execute("UPDATE meta_row SET value='1' WHERE key='schema_version'")
    con.execute("DROP TABLE task_row")
    con.execute("CREATE VIEW task_row AS SELECT 1 AS id")  # the upgrade cannot alter a view
    con.commit()
    con.close()
    for _ in range(3):
        line = _plain(foya(made, "connections", "list"), 16)
        assert "could not be upgraded" in line and "was not changed" in line
        assert "Error" not in line and "indexed" not in line  # SQLite's own words are for the log
    assert "views may not be indexed" in (made / "logs" / "foya.log").read_text()
    (backup,) = (made / "backups").iterdir()
    assert backup.name.startswith("foya-schema1-") and backup.suffix == ".sqlite3"


def _integrity(home: Path) -> str:
    con = sqlite3.connect(_db(home))
    try:
        return str(con.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        con.close()


def _texts(shown: subprocess.CompletedProcess[str]) -> list[tuple[str, str]]:
    """``(role, text)`` of each message ``foya sessions show --json`` printed (its exit code checked)."""
    assert shown.returncode == 0, shown.stderr
    return [(m["role"], "".join(p.get("text", "") for p in m["parts"]))
            for m in json.loads(shown.stdout)["messages"]]


def _shown_texts(home: Path, session: str) -> list[tuple[str, str]]:
    return _texts(foya(home, "sessions", "show", session, "--json"))


def test_a_database_locked_longer_than_the_busy_timeout(made: Path, session: str) -> None:
    """Reading commands never wait for the write lock; a writer gives up with a sentence — and once
    the lock is gone, what was stored is all there and the refused change was not half made."""
    before = _shown_texts(made, session)
    assert before == [("user", "hello"), ("assistant", "stored reply")]
    holder = sqlite3.connect(_db(made), timeout=1, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        listed = foya(made, "sessions", "list")  # reading never waits for the write lock
        assert listed.returncode == 0, listed.stderr
        for reading in READING_COMMANDS:
            out = foya(made, *reading(made, session), timeout=60)
            assert out.returncode == 0 and "Traceback" not in out.stderr, (reading(made, session), out.stderr)
        line = _plain(foya(made, "connections", "remove", "fake", timeout=120), EXIT_LOCKED)
        assert "locked by another program" in line
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _shown_texts(made, session) == before
    listed = foya(made, "connections", "list", "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout)[0]["name"] == "fake", listed  # not removed
    assert _integrity(made) == "ok"
    assert foya(made, "connections", "remove", "fake").returncode == 0  # writing works again


def _in_namespace(script: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _namespaced(script, home, sys.executable, "-m", "foya_desktop", *args)


def _namespaced(script: str, home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``script`` (the mounts), then ``argv``, in a private mount namespace with FOYA_HOME=home."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not available")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("this machine does not allow private mount namespaces")
    cmd = ["unshare", "-m", "sh", "-c", script + ' && exec "$@"', "sh", *argv]
    return subprocess.run(cmd, capture_output=True, text=True, env=_env(home), timeout=120, check=False)


def test_a_read_only_data_folder_still_reads(made: Path, session: str) -> None:
    ro = f"mount --bind {made} {made} && mount -o remount,bind,ro {made}"
    listed = _in_namespace(ro, made, "sessions", "list")
    assert listed.returncode == 0, listed.stderr
    assert "hello" in listed.stdout and "Traceback" not in listed.stderr
    for reading in READING_COMMANDS:
        out = _in_namespace(ro, made, *reading(made, session))
        assert out.returncode == 0 and "Traceback" not in out.stderr, (reading(made, session), out.stderr)
    line = _plain(_in_namespace(ro, made, "run", "hi"), EXIT_READ_ONLY)
    assert "read-only" in line
    assert line.endswith("Reading commands like 'foya sessions list' still work.")  # the terminal's hint


def test_an_immutable_database_file(made: Path) -> None:
    _checkpoint(made)
    if subprocess.run(["chattr", "+i", str(_db(made))], capture_output=True, check=False).returncode != 0:
        pytest.skip("chattr +i is not possible here")
    try:
        line = _plain(foya(made, "connections", "remove", "fake"), EXIT_READ_ONLY)
        assert "cannot write" in line
        assert foya(made, "sessions", "list").returncode == 0
    finally:
        subprocess.run(["chattr", "-i", str(_db(made))], check=False)


def test_a_full_disk(tmp_path: Path) -> None:
    home = tmp_path / "tiny"
    home.mkdir()
    fill = (f"mount -t tmpfs -o size=400k tmpfs {home} && "
            f"{sys.executable} -m foya_desktop connections add a --kind openai --base-url http://127.0.0.1:9/v1 && "
            f"(dd if=/dev/zero of={home}/filler bs=4k 2>/dev/null; true)")
    out = _in_namespace(fill, home, "connections", "add", "b", "--kind", "openai",
                        "--base-url", "http://127.0.0.1:9/v1", "--model", "x" * 20_000)
    line = _plain(out, EXIT_FULL)
    assert "full" in line


def _recorded(out: Path, step: str) -> subprocess.CompletedProcess[str]:
    """A command the namespace's script ran, from the files it left in ``out``."""
    return subprocess.CompletedProcess(step, int((out / f"{step}.rc").read_text()),
                                       (out / f"{step}.out").read_text(), (out / f"{step}.err").read_text())


def test_a_disk_filling_up_during_a_turn(tmp_path: Path) -> None:
    """The turn starts (the open fits in the room left) and its reply does not fit: one sentence,
    exit 12 — and the earlier turn is still there and readable on the full disk, the file is whole,
    and once there is room the next turn works, as the sentence promises ("nothing was lost").

    Everything runs inside the namespace: outside it, the tmpfs and what is on it are gone; the
    database is copied out (with its WAL) for the integrity check."""
    home, tiny, out = tmp_path / "home", tmp_path / "tiny", tmp_path / "out"
    tiny.mkdir()
    (out / "copy").mkdir(parents=True)
    with FakeProviderServer() as server:
        session = _make(home, server)
        server.script(Reply(text="y" * 2_000_000, chunk_size=16_384), Reply(text="after making room"))
        cli = f"{shlex.quote(sys.executable)} -m foya_desktop"

        def step(name: str, args: str) -> str:  # a hung command is killed (exit 137), not waited on
            return (f"timeout -s KILL 30 {cli} {args} >{out}/{name}.out 2>{out}/{name}.err; "
                    f"echo $? >{out}/{name}.rc; ")

        script = (f"mount -t tmpfs -o size=6m tmpfs {tiny} && cp -a {home}/. {tiny}/ && "
                  f"(dd if=/dev/zero of={tiny}/filler bs=4k 2>/dev/null; true) && "
                  f"truncate -s -512K {tiny}/filler && {{ "
                  + step("run", f"run --session {session} 'a second turn'")
                  + step("show", f"sessions show {session} --json")
                  + f"cp {tiny}/foya.sqlite3* {out}/copy/; rm {tiny}/filler; "
                  + step("again", f"run --session {session} 'after making room'")
                  + "}; false")
        done = _namespaced(script, tiny, "true")
        assert "Traceback" not in done.stderr, done.stderr
        requests = len(server.requests)
    line = _plain(_recorded(out, "run"), EXIT_FULL)
    assert "is full" in line and "what was saved before is intact" in line
    assert requests == 3  # the earlier turn, the one the disk ran out under, and the one after
    shown = _recorded(out, "show")  # on the disk still full: reading needs no room
    texts = _texts(shown)
    assert texts[:2] == [("user", "hello"), ("assistant", "stored reply")], texts
    con = sqlite3.connect(out / "copy" / "foya.sqlite3")
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    again = _recorded(out, "again")
    assert again.returncode == 0 and "after making room" in again.stdout, again.stderr


_LOG_PROBE = ("import logging, sys\n"
              "from foya_desktop.cli.main import main\n"
              "code = main(['sessions', 'list'])\n"
              "logging.getLogger('foya_desktop.probe').warning('a warning after the listing')\n"
              "logging.getLogger('foya_desktop.probe').info('an info line after the listing')\n"
              "sys.exit(code)\n")
"""The real ``foya sessions list`` (its own logging set-up), then one warning and one info line
through the logging it set up: where they land is what a person sees of Foya's log."""


def test_on_a_read_only_data_folder_the_log_goes_to_stderr(made: Path) -> None:
    """The log file cannot be opened: warnings go to stderr in the log's format (so a problem is
    still seen), info lines are dropped (a reading command's output stays clean), and the old log
    is left as it was. On a writable folder the same lines go to the file, not to stderr."""
    log = made / "logs" / "foya.log"
    writable = subprocess.run([sys.executable, "-c", _LOG_PROBE], capture_output=True, text=True,
                              env=_env(made), timeout=60, check=False)
    assert writable.returncode == 0 and "a warning after" not in writable.stderr, writable.stderr
    assert "WARNING foya_desktop.probe: a warning after the listing" in log.read_text()
    before = log.read_bytes()
    ro = f"mount --bind {made} {made} && mount -o remount,bind,ro {made}"
    out = _namespaced(ro, made, sys.executable, "-c", _LOG_PROBE)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "hello" in out.stdout  # the listing itself worked
    assert [ln.split(" ", 2)[2] for ln in out.stderr.splitlines()] == [
        "WARNING foya_desktop.probe: a warning after the listing"]  # after the time stamp
    assert log.read_bytes() == before


def test_the_corrupt_sentence_names_the_newest_backup(made: Path) -> None:
    """Two backups: the sentence names the newer (by time), the one a person should restore."""
    _checkpoint(made)
    backups = made / "backups"
    backups.mkdir()
    older = backups / "foya-schema5-1764000000000.sqlite3"
    newer = backups / "foya-schema6-1765000000000.sqlite3"
    for copy in (newer, older):  # the newer made first: the order they were written is not the answer
        shutil.copy(_db(made), copy)
    os.utime(older, (1_764_000_000, 1_764_000_000))
    os.utime(newer, (1_765_000_000, 1_765_000_000))
    kept = {p: p.read_bytes() for p in (older, newer)}
    damaged = CORRUPTIONS["garbage-header"](_db(made).read_bytes())
    _db(made).write_bytes(damaged)
    for args in (("sessions", "list"), ("run", "hello")):
        line = _plain(foya(made, *args), EXIT_CORRUPT)
        assert f"restore the newest backup ({newer}) with `foya restore-backup`" in line, line
        assert str(older) not in line
    assert _db(made).read_bytes() == damaged
    assert {p: p.read_bytes() for p in backups.iterdir()} == kept


def test_a_disk_too_full_to_create_the_database_leaves_no_file(tmp_path: Path) -> None:
    """The new database is made under another name and linked into place whole, so a disk that
    fills up while it is made leaves no half-made file for the next start to refuse as damaged."""
    home = tmp_path / "tiny"
    home.mkdir()
    # the listing runs inside the namespace: outside it, the tmpfs (and what is on it) is gone
    out = _in_namespace(f"mount -t tmpfs -o size=200k tmpfs {home} && "
                        f"{sys.executable} -m foya_desktop connections add a --kind openai "
                        f"--base-url http://127.0.0.1:9/v1; echo \"exit $?\"; ls -A {home}; false",
                        home, "--version")
    assert "Traceback" not in out.stderr
    assert "is full" in out.stderr and "exit 12" in out.stdout, out
    assert "sqlite3" not in out.stdout and "creating" not in out.stdout, out.stdout


def test_an_empty_read_only_data_folder_says_so(tmp_path: Path) -> None:
    """Nothing to read and nothing can be made: a listing says the database cannot be created
    (not that reading commands still work), a run says the folder is read-only — not an internal
    error from making the artifacts folder."""
    home = tmp_path / "empty"
    home.mkdir()
    ro = f"mount --bind {home} {home} && mount -o remount,bind,ro {home}"
    listed = _plain(_in_namespace(ro, home, "sessions", "list"), EXIT_READ_ONLY)
    assert "cannot create its database" in listed and ".creating" not in listed
    ran = _plain(_in_namespace(ro, home, "run", "hi"), EXIT_READ_ONLY)
    assert "read-only" in ran
    assert not list(home.iterdir())


WRONG_KINDS: dict[str, Callable[[Path], Path]] = {
    # what is put where the data belongs, and the place named in the sentence
    "folder-at-the-database": lambda home: _made(home / "foya.sqlite3", folder=True),
    "pipe-at-the-database": lambda home: _fifo(home / "foya.sqlite3"),
    "file-at-the-data-folder": lambda home: _made(home, folder=False),
    "file-above-the-data-folder": lambda home: _made(home.parent, folder=False),
}


def _made(place: Path, *, folder: bool) -> Path:
    """A folder holding a file of the person's, or a file, at ``place``."""
    if folder:
        place.mkdir(parents=True)
        (place / "mine.txt").write_text("keep me")
    else:
        if place.is_dir():
            shutil.rmtree(place)
        place.parent.mkdir(parents=True, exist_ok=True)
        place.write_text("keep me")
    return place


def _fifo(place: Path) -> Path:
    place.parent.mkdir(parents=True)
    os.mkfifo(place)
    return place


def _snapshot(place: Path) -> list[tuple[str, bytes]]:
    if place.is_dir():
        return sorted((str(p.relative_to(place)), p.read_bytes()) for p in place.rglob("*") if p.is_file())
    return [("", b"" if not place.is_file() else place.read_bytes())]


@pytest.mark.parametrize("kind", sorted(WRONG_KINDS))
def test_the_wrong_kind_of_file_where_the_data_belongs_is_named(tmp_path: Path, kind: str) -> None:
    """A folder at the database's path was "the disk is full" (exit 12): SQLite calls it a disk
    I/O error. Every command now names what is there, exits 13 and leaves it as it was."""
    home = tmp_path / "parent" / "home"
    place = WRONG_KINDS[kind](home)
    before = _snapshot(place)
    for command in (("sessions", "list"), ("run", "hello"), ("connections", "list")):
        line = _plain(foya(home, *command), EXIT_READ_ONLY)
        assert str(place) in line and "not a" in line and "move it away" in line, line
        assert "full" not in line and "read-only" not in line and "reading commands" not in line.lower()
    assert _snapshot(place) == before


def test_moving_the_folder_away_from_the_database_path_lets_foya_start(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "foya.sqlite3").mkdir(parents=True)
    line = _plain(foya(home, "sessions", "list"), EXIT_READ_ONLY)
    assert f"The database path {home / 'foya.sqlite3'} is a folder, not a file" in line
    (home / "foya.sqlite3").rename(home / "moved-away")
    listed = foya(home, "sessions", "list")
    assert listed.returncode == 0 and (home / "foya.sqlite3").is_file(), listed.stderr
