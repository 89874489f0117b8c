"""Exec wrapper: confine this process with Landlock, then become the command.

Usage: ``python -m foya_desktop.tools.sandbox_exec --write=DIR [--read=DIR] [--network] -- CMD…``
Refuses to run the command unconfined if confinement fails.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from foya_desktop.tools.sandbox import SandboxPolicy, restrict_self


def main(argv: list[str]) -> int:
    """Parse, confine, exec."""
    if "--" not in argv:
        print("sandbox_exec: missing -- before the command", file=sys.stderr)
        return 2
    split = argv.index("--")
    opts, command = argv[:split], argv[split + 1:]
    writable = tuple(Path(o.split("=", 1)[1]) for o in opts if o.startswith("--write="))
    readable = tuple(Path(o.split("=", 1)[1]) for o in opts if o.startswith("--read="))
    policy = SandboxPolicy(writable, readable, block_network="--network" not in opts)
    try:
        restrict_self(policy)
    except OSError as exc:
        print(f"sandbox_exec: cannot confine the command ({exc}); not running it", file=sys.stderr)
        return 126
    os.execv(command[0], command)  # noqa: S606 - becoming the confined command is the point
    return 127  # pragma: no cover - execv does not return


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
