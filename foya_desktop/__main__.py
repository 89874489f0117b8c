"""``python -m foya_desktop``: the same entry point as the ``foya`` command."""

from __future__ import annotations

import sys


def main() -> int:
    """The window straight away when no argument is given (the desktop launch): the command
    line's parser and its command modules stay unloaded, which start-up would otherwise pay for
    before the first paint (issue 14). Anything else goes through ``foya_desktop.cli.main``."""
    if not sys.argv[1:]:
        from foya_desktop.app import main as app_main

        return app_main([])
    from foya_desktop.cli.main import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
