"""``python -m foya_desktop``: the same entry point as the ``foya`` command."""

from __future__ import annotations

import sys


def version_line() -> str:
    """What ``foya --version`` prints."""
    from foya_desktop import __version__

    return f"foya {__version__}"


def main() -> int:
    """The window straight away when no argument is given (the desktop launch): the command
    line's parser and its command modules stay unloaded, which start-up would otherwise pay for
    before the first paint. ``foya --version`` answers here too, before the parser and the
    engine it imports (half a second of imports for one line). Anything else goes through
    ``foya_desktop.cli.main``."""
    if sys.argv[1:] == ["--version"]:
        print(version_line())
        return 0
    if not sys.argv[1:]:
        from foya_desktop.app import main as app_main

        return app_main([])
    from foya_desktop.cli.main import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
