"""The session operations as small named coroutines: branch, rewind, delete, compact.

Each flow asks what it must (a confirmation, a preview), calls the kernel
once, and reports the outcome in words. The kernel keeps the rules and
re-checks everything; when it refuses, the person reads its reason in a
dialog rather than a status-bar line that vanishes, because they just asked
for this and are waiting for an answer. The tree and the pane change when
the kernel's events arrive, as for every other change.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import Phase, Session
from foya_desktop.core.records import Checkpoint
from foya_desktop.engine.ops.rewind import RewindResult
from foya_desktop.ui.aio import run_dialog
from foya_desktop.ui.dialogs.roster import RosterDialog
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.boundaries import latest_boundary
from foya_desktop.ui.ops.confirm import ConfirmDialog, bullet_list, confirm, inform
from foya_desktop.ui.ops.merge_dialog import MergeDialog
from foya_desktop.ui.ops.ports import ComposerFiller, SessionSelector, StatusReporter
from foya_desktop.ui.ops.rewind_dialog import RewindDialog, run_rewind
from foya_desktop.ui.ops.worktree_flows import delete_with_worktree
from foya_desktop.ui.sessions.tree_model import SessionTreeModel

LATEST_PAGE = 200
"""How far back "Branch from latest reply" looks for a complete reply."""
STATUS_MS = 10_000


class SessionFlows:
    """Branch, rewind, delete and compact, as the window runs them.

    ``parent`` is where dialogs open; the other collaborators are what a flow changes
    once the kernel agreed (see ``ports.py``).
    """

    def __init__(self, kernel: KernelApi, tree: SessionTreeModel, selector: SessionSelector,
                 composer: ComposerFiller, status: StatusReporter, parent: QWidget) -> None:
        self._kernel, self._tree, self._selector = kernel, tree, selector
        self._composer, self._status, self._parent = composer, status, parent

    def tr(self, text: str, disambiguation: str | None = None, n: int = -1) -> str:
        """Qt's ``tr`` for a plain class: the context is ``SessionFlows`` (what lupdate records)."""
        return QCoreApplication.translate("SessionFlows", text, disambiguation, n)

    # ---- branch -----------------------------------------------------------------------------

    async def branch(self, session_id: str, after_message_id: str) -> Session | None:
        """A new session from the history up to ``after_message_id``; open it."""
        try:
            created = await self._kernel.lifecycle.branch(session_id, after_message_id)
        except FoyaError as error:
            await inform(self._parent, self.tr("Branch"), self.tr("Cannot branch here"), error_text(error))
            return None
        self._tree.upsert_session(created)
        self._selector.select_session(created.id)
        self._say(self.tr("Branched into “{title}” — the original session is unchanged.").format(
            title=created.title))
        return created

    async def fork(self, session_id: str, from_turn: str | None = None) -> Session | None:
        """Fork the whole session (or up to a turn) with no dialog; open the new session."""
        try:
            created = await self._kernel.lifecycle.fork(session_id, from_turn=from_turn)
        except FoyaError as error:
            await inform(self._parent, self.tr("Fork"), self.tr("Cannot fork here"), error_text(error))
            return None
        self._tree.upsert_session(created)
        self._selector.select_session(created.id)
        self._say(self.tr("Forked into “{title}” — the original session goes on unchanged.").format(
            title=created.title))
        return created

    async def merge(self, a_id: str, b_id: str) -> Session | None:
        """Preview the merge of ``a_id`` (the initiator) with ``b_id``; on "Merge", create and open it."""
        a, b = self._tree.session(a_id), self._tree.session(b_id)
        try:
            plan = await self._kernel.lifecycle.merge_preview(a_id, b_id)
        except FoyaError as error:
            await inform(
                self._parent, self.tr("Merge"), self.tr("Cannot merge these sessions"), error_text(error)
            )
            return None
        dialog = MergeDialog(plan, a.title if a else a_id, b.title if b else b_id, self._parent)
        if not await confirm(dialog):
            return None
        try:
            created = await self._kernel.lifecycle.merge(a_id, b_id)
        except FoyaError as error:
            await inform(
                self._parent, self.tr("Merge"), self.tr("Cannot merge these sessions"), error_text(error)
            )
            return None
        self._tree.upsert_session(created)
        self._selector.select_session(created.id)
        self._say(self.tr("Merged into “{title}” — both sessions are unchanged.").format(title=created.title))
        return created

    async def edit_roster(self, session_id: str) -> Session | None:
        """Pick the session's VPs and its default VP; the kernel checks the rules."""
        session = self._tree.session(session_id) or await self._kernel.sessions.get_session(session_id)
        dialog = RosterDialog(session, await self._kernel.vps.list_vps(), self._parent)
        try:
            if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
                return None
            roster, default = dialog.roster(), str(dialog.default_vp.currentData() or "")
        finally:
            dialog.deleteLater()
        try:
            updated = await self._kernel.sessions.update_session(session_id, roster=roster,
                                                                 default_vp=default)
        except FoyaError as error:
            await inform(
                self._parent, self.tr("Roster"), self.tr("Cannot change the roster"), error_text(error)
            )
            return None
        self._tree.upsert_session(updated)
        self._say(self.tr("Roster saved: it applies from the next message."))
        return updated

    async def branch_latest(self, session_id: str) -> Session | None:
        """Branch after the newest complete reply or tool result."""
        messages = await self._kernel.history.history_page(session_id, limit=LATEST_PAGE)
        after = latest_boundary(messages)
        if after is None:
            await inform(self._parent, self.tr("Branch"), self.tr("Nothing to branch from yet"),
                         self.tr("A branch starts from a complete reply, and this session has none yet."))
            return None
        return await self.branch(session_id, after)

    # ---- rewind -----------------------------------------------------------------------------

    async def rewind(self, session_id: str, message_id: str) -> RewindResult | None:
        """Preview, confirm in a dialog, then put the message's words back in the composer."""
        try:
            preview = await self._kernel.lifecycle.rewind_preview(session_id, message_id)
        except FoyaError as error:
            await inform(
                self._parent, self.tr("Rewind"), self.tr("Cannot rewind to this message"), error_text(error)
            )
            return None
        dialog = RewindDialog(preview, self._parent)
        try:
            result = await run_rewind(self._kernel, dialog)
        finally:
            dialog.deleteLater()
        if result is not None:
            self._composer.put_back(session_id, result.text)
            self._say(_rewound_words(result, preview.messages_removed))
        return result

    # ---- delete -----------------------------------------------------------------------------

    async def delete(self, session_id: str) -> list[str]:
        """Confirm (irreversible; names the sub-agent sessions that go too), then delete."""
        model = self._tree
        session = model.session(session_id)
        if session is None:
            return []
        children = [n.session for n in model.node(model.index_of_session(session_id)).walk()[1:]
                    if n.session is not None]
        title = session.title or self.tr("Untitled session")
        if model.node(model.index_of_session(session_id)).worktree:
            return await self._delete_worktree_session(session_id, title)
        dialog = ConfirmDialog(self.tr("Delete session"), self.tr("Delete “{title}”?").format(title=title),
                               _delete_words(children, model.phase(session_id) != Phase.IDLE),
                               self.tr("Delete"), destructive=True, parent=self._parent)
        if not await confirm(dialog):
            return []
        deleted = await self._kernel.lifecycle.delete_session(session_id)
        for gone in deleted:  # the events did this already; a no-op then
            model.remove_session(gone)
        if len(deleted) > 1:
            self._say(self.tr("Deleted “{title}” and %n sub-agent session(s).", "", len(deleted) - 1).format(
                title=title))
        else:
            self._say(self.tr("Deleted “{title}”.").format(title=title))
        return deleted

    async def _delete_worktree_session(self, session_id: str, title: str) -> list[str]:
        """A worktree session: ask whether its worktree and branch go too (``worktree_flows``)."""
        try:
            status = await self._kernel.worktrees.status(session_id)
        except FoyaError as error:
            await inform(self._parent, self.tr("Delete session"), self.tr("Cannot delete"), error_text(error))
            return []
        deleted = await delete_with_worktree(self._kernel, status, title, self._parent)
        for gone in deleted:
            self._tree.remove_session(gone)
        if deleted:
            self._say(self.tr("Deleted “{title}”.").format(title=title))
        return deleted

    # ---- compaction -------------------------------------------------------------------------

    async def compact(self, session_id: str) -> Checkpoint:
        """Summarise the history for later requests; the marker appears when it is written."""
        self._say(self.tr("Compacting… a summary of the history is being written."))
        checkpoint = await self._kernel.lifecycle.compact(session_id)
        self._say(self.tr("Compacted: later requests start from the summary; the timeline keeps everything."))
        return checkpoint

    async def show_summary(self, summary: str, automatic: bool) -> None:
        """What the model sees instead of the messages above a checkpoint marker."""
        how = self.tr("automatically, when the context filled up") if automatic else self.tr("on request")
        await inform(
            self._parent,
            self.tr("Compaction summary"),
            self.tr("Summary written {how}").format(how=how),
            summary or self.tr("(empty summary)"),
        )

    def _say(self, text: str) -> None:
        self._status.showMessage(text, STATUS_MS)


