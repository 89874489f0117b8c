""""Merge with…": the preview that shows what a merge would create before anything is written.

The kernel plans the merge (``engine.ops.merging``); this dialog lists every turn of the new
session in its merged order with where it comes from — both sessions (common history), only
this one (A, whose folder, settings and project the new session takes) or only the other (B).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QWidget

from foya_desktop.engine.ops.merging import MergePlan
from foya_desktop.ui.ops.confirm import ConfirmDialog
from foya_desktop.ui.timeline.summaries import clock, first_line


def _origin(origin: str) -> str:
    return {"common": QCoreApplication.translate("MergeDialog", "both")}.get(origin, origin.upper())


def describe_plan(plan: MergePlan, a_title: str, b_title: str) -> str:
    """Rich text: the sources, then one line per turn in merged order."""
    a_only = sum(1 for t in plan.turns if t.origin == "a")
    b_only = sum(1 for t in plan.turns if t.origin == "b")
    translate = QCoreApplication.translate
    head = translate(
        "MergeDialog", "<p>A new session is created; <b>A</b> “{a}” and <b>B</b> “{b}” stay as they are. It "
        "takes A's folder, announcement, default VP, model and project, and both rosters.</p>").format(
        a=html.escape(a_title), b=html.escape(b_title))
    # two sessions that share no start (not forks of each other) have no common turns to name
    order = translate(
        "MergeDialog",
        "%n common turn(s) once, then {a} from A and {b} from B by the time you sent them:",
        "",
        plan.common,
    ) if plan.common else translate(
        "MergeDialog", "No common turns: {a} from A and {b} from B by the time you sent them:")
    head += "<p>" + order.format(a=a_only, b=b_only) + "</p>"
    rows = "".join(
        f"<tr><td><b>{_origin(t.origin)}</b>&nbsp;&nbsp;</td><td>{clock(t.turn.sent_at)}&nbsp;&nbsp;</td>"
        f"<td>{html.escape(first_line(t.turn.question, 80))}</td></tr>" for t in plan.turns)
    empty = "<p>" + translate("MergeDialog", "(Both sessions are empty.)") + "</p>"
    return head + (f"<table>{rows}</table>" if rows else empty)


class MergeDialog(ConfirmDialog):
    """The merge plan with Cancel and "Merge".

    Signals:
        (QDialog's own: accepted, rejected, finished)
    """

    def __init__(self, plan: MergePlan, a_title: str, b_title: str, parent: QWidget | None = None) -> None:
        translate = QCoreApplication.translate
        super().__init__(translate("MergeDialog", "Merge sessions"),
                         translate("MergeDialog", "Merge “{a}” with “{b}”?").format(a=a_title, b=b_title),
                         describe_plan(plan, a_title, b_title), translate("MergeDialog", "Merge"),
                         scroll_height=380, parent=parent)
        self.setMinimumWidth(560)
        self.plan = plan
        self.fit_body()
