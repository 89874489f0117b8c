"""Where the data folder is: ``FOYA_HOME``, else the per-user data directory. On Linux the XDG rule
is applied directly (platformdirs' import would cost the window ~25 ms before its first paint,
issue 14); it must name exactly the folder platformdirs names, or people's data would seem gone."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest

from foya_desktop.store.home import APP_NAME, default_home


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
