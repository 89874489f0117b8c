"""``python -m foya_desktop``: the same entry point as the ``foya`` command."""

from __future__ import annotations

import sys

from foya_desktop.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
