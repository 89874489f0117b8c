"""Notifications through the desktop's notification service, for desktops without a tray.

GNOME without the AppIndicator extension has no system tray, so
``QSystemTrayIcon.showMessage`` shows nothing there — but every freedesktop
desktop runs the ``org.freedesktop.Notifications`` service on the session bus
(GNOME Shell, KDE Plasma, dunst, mako, xfce4-notifyd…). The tray agent falls
back to it whenever the tray is unavailable or cannot show messages.

The call is ``Notify(app_name, replaces_id, app_icon, summary, body, actions,
hints, expire_timeout)`` with the action ``default`` (what a click on the
bubble invokes); the service answers ``ActionInvoked(id, "default")`` when the
person clicks, which we turn into :attr:`DesktopNotifications.clicked`. Just before
it, services of spec 1.2 (GNOME Shell, KDE Plasma) send ``ActivationToken(id,
token)``: the XDG activation token that lets the window come to the front — without
it a Wayland compositor refuses the focus and the click only closes the bubble. A new
grouped message replaces the previous one (``replaces_id``) instead of
stacking a second bubble.

Why jeepney and not PySide6's QtDBus: QtDBus from Python cannot marshal a
D-Bus ``uint32`` (a Python ``int`` always goes out as ``int32``), so ``Notify``
would be sent with the signature ``sisssasa{sv}i``; GDBus-based services
(GNOME Shell among them) check the signature and refuse the call. jeepney is a
small pure-Python D-Bus library already installed with ``keyring`` on Linux;
its asyncio router runs on the window's (qasync) event loop. It is imported
only when the first notification is about to be shown — nothing at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from typing import Any

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
INTERFACE = "org.freedesktop.Notifications"
APP_NAME = "Foya"
ICON = "foya"
"""The icon name installed with the desktop entry (packaging/); services fall back to none."""
EXPIRE_MS = 10000
CALL_SECONDS = 5.0
"""A service that does not answer within this long is treated as absent."""


class DesktopNotifications(QObject):
    """Shows notifications through ``org.freedesktop.Notifications``; reports clicks.

    Signals:
        clicked(int, str): the notification with this id was clicked (its "default" action), with
            the activation token the service sent for that click ("" when it sent none).
    """

    clicked = Signal(int, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._router: Any = None
        self._connecting: asyncio.Task[bool] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._available: bool | None = None
        self._last_id = 0
        self._tokens: dict[int, str] = {}
        self.shown: list[int] = []
        """Ids of the notifications this app showed, oldest first (the service numbers them)."""

    @property
    def available(self) -> bool | None:
        """True once connected to a notification service, False if there is none, None if not tried."""
        return self._available

    async def start(self) -> bool:
        """Connect to the session bus and listen for clicks; False without a bus or a service."""
        if self._available is not None:
            return self._available
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._connect())
        return await asyncio.shield(self._connecting)

    async def _connect(self) -> bool:
        address = session_bus_address()
        if not address:
            self._available = False
            return False
        try:
            from jeepney import MatchRule, message_bus
            from jeepney.io.asyncio import DBusConnection, DBusRouter, open_dbus_connection
            from jeepney.wrappers import unwrap_msg

            conn: DBusConnection = await asyncio.wait_for(open_dbus_connection(address), CALL_SECONDS)
            router = DBusRouter(conn)
            reply = await asyncio.wait_for(router.send_and_get_reply(message_bus.NameHasOwner(SERVICE)),
                                           CALL_SECONDS)
            has_owner = bool(unwrap_msg(reply)[0])
            if not has_owner:  # a service the bus starts on demand (dunst, notification-daemon) is fine too
                reply = await asyncio.wait_for(router.send_and_get_reply(message_bus.ListActivatableNames()),
                                               CALL_SECONDS)
                has_owner = SERVICE in unwrap_msg(reply)[0]
            if not has_owner:
                await _close(router)
                self._available = False
                return False
            queue: asyncio.Queue[Any] = asyncio.Queue()
            for member in ("ActivationToken", "ActionInvoked"):
                rule = MatchRule(type="signal", interface=INTERFACE, member=member, path=PATH)
                await asyncio.wait_for(router.send_and_get_reply(message_bus.AddMatch(rule)), CALL_SECONDS)
                router.filter(rule, queue=queue, bufsize=64)
            self._router = router
            self._listener = asyncio.ensure_future(self._listen(queue))
            self._available = True
        except (OSError, ValueError, TimeoutError, KeyError, ImportError) as exc:
            log.info("no desktop notification service: %s", exc)
            self._available = False
        except Exception as exc:  # a D-Bus error reply (jeepney.DBusErrorResponse) and kin
            log.info("desktop notification service refused: %s", exc)
            self._available = False
        return self._available

    async def _listen(self, queue: asyncio.Queue[Any]) -> None:
        from jeepney import HeaderFields

        while True:
            message = await queue.get()
            body = message.body
            if len(body) < 2 or int(body[0]) not in self.shown:
                continue
            if message.header.fields.get(HeaderFields.member) == "ActivationToken":
                self._tokens[int(body[0])] = str(body[1])
            elif body[1] == "default":
                self.clicked.emit(int(body[0]), self._tokens.pop(int(body[0]), ""))

    async def notify(self, summary: str, body: str, open_label: str, *, replace: bool = False) -> int:
        """Show a notification with a "default" action labelled ``open_label``; its id, 0 if not shown.

        ``replace`` updates the previous bubble instead of adding one (grouped messages).
        """
        if not await self.start():
            return 0
        from jeepney import DBusAddress, new_method_call
        from jeepney.wrappers import unwrap_msg

        address = DBusAddress(PATH, bus_name=SERVICE, interface=INTERFACE)
        replaces = self._last_id if replace else 0
        message = new_method_call(address, "Notify", "susssasa{sv}i", (
            APP_NAME, replaces, ICON, summary, body, ["default", open_label],
            {"desktop-entry": ("s", "foya"), "category": ("s", "im")}, EXPIRE_MS))
        try:
            reply = await asyncio.wait_for(self._router.send_and_get_reply(message), CALL_SECONDS)
            notification_id = int(unwrap_msg(reply)[0])
        except Exception as exc:  # the service went away or refused: the window still alerts
            log.info("desktop notification failed: %s", exc)
            return 0
        self._last_id = notification_id
        self.shown = [*self.shown[-63:], notification_id]
        return notification_id

    async def close(self) -> None:
        """Stop listening and leave the bus."""
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
        if self._router is not None:
            router, self._router = self._router, None
            await _close(router)
        self._available, self._connecting = None, None


async def _close(router: Any) -> None:
    with contextlib.suppress(Exception):
        await router.__aexit__(None, None, None)
    with contextlib.suppress(Exception):
        await router._conn.close()


def session_bus_address() -> str:
    """``$DBUS_SESSION_BUS_ADDRESS``, else the bus at its usual place ($XDG_RUNTIME_DIR/bus, as
    systemd starts it); "" when there is no session bus."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    if address:
        return address
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    bus = os.path.join(runtime, "bus") if runtime else ""
    return f"unix:path={bus}" if bus and os.path.exists(bus) else ""
