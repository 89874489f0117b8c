"""Who is speaking: VP display names and colours, stable within a session.

Colours follow the session roster order (the default VP first gets blue), so
two VPs of one session never share a colour; a VP outside the roster (e.g. in
imported history) falls back to a colour derived from its id.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from foya_desktop.core.model import OMNI, VP
from foya_desktop.ui import theme


class SpeakerDirectory:
    """VP names and colours for the session on screen."""

    def __init__(self) -> None:
        self._vps: dict[str, VP] = {OMNI.id: OMNI}
        self._roster: tuple[str, ...] = (OMNI.id,)

    def set_vps(self, vps: Iterable[VP]) -> None:
        """Known VP definitions (the built-in Omni is always known)."""
        self._vps = {OMNI.id: OMNI, **{vp.id: vp for vp in vps}}

    def set_roster(self, roster: Iterable[str], default_vp: str = "") -> None:
        """The session's roster; the default VP takes the first colour."""
        ordered = [default_vp] if default_vp else []
        ordered += [vp for vp in roster if vp != default_vp]
        self._roster = tuple(ordered)

    @property
    def roster(self) -> tuple[str, ...]:
        """VP ids of the session, default first."""
        return self._roster

    def vp(self, vp_id: str) -> VP | None:
        """The definition of a VP, if known."""
        return self._vps.get(vp_id)

    def find(self, ref: str) -> str:
        """The id of the VP named (or with id) ``ref``, any case; ``ref`` itself when unknown."""
        folded = ref.strip().lstrip("@").casefold()
        for vp in self._vps.values():
            if folded in (vp.name.casefold(), vp.id.casefold()):
                return vp.id
        return ref

    def name(self, vp_id: str) -> str:
        """Short name shown above a VP's replies (its @handle)."""
        vp = self._vps.get(vp_id)
        return (
            vp.name
            if vp is not None
            else (vp_id or QCoreApplication.translate("SpeakerDirectory", "Assistant"))
        )

    def handles(self) -> list[str]:
        """@mention handles of the roster, in roster order."""
        return [self.name(vp_id) for vp_id in self._roster]

    def color(self, vp_id: str) -> QColor:
        """A colour distinct from the session's other VPs."""
        slot = self._roster.index(vp_id) if vp_id in self._roster else None
        return theme.speaker_color(vp_id, slot)
