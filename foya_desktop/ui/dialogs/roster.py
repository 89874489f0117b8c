"""Roster and default VP of an existing session (Session ▸ Roster and default VP…).

The same rules as ``foya sessions set --roster --default-vp``: the kernel checks them; the dialog
keeps at least one VP ticked and offers only ticked VPs as the default.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.model import VP, Session


class RosterDialog(QDialog):
    """A check box per VP and the default VP among the ticked ones.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, session: Session, vps: list[VP], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Roster and default VP"))
        self.setModal(True)
        self._vps = vps
        self.checks = {vp.id: QCheckBox(f"{vp.name}  ({vp.display_name})") for vp in vps}
        for vp_id, box in self.checks.items():
            box.setChecked(vp_id in session.roster)
            box.toggled.connect(self._sync)
        self.default_vp = QComboBox()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Who works in “{title}”:").format(title=session.title)))
        for box in self.checks.values():
            layout.addWidget(box)
        form = QFormLayout()
        form.addRow(self.tr("Answers messages without @mentions"), self.default_vp)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self._sync()
        index = self.default_vp.findData(session.default_vp)
        if index >= 0:
            self.default_vp.setCurrentIndex(index)

    def roster(self) -> tuple[str, ...]:
        """Ticked VP ids in library order."""
        return tuple(vp.id for vp in self._vps if self.checks[vp.id].isChecked())

    def _sync(self) -> None:
        current = self.default_vp.currentData()
        self.default_vp.clear()
        for vp in self._vps:
            if self.checks[vp.id].isChecked():
                self.default_vp.addItem(vp.name, vp.id)
        index = self.default_vp.findData(current)
        self.default_vp.setCurrentIndex(max(index, 0))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None:
            ok.setEnabled(bool(self.roster()))
