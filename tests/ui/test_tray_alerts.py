"""The notification rules on their own (ui/tray/alerts.py has no Qt): what is notified, what is
grouped, what is never repeated."""

from __future__ import annotations

from foya_desktop.ui.tray.alerts import AlertDesk, AlertKind


class _View:
    def __init__(self) -> None:
        self.on_screen: str | None = None
        self.off: set[AlertKind] = set()

    def desk(self) -> AlertDesk:
        return AlertDesk(lambda sid: sid == self.on_screen, lambda kind: kind not in self.off)


def test_one_notification_per_turn_end_and_none_for_stopped_turns() -> None:
    desk = _View().desk()
    first = desk.turn_finished("s1", "t1", "completed")
    assert first is not None and first.newest.kind == "finished"
    assert desk.turn_finished("s1", "t1", "completed") is None  # the same turn end, reported once
    assert desk.turn_finished("s1", "t2", "stopped") is None  # the person stopped it
    failed = desk.turn_finished("s2", "t3", "error", "401 invalid key")
    assert failed is not None and failed.newest.kind == "failed" and failed.newest.detail == "401 invalid key"


def test_nothing_for_the_session_in_view_and_nothing_for_a_kind_turned_off() -> None:
    view = _View()
    desk = view.desk()
    view.on_screen = "s1"
    assert desk.turn_finished("s1", "t1", "completed") is None
    assert desk.needs_you("s1", "r1", "write notes.md") is None
    view.off = {"finished"}
    assert desk.turn_finished("s2", "t2", "completed") is None
    assert desk.turn_finished("s2", "t3", "error") is not None
    view.off = {"needs_you"}
    assert desk.needs_you("s2", "r2", "run ls") is None


def test_needs_you_is_grouped_per_session_until_seen() -> None:
    desk = _View().desk()
    first = desk.needs_you("s1", "r1", "write a.md")
    assert first is not None and first.newest.target == "r1"
    assert desk.needs_you("s1", "r2", "write b.md") is None  # joins the unseen one
    other = desk.needs_you("s2", "q1", "Which branch?")
    assert other is not None and [a.session_id for a in other.alerts] == ["s2", "s1"]  # grouped, newest first
    desk.seen("s1")
    assert [a.session_id for a in desk.unseen] == ["s2"]
    again = desk.needs_you("s1", "r3", "write c.md")
    assert again is not None and again.newest.target == "r3"


def test_answers_and_turn_ends_clear_what_they_settle() -> None:
    desk = _View().desk()
    desk.needs_you("s1", "r1", "write a.md")
    desk.resolved("r1")
    assert desk.unseen == ()
    desk.needs_you("s1", "q1", "Which branch?", turn_id="t1")
    digest = desk.turn_finished("s1", "t1", "completed")
    assert digest is not None and [a.kind for a in digest.alerts] == ["finished"]
    desk.forget("s1")
    assert desk.unseen == ()
