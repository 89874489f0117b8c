"""Calling the real ``foya`` entry point (``foya_desktop.cli.main.main``) in-process: the same
parser, dispatch and error handling as the console script, without a Python start-up per call."""

from __future__ import annotations

import pytest

from foya_desktop.cli.main import main


class Foya:
    """``foya(*args)`` → (exit code, stdout, stderr)."""

    def __init__(self, capsys: pytest.CaptureFixture[str]) -> None:
        self._capsys = capsys

    def __call__(self, *args: str) -> tuple[int, str, str]:
        self._capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse usage errors
            code = int(exc.code or 0)
        out = self._capsys.readouterr()
        return code, out.out, out.err
