"""Where the data folder is: ``FOYA_HOME``, else the per-user data directory. On Linux the XDG rule
is applied directly (platformdirs' import would cost the window ~25 ms before its first paint,
issue 14); it must name exactly the folder platformdirs names, or people's data would seem gone."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest

from foya_desktop.store.home import APP_NAME, Home, default_home
from foya_desktop.store.restore import restore_newest_backup
from foya_desktop.store.schema import MetaRow
from foya_desktop.store.store import Store


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG rule is Linux's")
@pytest.mark.parametrize("xdg", [None, "", "   ", "/tmp/xdg-data-home"])
def test_the_linux_data_folder_is_the_one_platformdirs_names(xdg: str | None,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FOYA_HOME", raising=False)
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert default_home().root == Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def test_foya_home_moves_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "elsewhere"))
    assert default_home().root == (tmp_path / "elsewhere").resolve()


# ---- private files, whatever the umask ("Where data lives") ----------------------------------

def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def lax_umask() -> Iterator[None]:
    """The common default umask (022): files are made world-readable unless Foya says otherwise."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _foya(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``foya`` command on ``root``, under umask 022."""
    env = {**os.environ, "FOYA_HOME": str(root), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    return subprocess.run([sys.executable, "-m", "foya_desktop", *args], capture_output=True, text=True,
                          env=env, timeout=60, check=False, umask=0o022)


def test_a_pre_existing_data_folder_gets_private_files_and_a_log_line(tmp_path: Path) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    root.chmod(0o755)  # FOYA_HOME pointing at a folder the person made
    done = _foya(root, "connections", "add", "local", "--kind", "openai", "--base-url",
                 "http://127.0.0.1:9/v1", "--model", "m")
    assert done.returncode == 0, done.stderr
    assert _mode(root / "foya.sqlite3") == 0o600
    assert _mode(root / "logs" / "foya.log") == 0o600
    for folder in ("logs", "artifacts", "run"):
        assert _mode(root / folder) == 0o700, folder
    assert _mode(root) == 0o755  # the person's folder keeps its mode …
    log = (root / "logs" / "foya.log").read_text()
    assert f"The data folder {root} lets other users in (mode 0755)" in log  # … and the log says so


def test_a_data_folder_foya_creates_is_private(tmp_path: Path) -> None:
    root = tmp_path / "made-by-foya" / "data"
    done = _foya(root, "connections", "add", "local", "--kind", "openai", "--base-url",
                 "http://127.0.0.1:9/v1", "--model", "m")
    assert done.returncode == 0, done.stderr
    assert _mode(root) == 0o700 and _mode(root / "foya.sqlite3") == 0o600
    assert "lets other users in" not in (root / "logs" / "foya.log").read_text()


@pytest.mark.usefixtures("lax_umask")
async def test_the_wal_shm_backups_and_an_older_database_are_private(tmp_path: Path) -> None:
    """An older Foya's database (0644, under umask 022) in a folder others may read: opening it
    tightens it, and the -wal/-shm SQLite makes, the backup before the upgrade and a database
    restored from it are 0600 too."""
    fixtures = Path(__file__).parent / "fixtures"
    oldest = min((p for p in fixtures.glob("schema-*")), key=lambda p: int(p.name.removeprefix("schema-")))
    root = tmp_path / "shared"
    shutil.copytree(oldest, root)
    root.chmod(0o755)
    (root / "foya.sqlite3").chmod(0o644)
    home = Home(root)
    store = Store(home)
    try:
        await store.write(lambda: MetaRow.insert(key="probe", value="x").on_conflict_replace().execute())
        for own in ("foya.sqlite3", "foya.sqlite3-wal", "foya.sqlite3-shm"):
            assert _mode(root / own) == 0o600, own
    finally:
        await store.close()
    (backup,) = home.backups.glob("*.sqlite3")
    assert _mode(backup) == 0o600 and _mode(home.backups) == 0o700
    restored = restore_newest_backup(home)  # the backup put in the database's place
    assert restored.damaged_copy is not None and _mode(home.database) == 0o600
