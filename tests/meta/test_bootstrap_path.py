"""After ``bootstrap.py``, ``foya`` runs by name when the person agrees: a link in ``~/.local/bin``
(and a sentence saying whether that folder is on the PATH), else the one line that does it is
printed — which is then run here to prove it works. Each test has its own HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bootstrap

FOYA = Path(sys.executable).parent / "foya"  # this venv's console script, as bootstrap's .venv has it


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return tmp_path


def _foya_by_name(home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "PATH": f"{home / '.local' / 'bin'}:/usr/bin:/bin"}
    return subprocess.run(["foya", "--version"], capture_output=True, text=True, env=env, timeout=60, check=False)


def test_agreeing_links_foya_and_says_the_folder_is_not_on_path(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bootstrap.offer_path_link(FOYA, True) is False  # linked, but not runnable by name in this shell
    out = capsys.readouterr().out
    link = home / ".local" / "bin" / "foya"
    assert os.readlink(link) == str(FOYA)
    assert "is not on this shell's PATH" in out and 'export PATH="$HOME/.local/bin:$PATH"' in out
    assert "add that line to ~/.profile" in out  # no ~/.profile here that would add it
    assert _foya_by_name(home).stdout.startswith("foya ")  # the README's `foya ...` once it is on PATH


def test_with_the_folder_on_path_foya_works_now(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", f"{home / '.local' / 'bin'}:/usr/bin:/bin")
    (home / ".profile").write_text('PATH="$HOME/.local/bin:$PATH"\n', encoding="utf-8")
    assert bootstrap.offer_path_link(FOYA, True) is True
    assert "is on your PATH, so `foya` works now" in capsys.readouterr().out
    assert bootstrap.offer_path_link(FOYA, True) is True  # a second run keeps the link
    assert "already links to" in capsys.readouterr().out


def test_the_next_login_adds_it_when_profile_does(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / ".profile").write_text('if [ -d "$HOME/.local/bin" ] ; then PATH="$HOME/.local/bin:$PATH"; fi\n',
                                   encoding="utf-8")
    bootstrap.offer_path_link(FOYA, True)
    out = capsys.readouterr().out
    assert "(your ~/.profile adds it at your next login)" in out and "add that line" not in out


def test_someone_elses_foya_is_left_alone(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = home / ".local" / "bin" / "foya"
    other.parent.mkdir(parents=True)
    other.write_text("#!/bin/sh\necho mine\n", encoding="utf-8")
    assert bootstrap.offer_path_link(FOYA, True) is False
    assert "exists and is not a link to this checkout's foya; left it alone" in capsys.readouterr().out
    assert other.read_text(encoding="utf-8") == "#!/bin/sh\necho mine\n"


@pytest.mark.parametrize("answer", [False, None])  # declined, or no terminal to ask on (CI, a pipe)
def test_declining_prints_the_one_line_that_does_it(home: Path, answer: bool | None,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert bootstrap.offer_path_link(FOYA, answer) is False
    assert not (home / ".local").exists()
    line = capsys.readouterr().out.splitlines()[-1].strip()
    assert line == bootstrap.link_line(FOYA)
    subprocess.run(["sh", "-c", line], env={**os.environ, "HOME": str(home)}, check=True)
    assert _foya_by_name(home).stdout.strip().startswith("foya ")


def test_link_flags_are_exclusive() -> None:
    done = subprocess.run([sys.executable, bootstrap.__file__, "--link", "--no-link", "--print-python"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "not allowed with argument" in done.stderr
