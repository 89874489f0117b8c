"""Worktree sessions' own operations in the window: *Merge back…* and *Delete*
(docs/window/sessions.md, "Worktrees").

*Merge back…* shows the diff of the worktree's branch against the base (the
branch checked out in the repository's folder): the files, then the hunks; on
confirmation the kernel merges or rebases with the person's git. Conflicts are
listed and left where git stopped — the window never resolves them.

*Delete* of a worktree session asks whether the worktree folder and its branch
go too. Work that is not in the base (uncommitted files, commits) is removed
only after a second, destructive confirmation that names it.
"""

from __future__ import annotations

import html
from typing import Literal

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from foya_desktop.core.errors import FoyaError
from foya_desktop.core.model import Session
from foya_desktop.engine.worktrees.ops import MergePreview, MergeResult, WorktreeStatus
from foya_desktop.ui.aio import run_dialog
from foya_desktop.ui.error_text import error_text
from foya_desktop.ui.kernel_api import KernelApi
from foya_desktop.ui.ops.boundaries import latest_boundary
from foya_desktop.ui.ops.confirm import ConfirmDialog, bullet_list, confirm, inform

translate = QCoreApplication.translate
INTO_WORKTREE_TITLE = "Into a new worktree"
"""The object name of the branch-name dialog (tests find it by it)."""
MERGE_BACK_TITLE = "Merge back"
"""The object name of the merge-back dialog (tests find it by it)."""


def worktree_label(status: WorktreeStatus) -> str:
    """The sidebar's mark: the branch, ● when files are uncommitted, ↑N commits ahead of the base."""
    marks = ("●" if status.changed else "") + (f"↑{status.ahead}" if status.ahead else "")
    branch = status.branch or translate("WorktreeFlows", "detached")
    return f"⎇ {branch}" + (f" {marks}" if marks else "")


def describe_preview(preview: MergePreview) -> str:
    """Rich text: what merging back brings into the base — the files, then every hunk."""
    st = preview.status
    head = translate("WorktreeFlows", "<p><b>{branch}</b> into <b>{base}</b> in {repo}: %n commit(s).</p>",
                     None, st.ahead).format(
        branch=html.escape(st.branch), base=html.escape(st.base), repo=html.escape(st.repository))
    binary = translate("WorktreeFlows", "binary")
    files = [f"{f.path}  " + (binary if f.added < 0 else f"+{f.added} −{f.removed}") for f in preview.files]
    cut = translate("WorktreeFlows", "(The diff is cut here.)")
    return head + bullet_list(files) + f"<pre>{html.escape(preview.patch)}</pre>" + (
        f"<p>{cut}</p>" if preview.truncated else "")


class MergeBackDialog(ConfirmDialog):
    """The diff against the base, *merge* or *rebase*, Cancel and Merge back.

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, preview: MergePreview, parent: QWidget | None = None) -> None:
        st = preview.status
        super().__init__(
            translate("WorktreeFlows", "Merge back"),
            translate("WorktreeFlows", "Merge “{branch}” back into “{base}”?").format(
                branch=st.branch, base=st.base),
            describe_preview(preview), translate("WorktreeFlows", "Merge back"), scroll_height=420,
            parent=parent)
        self.setObjectName(MERGE_BACK_TITLE)
        self.how = QComboBox()
        self.how.addItem(translate("WorktreeFlows", "Merge the branch into the base (git merge)"), "merge")
        self.how.addItem(translate("WorktreeFlows", "Rebase the branch onto the base, then fast-forward "
                                   "(git rebase)"), "rebase")
        layout = self.layout()
        if isinstance(layout, QVBoxLayout):
            layout.insertWidget(layout.count() - 1, self.how)
        self.resize(720, 560)


class BranchNameDialog(QDialog):
    """The branch of a fork or branch *in a new worktree*: empty for a new one named after it, or
    any branch of the repository (an existing one is checked out there).

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, title: str, branches: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName(INTO_WORKTREE_TITLE)
        self.setMinimumWidth(420)
        self.branch = QComboBox(editable=True)
        self.branch.addItems(branches)
        self.branch.setCurrentIndex(-1)
        if (edit := self.branch.lineEdit()) is not None:
            edit.setPlaceholderText(translate("WorktreeFlows", "New branch named after the new session"))
        note = QLabel(translate("WorktreeFlows", "Foya adds a git worktree beside the repository and binds "
                                "the new session to it for good; this session stays where it is."))
        note.setWordWrap(True)
        ok, cancel = QDialogButtonBox.StandardButton.Ok, QDialogButtonBox.StandardButton.Cancel
        buttons = QDialogButtonBox(ok | cancel)
        self.ok_button = buttons.button(ok)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.branch)
        layout.addWidget(buttons)


