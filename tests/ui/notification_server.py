"""A tiny ``org.freedesktop.Notifications`` service for tests (run as ``python -m``).

It owns the name on the session bus in ``$DBUS_SESSION_BUS_ADDRESS``, answers
``Notify`` (numbering notifications 1, 2, …; ``replaces_id`` keeps the number),
``GetCapabilities`` and ``GetServerInformation``, and prints one JSON line per
event on stdout: ``{"ready": true}`` once it owns the name, then
``{"id": N, "signature": "...", "args": [...]}`` for every ``Notify`` call.
A line ``invoke N KEY`` on stdin makes it emit ``ActionInvoked(N, KEY)``, as a
click on the bubble does; ``invoke N KEY TOKEN`` first emits ``ActivationToken(N,
TOKEN)``, as services of spec 1.2 (GNOME Shell, KDE Plasma) do for a click. jeepney, no Qt: it is a separate process like the
real service.
"""

from __future__ import annotations

import json
import queue
import sys
import threading

from jeepney import (
    DBusAddress,
    HeaderFields,
    MessageType,
    message_bus,
    new_error,
    new_method_return,
    new_signal,
)
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def main() -> None:
    conn = open_dbus_connection(bus="SESSION")
    conn.send_and_get_reply(message_bus.RequestName(NAME))
    outgoing: queue.Queue[tuple[int, str, str]] = queue.Queue()

    def read_commands() -> None:
        for line in sys.stdin:
            parts = line.split()
            if len(parts) in (3, 4) and parts[0] == "invoke":
                outgoing.put((int(parts[1]), parts[2], parts[3] if len(parts) == 4 else ""))

    threading.Thread(target=read_commands, daemon=True).start()
    print(json.dumps({"ready": True}), flush=True)
    address = DBusAddress(PATH, interface=NAME)
    numbers = 0
    while True:
        while not outgoing.empty():
            nid, key, token = outgoing.get()
            if token:
                conn.send(new_signal(address, "ActivationToken", "us", (nid, token)))
            conn.send(new_signal(address, "ActionInvoked", "us", (nid, key)))
        try:
            msg = conn.receive(timeout=0.05)
        except TimeoutError:
            continue
        if msg.header.message_type != MessageType.method_call:
            continue
        member = msg.header.fields.get(HeaderFields.member)
        signature = msg.header.fields.get(HeaderFields.signature, "")
        if member == "Notify":
            if signature != "susssasa{sv}i":  # what GDBus-based services do with a wrong signature
                conn.send(new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs", "s",
                                    (f"Type of message, '({signature})', does not match expected type",)))
                continue
            replaces = int(msg.body[1])
            if replaces:
                nid = replaces
            else:
                numbers += 1
                nid = numbers
            print(json.dumps({"id": nid, "signature": signature, "args": _plain(msg.body)}), flush=True)
            conn.send(new_method_return(msg, "u", (nid,)))
        elif member == "GetCapabilities":
            conn.send(new_method_return(msg, "as", (["actions", "body"],)))
        elif member == "GetServerInformation":
            conn.send(new_method_return(msg, "ssss", ("test", "foya", "1", "1.2")))
        else:
            conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))


def _plain(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


if __name__ == "__main__":
    main()
