"""The composer: input, attachments, the session's pickers, Send, and Stop with its queue-aware choices.

Sending while a turn runs is normal: the kernel queues the message, so the
Send button reads "Queue" then and steps back to a quiet button; the one Stop
of the window takes Send's place at the right end (as in the peers' composers).
Stop offers the three things a person may mean: stop and keep the queue
(paused), stop and clear it, or interrupt and send one particular queued
message next. The pickers (approval mode, service, model, effort) are the
status line's selectors, placed here beside Send where people look for them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QMimeData, QObject, QSize, Qt, Signal
from PySide6.QtGui import QDragMoveEvent, QDropEvent, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QMenu,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from foya_desktop.core.records import QueueItem
from foya_desktop.engine.turn.routing import MENTION
from foya_desktop.store.preferences import SendKey
from foya_desktop.ui import theme
from foya_desktop.ui.composer.attachments import (
    MAX_ATTACHMENTS,
    Attachment,
    Intake,
    carries_attachments,
    classify,
    images_of,
    limits_text,
    message_text,
    mime_intake,
)
from foya_desktop.ui.composer.chips import AttachmentChips
from foya_desktop.ui.composer.input import ComposerInput
from foya_desktop.ui.fit import stack_when_narrow
from foya_desktop.ui.icons import icon
from foya_desktop.ui.timeline.summaries import first_line

SentAttachment = tuple[str, bytes]
"""(name, bytes) of an image, as the kernel takes it."""


class Composer(QWidget):
    """Where the person writes.

    Signals:
        send_requested(): Send or Enter; the owner calls ``take()`` to get text and attachments.
        stop_requested(bool): stop the turn; True keeps the queue (paused), False clears it.
        interrupt_requested(str): stop and dispatch this queue item next.
        files_chosen(list): file paths picked, dropped or pasted (the owner reads them off the
            GUI thread with ``attachments.read_paths`` and hands back ``add_intake``).
    """

    send_requested = Signal()
    stop_requested = Signal(bool)
    interrupt_requested = Signal(str)
    files_chosen = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._attachments: list[Attachment] = []
        self._queue: tuple[QueueItem, ...] = ()
        self._dropped = 0
        self.input = ComposerInput()
        self.input.submitted.connect(self.send_requested)
        self.input.offered.connect(self._offered)
        self.attach_button = _tool_button("", self.tr("Attach images or text files.") + " " + limits_text())
        self.attach_button.setObjectName("composerButton")
        self.attach_button.setIcon(icon("attach"))
        self.attach_button.setFixedSize(theme.HIT_SIZE, theme.HIT_SIZE)
        self.attach_button.setIconSize(QSize(20, 20))
        self.attach_button.setAccessibleName(self.tr("Attach files"))
        self.attach_button.clicked.connect(self._choose_files)
        self.send_button = QPushButton(self.tr("Send"))
        self.send_button.setObjectName("sendButton")
        self.send_button.setIcon(icon("send", "#ffffff"))
        self.send_button.setIconSize(QSize(18, 18))
        self.send_button.setMinimumHeight(theme.HIT_SIZE)
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send_requested)
        self.stop_button = self._make_stop_button()
        self._pickers: QWidget | None = None
        self.chips = AttachmentChips()
        self.chips.remove_requested.connect(self._remove_attachment)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setFont(theme.small_font())
        self.notice.hide()
        self.mention_warning = QLabel()
        """Names ``@mentions`` that match nobody on the roster, before the message is sent."""
        self.mention_warning.setWordWrap(True)
        self.mention_warning.setStyleSheet(f"color: {theme.warning_color().name()};")
        self.mention_warning.hide()
        self._handles: list[str] = []
        self._default_name = ""
        self.folder = ""
        """The session's folder: where the attach dialog opens ("" = the dialog's own default)."""
        self.input.textChanged.connect(self._check_mentions)
        self._layout()
        self.set_busy(False)
        self.drops = DropCatcher(self)
        self.drops.install(self)

    def _make_stop_button(self) -> QToolButton:
        button = _tool_button(self.tr("Stop"),
                              self.tr("Stop the current reply (Esc; the queue is kept, paused)"))
        button.setObjectName("stopButton")
        button.setIcon(icon("stop", "#ffffff"))
        button.setIconSize(QSize(16, 16))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setMinimumHeight(theme.HIT_SIZE)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu = QMenu(button)
        menu.aboutToShow.connect(lambda: self._fill_stop_menu(menu))
        button.setMenu(menu)
        button.clicked.connect(lambda: self.stop_requested.emit(True))
        return button

    def _layout(self) -> None:
        frame = QFrame()
        frame.setObjectName("composerFrame")
        frame.setStyleSheet("#composerFrame { border: 1px solid palette(mid); border-radius: 10px;"
                            " background: palette(base); }")
        inner = QVBoxLayout(frame)
        inner.setContentsMargins(10, 6, 8, 6)
        inner.addWidget(self.chips)
        inner.addWidget(self.notice)
        inner.addWidget(self.input)
        inner.addWidget(self.mention_warning)
        # attach and the pickers | Send (or Queue and Stop): one line when there is room, else two
        self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self._row.setSpacing(theme.SPACE)
        self._tools_row, self._send_row = QHBoxLayout(), QHBoxLayout()
        for part in (self._tools_row, self._send_row):
            part.setSpacing(theme.SPACE)
        self._tools_row.addWidget(self.attach_button)
        self._tools_row.addStretch(1)
        self._send_row.addStretch(1)
        self._send_row.addWidget(self.send_button)
        self._send_row.addWidget(self.stop_button)  # the right end, where Send is when nothing runs
        self._row.addLayout(self._tools_row, 1)
        self._row.addLayout(self._send_row)
        inner.addLayout(self._row)
        inner.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)  # minimumSizeHint decides
        # the composer lines up with the reading column of the timeline (theme.READING_WIDTH)
        frame.setMaximumWidth(theme.READING_WIDTH + 2 * theme.SPACE)
        frame.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 4, 12, 12)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(frame, 1000)  # takes all the room up to its maximum; the stretches the rest
        centred.addStretch(1)
        outer.addLayout(centred)

    def add_pickers(self, pickers: QWidget) -> None:
        """Place the session's selectors (``StatusLine.pickers``) after the attach button."""
        self._pickers = pickers
        self._tools_row.insertWidget(1, pickers)

    def minimumSizeHint(self) -> QSize:
        """As narrow as the two-line layout of the button row allows."""
        hint = super().minimumSizeHint()
        width = max(self._tools_row.minimumSize().width(), self._send_row.minimumSize().width())
        return QSize(min(hint.width(), width + 48), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Put the pickers on their own line when they and Send do not fit side by side."""
        super().resizeEvent(event)
        self._fit_row(self._row.geometry().width() or event.size().width() - 48)

    def _fit_row(self, width: int) -> None:
        if stack_when_narrow(self._row, self._tools_row, self._send_row, width):
            self.updateGeometry()

    def stacked(self) -> bool:
        """Whether the pickers and Send are on two lines now (tests)."""
        return self._row.direction() == QBoxLayout.Direction.TopToBottom

    def _fill_stop_menu(self, menu: QMenu) -> None:
        menu.clear()
        menu.addAction(self.tr("Stop, keep queue"), lambda: self.stop_requested.emit(True))
        menu.addAction(self.tr("Stop and clear queue"), lambda: self.stop_requested.emit(False))
        if self._queue:
            menu.addSeparator()
            sub = menu.addMenu(self.tr("Interrupt and send next"))
            for item in self._queue:
                sub.addAction(first_line(item.text, 60), self._interrupter(item.id))

    def _interrupter(self, item_id: str) -> Callable[[], None]:
        return lambda: self.interrupt_requested.emit(item_id)

    def stop_menu_actions(self) -> list[str]:
        """Texts of the Stop menu as it would open now (tests)."""
        menu = QMenu()
        self._fill_stop_menu(menu)
        return [a.text() for a in menu.actions() if a.text()]

    # ---- state from the owner -------------------------------------------------------------

    def set_busy(self, busy: bool) -> None:
        """A turn is running: the one Stop shows where Send was, and Send becomes a quiet Queue."""
        self.stop_button.setEnabled(busy)
        self.stop_button.setVisible(busy)
        self.send_button.setText(self.tr("Queue") if busy else self.tr("Send"))
        if self.send_button.property("queueing") != busy:
            self.send_button.setProperty("queueing", busy)
            self.send_button.setIcon(icon("send", None if busy else "#ffffff"))
            self.send_button.style().unpolish(self.send_button)
            self.send_button.style().polish(self.send_button)
        send = "Ctrl+Enter" if self.input.send_key == "ctrl_enter" else "Enter"
        self.send_button.setToolTip(self.tr("Add to the queue; it is sent when the current turn ends")
                                    if busy else self.tr("Send ({keys})").format(keys=send))

    def set_queue(self, items: tuple[QueueItem, ...]) -> None:
        """The session's queue, for the "Interrupt and send next" choices."""
        self._queue = items

    def set_mentions(self, handles: list[str], default_name: str) -> None:
        """Roster handles for @completion; the placeholder names who answers by default."""
        self.input.set_mentions(handles)
        self._handles, self._default_name = list(handles), default_name
        self._check_mentions()
        self._placeholder()

    def set_send_key(self, send_key: SendKey) -> None:
        """Enter or Ctrl+Enter sends (Preferences.send_key); the hints say which."""
        if send_key == self.input.send_key:
            return  # the placeholder may be someone else's now (a read-only session says so)
        self.input.send_key = send_key
        self._placeholder()
        self.set_busy(self.stop_button.isEnabled())

    def _keys_hint(self) -> str:
        if self.input.send_key == "ctrl_enter":
            return self.tr("Ctrl+Enter to send, Enter for a new line")
        return self.tr("Enter to send, Shift+Enter for a new line")

    def _placeholder(self) -> None:
        hint = self.tr("@ to address a VP · ") if len(self._handles) > 1 else ""
        name = self._default_name
        self.input.setPlaceholderText(
            self.tr("Message {name} — {hint}{keys}").format(name=name, hint=hint, keys=self._keys_hint())
            if name else self._keys_hint())

    def unknown_mentions(self) -> list[str]:
        """``@Name``s in the text that match no VP on the roster (case-insensitive)."""
        known = {h.casefold() for h in self._handles}
        names = dict.fromkeys(m.group(1) for m in MENTION.finditer(self.input.toPlainText()))
        return [n for n in names if n.casefold() not in known]

    def _check_mentions(self) -> None:
        unknown = self.unknown_mentions()
        if not unknown:
            self.mention_warning.hide()
            return
        listed = ", ".join(f"@{n}" for n in unknown)
        roster = ", ".join("@" + h for h in self._handles) or self.tr("nobody")
        # NOTE: a numerus message: English's "are" for several names comes from foya_en.ts
        self.mention_warning.setText(self.tr(
            "{listed} is not on this session's roster, so nobody by that name gets this message (the text "
            "is sent as written). On the roster: {roster}.", "", len(unknown)).format(
            listed=listed, roster=roster))
        self.mention_warning.show()

    # ---- text and attachments -------------------------------------------------------------

    def accept_mime(self, source: QMimeData) -> None:
        """Something was dropped on the composer or the timeline: attach it (rules in attachments.py)."""
        self._dropped += 1
        paths, found = mime_intake(source, self._dropped)
        self._offered(paths, found)

    def _offered(self, paths: list[str], found: Intake) -> None:
        self.add_intake(found)
        if paths:
            self.files_chosen.emit(paths)

    def add_intake(self, found: Intake) -> None:
        """Attach what was accepted, mention folders and URLs, and say why anything was refused."""
        refusals = list(found.refusals)
        for att in found.attachments:
            if len(self._attachments) >= MAX_ATTACHMENTS:
                refusals.append(self.tr("{name} was not attached: at most {count} per message.").format(
                    name=att.name, count=MAX_ATTACHMENTS))
            else:
                self._attachments.append(att)
        if found.mentions:
            cursor = self.input.textCursor()
            before = self.input.toPlainText()[: cursor.position()]
            cursor.insertText(("" if not before or before.endswith((" ", "\n")) else " ")
                              + " ".join(found.mentions) + " ")
        self._say(refusals)
        self._render_chips()

    def add_attachment(self, name: str, data: bytes) -> None:
        """Attach an image or text file by its bytes (refused ones are reported)."""
        outcome = classify(name, data)
        self.add_intake(Intake(refusals=[outcome]) if isinstance(outcome, str) else Intake([outcome]))

    def attachments(self) -> list[Attachment]:
        """What the next message carries."""
        return list(self._attachments)

    def take(self) -> tuple[str, list[SentAttachment]]:
        """Text (with text files inlined) and images to send, clearing the composer."""
        typed, attachments = self.input.toPlainText().strip(), list(self._attachments)
        if not typed and not attachments:
            return "", []
        self.input.clear()
        self._attachments.clear()
        self._say([])
        self._render_chips()
        return message_text(typed, attachments), images_of(attachments)

    def restore(self, text: str, attachments: list[SentAttachment]) -> None:
        """Sending failed: give the person their words (and images) back."""
        if text and not self.input.toPlainText().strip():
            self.input.setPlainText(text)
        self._attachments[:0] = [Attachment("image", name, data) for name, data in attachments]
        self._render_chips()

    def _say(self, refusals: list[str]) -> None:
        if refusals:
            self.notice.setText("⚠ " + " ".join(refusals) + " " + limits_text())
            self.notice.setStyleSheet(f"color: {theme.error_color().name()};")
        self.notice.setVisible(bool(refusals))

    def _render_chips(self) -> None:
        self.chips.set_attachments(self._attachments)

    def _remove_attachment(self, index: int) -> None:
        if 0 <= index < len(self._attachments):
            del self._attachments[index]
            self._render_chips()

    def _choose_files(self) -> None:
        dialog = QFileDialog(self, self.tr("Attach files"), self.folder)  # the files worked on are there
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.setNameFilters(
            [
                self.tr(
                    "Images and text (*.png *.jpg *.jpeg *.gif *.webp *.txt *.md *.py *.json"
                    " *.csv *.log *.yaml *.yml *.toml)"
                ),
                self.tr("All files (*)"),
            ]
        )
        dialog.filesSelected.connect(lambda paths: self.files_chosen.emit(list(paths)))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()


def _tool_button(text: str, tip: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    button.setToolTip(tip)
    return button


class DropCatcher(QObject):
    """Takes drops of files, URLs and images on the widgets it watches and hands them to the composer.

    The input handles its own drops (``insertFromMimeData``); this covers the rest of the
    composer and the timeline, where a person drops a screenshot without aiming.

    Signals:
        (none; calls ``Composer.accept_mime``)
    """

    def __init__(self, composer: Composer) -> None:
        super().__init__(composer)
        self._composer = composer

    def install(self, widget: QWidget) -> None:
        """Accept drops on ``widget`` (for a scroll area, pass its viewport)."""
        widget.setAcceptDrops(True)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Accept attachment drags; a drop becomes attachments."""
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and isinstance(event, QDragMoveEvent):
            if carries_attachments(event.mimeData()):
                event.acceptProposedAction()
                return True
        elif (kind == QEvent.Type.Drop and isinstance(event, QDropEvent)
              and carries_attachments(event.mimeData())):
            self._composer.accept_mime(event.mimeData())
            event.acceptProposedAction()
            return True
        return super().eventFilter(watched, event)
