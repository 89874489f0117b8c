"""``foya`` as a separate real process, awaited without blocking the test's event loop.

For tests where this process runs a kernel (or the window) and another process shares its
database: ``subprocess.run`` would stop this process's loop meanwhile, so its turn would stall.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path


async def foya_async(home: Path, *args: str, timeout: float = 120) -> tuple[int, str, str]:
    """Run ``python -m foya_desktop ARGS`` with ``FOYA_HOME=home``; (exit code, stdout, stderr)."""
    env = {**os.environ, "FOYA_HOME": str(home), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    env.pop("QT_QPA_PLATFORM", None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "foya_desktop", *args, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    return proc.returncode or 0, out.decode(), err.decode()