def _delete_words(children: list[Session], running: bool) -> str:
    translate = QCoreApplication.translate
    parts = [
        "<p>"
        + translate(
            "SessionFlows",
            "This cannot be undone. The session's messages, settings and "
            "attachments are removed from Foya; files in the project folder are not touched.",
        )
        + "</p>"
    ]
    if children:
        count = len(children)
        titles = [c.title or translate("SessionFlows", "Untitled sub-agent session") for c in children]
        head = translate("SessionFlows", "Its %n sub-agent session(s) go too:", "", count)
        parts.append(f"<p><b>{head}</b>{bullet_list(titles)}</p>")
    if running:
        parts.append("<p>" + translate("SessionFlows", "The reply in progress is stopped first.") + "</p>")
    return "".join(parts)


def _rewound_words(result: RewindResult, removed: int) -> str:
    translate = QCoreApplication.translate
    files = [
        translate("SessionFlows", "%n file(s) restored", "", len(result.restored)) if result.restored else "",
        translate("SessionFlows", "%n removed", "", len(result.removed)) if result.removed else "",
        translate("SessionFlows", "%n left untouched", "", len(result.skipped)) if result.skipped else "",
    ]
    detail = translate("SessionFlows", ", ").join(f for f in files if f)
    text = translate("SessionFlows", "Rewound: %n message(s) left the timeline.", "", removed)
    if detail:
        text = translate(
            "SessionFlows", "Rewound: %n message(s) left the timeline; {detail}.", "", removed
        ).format(detail=detail)
    return text + " " + translate("SessionFlows", "Your message is back in the composer.")
