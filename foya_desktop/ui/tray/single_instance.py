"""One running app per data folder: a second launch hands over through a local socket.

``foya`` (or a double-click) while the window is already open must not open a
second app on the same database; it asks the running one to come to the front
— and, with ``foya PATH``, to start a new session in that folder — and exits.

The socket's name is derived from the data folder, so ``FOYA_HOME`` isolates
tests and portable installs. On Unix it is a socket file in
``$XDG_RUNTIME_DIR`` (else the temp folder) readable by this user only. A
file left by a crash has no listener: connecting fails at once, the file is
removed and the new app listens — a stale socket never blocks start-up.

The wire format is one JSON line each way: ``{"folder": "...", "activation":
"..."}`` → ``{"ok": true}``. ``activation`` is the second launch's
``XDG_ACTIVATION_TOKEN`` (Wayland) or ``DESKTOP_STARTUP_ID`` (X11), which the
desktop gave the process it started: with it the running app may take the
focus instead of only flashing on the task bar. The CLI's other commands (``run``, ``sessions``…) do not use
it: they open the database themselves and coordinate with the window through
the store's leases.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import zlib
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

log = logging.getLogger(__name__)

CONNECT_MS = 1500
"""How long a second launch waits for the running app (it answers within one event-loop turn)."""


def instance_address(home_root: Path) -> str:
    """The local socket of the app using ``home_root``.

    Named by two 32-bit checksums of the folder's path: enough to tell one person's data folders
    apart, and (unlike ``hashlib``, which loads OpenSSL) free on the path to the first paint."""
    path = str(home_root.expanduser().resolve()).encode()
    digest = f"{zlib.crc32(path):08x}{zlib.adler32(path):08x}"
    name = f"foya-{digest}"
    if sys.platform == "win32":
        return name
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and Path(runtime).is_dir():
        folder = Path(runtime)
    else:
        import tempfile  # only without a runtime folder: not otherwise on the path to the first paint

        folder = Path(tempfile.gettempdir())
    return str(folder / f"{name}.sock")


def hand_over(address: str, folder: str = "", timeout_ms: int = CONNECT_MS) -> bool:
    """Ask a running app to come to the front (and open ``folder``); False if none answers.

    Blocking: it runs before the second launch starts its event loop.
    """
    socket = QLocalSocket()
    socket.connectToServer(address)
    if not socket.waitForConnected(timeout_ms):
        return False
    token = os.environ.get("XDG_ACTIVATION_TOKEN") or os.environ.get("DESKTOP_STARTUP_ID") or ""
    try:
        socket.write((json.dumps({"folder": folder, "activation": token}) + "\n").encode())
        if not socket.waitForBytesWritten(timeout_ms):
            return False
        while not socket.canReadLine():
            if not socket.waitForReadyRead(timeout_ms):
                return False
        answer = json.loads(bytes(socket.readLine().data()).decode() or "{}")
        return isinstance(answer, dict) and answer.get("ok") is True
    except ValueError:
        return False
    finally:
        socket.disconnectFromServer()


class InstanceServer(QObject):
    """Listens for second launches of the same data folder.

    Signals:
        activated(str, str): a second launch asked to come to the front; the folder to open
            ("" = none) and its activation token ("" = none).
    """

    activated = Signal(str, str)

    def __init__(self, address: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.address = address
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._accept)

    def listen(self) -> bool:
        """Start listening, replacing a stale socket a crash left behind; False if impossible."""
        if self._server.listen(self.address):
            return True
        QLocalServer.removeServer(self.address)  # nobody answered on it (checked by hand_over)
        if self._server.listen(self.address):
            return True
        log.warning("single instance: cannot listen on %s (%s)", self.address, self._server.errorString())
        return False

    def close(self) -> None:
        self._server.close()

    def _accept(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)
            if socket.canReadLine():
                self._read(socket)

    def _read(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            return
        try:
            request = json.loads(bytes(socket.readLine().data()).decode())
        except ValueError:
            request = None
        folder = request.get("folder", "") if isinstance(request, dict) else None
        token = request.get("activation", "") if isinstance(request, dict) else ""
        if not isinstance(folder, str) or not isinstance(token, str):
            socket.write(b'{"ok": false}\n')
            return
        socket.write(b'{"ok": true}\n')
        socket.flush()
        log.info("second launch handed over (folder: %s)", folder or "none")
        self.activated.emit(folder, token)
