"""A tiny synchronous event bus. Subscribers run on the asyncio thread.

A failing subscriber is logged and skipped: one broken view must never stop
a turn or other views from hearing about it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from foya_desktop.core.events import Event

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], None]


class EventBus:
    """Fan-out of engine events to the UI bridge, the CLI printer and tests."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Add a subscriber; returns a function that removes it."""
        self._subscribers.append(fn)

        def unsubscribe() -> None:
            if fn in self._subscribers:
                self._subscribers.remove(fn)
        return unsubscribe

    def publish(self, event: Event) -> None:
        """Deliver ``event`` to every subscriber, in subscription order."""
        for fn in list(self._subscribers):
            try:
                fn(event)
            except Exception:
                log.exception("event subscriber failed on %s", type(event).__name__)
