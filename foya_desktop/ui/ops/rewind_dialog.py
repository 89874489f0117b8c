""""Rewind to here…": the preview dialog and the two-phase flow behind it.

The kernel rewinds in two phases (DESIGN §2): a preview that changes nothing,
then a confirm that re-checks the history head and the file-state token.
The dialog shows the preview — messages removed, files restored, created
files removed, and files left alone with the reason — and stays open while
confirming. If the kernel says the preview went stale, the dialog says so in
words, shows a fresh preview, and waits for the person to confirm again.
"""

from __future__ import annotations

import asyncio
import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal
from PySide6.QtWidgets import QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.engine.ops.rewind import RewindPreview, RewindResult, RewindStale
from foya_desktop.ui import theme
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.confirm import ConfirmDialog, bullet_list
from foya_desktop.ui.timeline.summaries import first_line

QUOTE_LINES = 3
ALL = 1_000_000
"""The preview lists every file (the dialog scrolls): a rewind must hide nothing it touches."""
STALE_NOTE = str(QT_TRANSLATE_NOOP(
    "RewindDialog", "Something changed since this preview (new messages, or files edited in the meantime). "
    "The preview below is fresh — check it and confirm again."))


class RewindDialog(ConfirmDialog):
    """What a rewind would do, with Cancel and "Rewind".

    The confirm button does not close the dialog: the flow closes it once the
    kernel has committed, or keeps it open with a fresh preview or an error.

    Signals:
        confirm_clicked(): the person pressed "Rewind"; the flow asks the kernel.
    """

    confirm_clicked = Signal()

    def __init__(self, preview: RewindPreview, parent: QWidget | None = None) -> None:
        translate = QCoreApplication.translate
        super().__init__(
            translate("RewindDialog", "Rewind history"),
            translate("RewindDialog", "Rewind the conversation to this message?"),
            "",
            translate("RewindDialog", "Rewind"),
            destructive=True,
            scroll_height=380,
            parent=parent,
        )
        self.setMinimumWidth(560)
        self.buttons.accepted.disconnect(self.accept)
        self.buttons.accepted.connect(self.confirm_clicked)
        self.preview = preview
        self.show_preview(preview)

    def show_preview(self, preview: RewindPreview) -> None:
        """Describe ``preview`` (the one a click on "Rewind" will confirm)."""
        self.preview = preview
        self.body.setText(describe(preview))
        self.set_working(False)
        self.fit_body()

    def show_stale(self, reason: str = STALE_NOTE) -> None:
        """The last confirm was refused because the preview went stale."""
        self._show_notice(self.tr(reason), theme.warning_color().name())

    def show_error(self, text: str) -> None:
        """The kernel refused for good: say why; only Cancel remains."""
        self._show_notice(text, theme.error_color().name())
        self.confirm_button.setEnabled(False)

    def set_working(self, working: bool) -> None:
        """While the kernel works, the buttons wait."""
        self.confirm_button.setEnabled(not working)
        self.confirm_button.setText(self.tr("Rewinding…") if working else self.tr("Rewind"))

    def _show_notice(self, text: str, color: str) -> None:
        self.notice.setText(f"<span style='color:{color}'>⚠ {html.escape(text)}</span>")
        self.notice.show()
        self.set_working(False)
        self.fit_body()


def describe(preview: RewindPreview) -> str:
    """The dialog body: the message, what leaves the timeline, and what happens to files."""
    dim = theme.dim_color().name()
    lines = preview.text.strip().splitlines() or [""]
    quote = "<br>".join(html.escape(first_line(line, 160)) for line in lines[:QUOTE_LINES])
    quote += "<br>…" if len(lines) > QUOTE_LINES else ""
    translate = QCoreApplication.translate
    removed = preview.messages_removed
    parts = [
        f"<p style='color:{dim}'>“{quote}”</p>",
        "<p>"
        + translate(
            "RewindDialog",
            "<b>%n message(s)</b> — this one and everything after it — leave the "
            "timeline. Your message goes back into the composer so you can edit and resend it.",
            "",
            removed,
        )
        + "</p>",
    ]
    if preview.restore:
        head = translate("RewindDialog", "Restored to how they were before ({count})").format(
            count=len(preview.restore))
        parts.append(f"<p><b>{head}</b>{bullet_list(list(preview.restore), ALL)}</p>")
    if preview.remove:
        head = translate("RewindDialog", "Created after this message — deleted ({count})").format(
            count=len(preview.remove))
        parts.append(f"<p><b>{head}</b>{bullet_list(list(preview.remove), ALL)}</p>")
    if preview.unsafe:
        warn = theme.warning_color().name()
        lines = [f"{u.path} — {u.reason}" for u in preview.unsafe]
        head = translate("RewindDialog", "Not touched — cannot be restored safely ({count})").format(
            count=len(preview.unsafe))
        parts.append(f"<p><b style='color:{warn}'>{head}</b>{bullet_list(lines, ALL)}</p>")
    if not (preview.restore or preview.remove or preview.unsafe):
        none = translate("RewindDialog", "No files were changed by tools after this message.")
        parts.append(f"<p style='color:{dim}'>{none}</p>")
    return "".join(parts)


async def _next_choice(dialog: RewindDialog) -> bool:
    """Wait for "Rewind" (True) or for the dialog to close (False)."""
    done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def settle(value: bool) -> None:
        if not done.done():
            done.set_result(value)

    def on_confirm() -> None:
        settle(True)

    def on_finished(_code: int) -> None:
        settle(False)

    dialog.confirm_clicked.connect(on_confirm)
    dialog.finished.connect(on_finished)
    try:
        return await done
    finally:
        dialog.confirm_clicked.disconnect(on_confirm)
        dialog.finished.disconnect(on_finished)


async def run_rewind(kernel: KernelApi, dialog: RewindDialog) -> RewindResult | None:
    """Open ``dialog`` and confirm until the kernel commits or the person cancels."""
    dialog.open()
    session_id, message_id = dialog.preview.session_id, dialog.preview.message_id
    while await _next_choice(dialog):
        dialog.set_working(True)
        try:
            result = await kernel.lifecycle.rewind_confirm(session_id, dialog.preview)
        except RewindStale:
            await _refresh(kernel, dialog, session_id, message_id)
            continue
        except FoyaError as error:
            dialog.show_error(error_text(error))
            continue
        dialog.accept()
        return result
    return None


async def _refresh(kernel: KernelApi, dialog: RewindDialog, session_id: str, message_id: str) -> None:
    try:
        dialog.show_preview(await kernel.lifecycle.rewind_preview(session_id, message_id))
    except FoyaError as error:
        dialog.show_error(
            QCoreApplication.translate(
                "RewindDialog", "The history moved and this message can no longer be rewound to: {reason}"
            ).format(reason=error_text(error))
        )
        return
    dialog.show_stale()