async def into_worktree(kernel: KernelApi, session: Session, how: Literal["fork", "branch"],
                        parent: QWidget) -> Session | None:
    """Fork the session, or branch it after its latest complete reply, into a new worktree."""
    what = translate("WorktreeFlows", "Fork into a new worktree") if how == "fork" else \
        translate("WorktreeFlows", "Branch into a new worktree")
    branches = await kernel.worktrees.branches(session.workdir) or []
    dialog = BranchNameDialog(what, branches, parent)
    try:
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return None
        branch = dialog.branch.currentText().strip()
    finally:
        dialog.deleteLater()
    try:
        if how == "fork":
            return await kernel.worktrees.fork(session.id, branch=branch)
        after = latest_boundary(await kernel.history.history_page(session.id, limit=200))
        if after is None:
            await inform(parent, what, translate("WorktreeFlows", "Nothing to branch from yet"),
                         translate("WorktreeFlows", "A branch starts from a complete reply, and this "
                                   "session has none yet."))
            return None
        return await kernel.worktrees.branch(session.id, after, branch=branch)
    except FoyaError as error:
        await inform(parent, what, translate("WorktreeFlows", "No worktree was made"), error_text(error))
        return None


async def merge_back(kernel: KernelApi, session_id: str, parent: QWidget) -> MergeResult | None:
    """Show the diff; on confirmation merge back and say how it ended (conflicts listed)."""
    what = translate("WorktreeFlows", "Merge back")
    refused = translate("WorktreeFlows", "Cannot merge back")
    try:
        preview = await kernel.worktrees.merge_preview(session_id)
    except FoyaError as error:
        await inform(parent, what, refused, error_text(error))
        return None
    dialog = MergeBackDialog(preview, parent)
    dialog.fit_body()
    if not await confirm(dialog):
        return None
    how: Literal["merge", "rebase"] = "rebase" if dialog.how.currentData() == "rebase" else "merge"
    try:
        result = await kernel.worktrees.merge_back(session_id, how)
    except FoyaError as error:
        await inform(parent, what, refused, error_text(error))
        return None
    if result.merged:
        await inform(parent, what, translate("WorktreeFlows", "Merged back"), result.message)
    else:
        await inform(parent, what, translate("WorktreeFlows", "Conflicts left for you"),
                     "\n".join([result.message, "", *(f"• {name}" for name in result.conflicts)]))
    return result


async def delete_with_worktree(kernel: KernelApi, status: WorktreeStatus, title: str,
                               parent: QWidget) -> list[str]:
    """Delete a worktree session, asking whether its worktree and branch go too; unmerged work
    needs a second confirmation. Returns the deleted session ids (empty: cancelled)."""
    what = translate("WorktreeFlows", "Delete session")
    dialog = ConfirmDialog(
        what, translate("WorktreeFlows", "Delete “{title}”?").format(title=title),
        translate("WorktreeFlows", "<p>The session works in the git worktree {path} on the branch "
                  "<b>{branch}</b>.</p>").format(path=html.escape(status.path),
                                                 branch=html.escape(status.branch)),
        translate("WorktreeFlows", "Delete"), destructive=True, parent=parent)
    remove = QCheckBox(translate("WorktreeFlows", "Also remove the worktree folder and the branch "
                                 "“{branch}”").format(branch=status.branch))
    layout = dialog.layout()
    if isinstance(layout, QVBoxLayout):
        layout.insertWidget(layout.count() - 1, remove)
    try:
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return []
        removing = remove.isChecked()
    finally:
        dialog.deleteLater()
    if not removing:
        return await kernel.lifecycle.delete_session(status.session_id)
    try:
        return await kernel.worktrees.remove(status.session_id)
    except FoyaError as error:
        if error.code != "worktree_unmerged":
            await inform(parent, what, translate("WorktreeFlows", "The worktree was not removed"),
                         error_text(error))
            return []
        again = ConfirmDialog(
            what, translate("WorktreeFlows", "Remove work that is not in “{base}”?").format(base=status.base),
            translate("WorktreeFlows", "<p>The worktree holds work that is not in <b>{base}</b>: {commits} "
                      "commit(s) on <b>{branch}</b> and {files} uncommitted file(s). Removing the worktree "
                      "and the branch loses that work for good.</p>").format(
                base=html.escape(status.base), branch=html.escape(status.branch),
                commits=error.params.get("commits", status.ahead), files=error.params.get("files", 0))
            + bullet_list(list(status.changed)),
            translate("WorktreeFlows", "Remove it anyway"), destructive=True, parent=parent)
        if not await confirm(again):
            return []
        return await kernel.worktrees.remove(status.session_id, force=True)
