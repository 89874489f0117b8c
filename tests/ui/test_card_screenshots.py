"""Screenshots of the cards, the image viewer and the tasks panel (saved to $FOYA_SHOTS or /tmp/foya-shots).

These are tests so they keep working, but their point is to be looked at.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, Qt
from PySide6.QtGui import QColor, QImage, QLinearGradient, QPainter

from foya_desktop.core.events import ApprovalRequested, QuestionAsked, QuestionClosed
from foya_desktop.core.messages import ImagePart, Message, ToolCallPart, ToolResultPart, ToolState
from foya_desktop.core.model import Phase
from foya_desktop.core.records import TaskRecord
from foya_desktop.ui.cards import questions
from foya_desktop.ui.cards.question_view import Mode
from foya_desktop.ui.main_window import MainWindow
from tests.ui.fakes import FakeKernel
from tests.ui.helpers import reply, settle, show, tool_result, user, wait_until

EDIT_DIFF = """--- a/src/app.py
+++ b/src/app.py
@@ -1,9 +1,8 @@
 import sys
-import pandas as pd
 from pathlib import Path
{blank}
{blank}
 def main() -> int:
+    import pandas as pd  # imported only when needed
     config = Path(sys.argv[1])
-    frame = pd.read_csv(config)
-    return run(frame)
+    return run(pd.read_csv(config))
""".replace("{blank}", " ")  # diff context lines for empty lines are a single space


async def _session(window: MainWindow, kernel: FakeKernel, tmp: Path, title: str) -> str:
    folder = tmp / "parser"
    folder.mkdir(exist_ok=True)
    session = await kernel.sessions.create_session(title=title, workdir=str(folder), connection="openai", model="gpt-4.1")
    return session.id


async def test_screenshot_approval_card_with_diff(fake_window: MainWindow, fake_kernel: FakeKernel,
                                                  tmp_path: Path, shots: Path) -> None:
    sid = await _session(fake_window, fake_kernel, tmp_path, "Speed up startup")
    fake_kernel.add_messages(sid, [user("Move the pandas import into main()", mid="u1"),
                                   reply("I'll make the import lazy.", mid="a1")])
    fake_kernel.phases[sid] = Phase.TURN
    await settle()
    await show(fake_window, sid)
    fake_kernel.ask(ApprovalRequested(
        sid, "r1", "omni", "edit_file", {"path": "src/app.py", "old": "import pandas as pd\n...",
                                         "new": "    import pandas as pd  # imported only when needed\n..."},
        "Edit src/app.py (2 changes)", diff=EDIT_DIFF, paths=("src/app.py",),
        reason="file changes need approval in ask mode"))
    fake_kernel.ask(ApprovalRequested(sid, "r2", "omni", "run_command", {"command": "pytest -q"},
                                      "Run pytest -q", command="pytest -q", reason="commands need approval"))
    await settle(5)
    card = fake_window.pane.attention.card
    assert card is not None and card.waiting.text() == "+1 more waiting"
    fake_window.grab().save(str(shots / "approval_diff_window.png"))
    card.grab().save(str(shots / "approval_diff_card.png"))
    card.feedback.setText("keep the module-level import, tests patch it")
    await settle()
    card.grab().save(str(shots / "approval_diff_card_feedback.png"))
    card.buttons["once"].click()
    await settle(5)
    command = fake_window.pane.attention.card
    assert command is not None and command.request.request_id == "r2"
    command.grab().save(str(shots / "approval_command_card.png"))


async def test_screenshot_question_card_states(fake_window: MainWindow, fake_kernel: FakeKernel, tmp_path: Path,
                                               shots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(questions, "RESEND_AFTER_S", 0.3)
    sid = await _session(fake_window, fake_kernel, tmp_path, "Storage")
    old = ToolCallPart("c0", "ask_user", {"question": "Which license should the project use?",
                                          "choices": ["MIT", "Apache-2.0"]}, ToolState.COMPLETED)
    lost = ToolCallPart("c1", "ask_user", {"question": "Deploy to staging now?"}, ToolState.RUNNING)
    call = ToolCallPart("c2", "ask_user", {"question": "Which database should I set up for the cache?",
                                           "choices": ["SQLite", "Postgres", "Redis"]}, ToolState.RUNNING)
    fake_kernel.add_messages(sid, [
        user("Set the project up", mid="u1"),
        reply("First the license.", mid="a0", turn_id="t0", parts=[old]),
        tool_result("c0", "ask_user", "The person answered: MIT", mid="r0"),
        reply("Then deployment.", mid="a1", turn_id="t1", parts=[lost]),
        user("Now the cache", mid="u2"),
        reply("I need one decision before I write the config.", mid="a2", turn_id="t2", parts=[call]),
    ])
    fake_kernel.phases[sid] = Phase.TURN
    await settle()
    await show(fake_window, sid)
    fake_kernel.ask(QuestionAsked(sid, "q2", "omni", "c2", "Which database should I set up for the cache?",
                                  ("SQLite", "Postgres", "Redis")))
    pane = fake_window.pane
    await wait_until(lambda: pane.cards.cards["c2"].view.mode == Mode.INPUT)  # type: ignore[union-attr]
    card = pane.cards.cards["c2"]
    await settle(5)
    pane.timeline_view.jump_to_latest()
    await settle(5)
    fake_window.grab().save(str(shots / "ask_window_input.png"))
    card.grab().save(str(shots / "ask_card_input.png"))
    pane.cards.cards["c0"].grab().save(str(shots / "ask_card_history_answered.png"))
    pane.cards.cards["c1"].grab().save(str(shots / "ask_card_history_lost.png"))

    release = asyncio.Event()
    real_answer = fake_kernel.asks.answer_question

    async def held(question_id: str, answer: str) -> str:
        await release.wait()
        return await real_answer(question_id, answer)

    fake_kernel.asks.answer_question = held  # type: ignore[method-assign]
    card.free.setText("Postgres, the one already running in docker-compose")
    card.send.click()
    await settle(3)
    card.grab().save(str(shots / "ask_card_waiting.png"))
    await wait_until(lambda: card.view is not None and card.view.mode == Mode.RESEND, what="resend offered")
    await settle(3)
    card.grab().save(str(shots / "ask_card_resend.png"))
    fake_window.grab().save(str(shots / "ask_window_resend.png"))
    release.set()
    await fake_window.runner.drain()
    await wait_until(lambda: card.view is not None and card.view.mode == Mode.ANSWERED, what="answered")
    await settle(3)
    card.grab().save(str(shots / "ask_card_answered.png"))

    extra = ToolCallPart("c3", "ask_user", {"question": "Keep the old cache files?"}, ToolState.RUNNING)
    fake_kernel.add_messages(sid, [reply("One more.", mid="a3", turn_id="t2", parts=[extra])], publish=True)
    fake_kernel.ask(QuestionAsked(sid, "q3", "omni", "c3", "Keep the old cache files?", ("Yes", "No")))
    await settle(3)
    fake_kernel.publish(QuestionClosed(sid, "q3", "expired"))
    await wait_until(lambda: "c3" in pane.cards.cards and pane.cards.cards["c3"].view.mode == Mode.CLOSED)  # type: ignore[union-attr]
    await settle(5)
    pane.cards.cards["c3"].grab().save(str(shots / "ask_card_expired.png"))
    pane.timeline_view.jump_to_latest()
    await settle(5)
    fake_window.grab().save(str(shots / "ask_window_final.png"))


def _picture(width: int, height: int, a: str, b: str, label: str) -> bytes:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    gradient = QLinearGradient(QPointF(0, 0), QPointF(width, height))
    gradient.setColorAt(0, QColor(a))
    gradient.setColorAt(1, QColor(b))
    painter.fillRect(image.rect(), gradient)
    painter.setPen(QColor("white"))
    font = painter.font()
    font.setPointSize(max(10, min(width, height) // 12))
    painter.setFont(font)
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, label)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # stub says bytes; the binding wants str
    return bytes(data.data())


async def test_screenshot_thumbnails_and_image_viewer(fake_window: MainWindow, fake_kernel: FakeKernel,
                                                      tmp_path: Path, shots: Path) -> None:
    sid = await _session(fake_window, fake_kernel, tmp_path, "UI review")
    fake_kernel.artifacts = {"a" * 64: _picture(1280, 800, "#2b5876", "#4e4376", "login.png"),
                             "b" * 64: _picture(600, 900, "#d38312", "#a83279", "mobile.png"),
                             "c" * 64: _picture(800, 800, "#11998e", "#38ef7d", "icon.png")}
    images = {k: ImagePart(k, "image/png") for k in fake_kernel.artifacts}
    fake_kernel.add_messages(sid, [
        user("Compare the login screen on desktop and mobile", mid="u1"),
        reply("Let me look at both screenshots.", mid="a1", turn_id="t1", parts=[
            ToolCallPart("c1", "view_image", {"path": "shots/login.png"}, ToolState.COMPLETED),
            ToolCallPart("c2", "view_image", {"path": "shots/mobile.png"}, ToolState.COMPLETED)]),
        Message("r1", "", "tool", (ToolResultPart("c1", "view_image", "Image shots/login.png (image/png)",
                                                  images=(images["a" * 64],)),), speaker="omni", turn_id="t1"),
        Message("r2", "", "tool", (ToolResultPart("c2", "view_image", "Image shots/mobile.png (image/png)",
                                                  images=(images["b" * 64], images["c" * 64])),),
                speaker="omni", turn_id="t1"),
        reply("The desktop form is centred, but on mobile the **Sign in** button sits below the fold.",
              mid="a2", turn_id="t1"),
    ])
    await settle()
    await show(fake_window, sid)
    pane = fake_window.pane
    await wait_until(lambda: all(pane.thumbnails.get(k) is not None for k in fake_kernel.artifacts))
    pane.timeline_view.viewport().update()
    await settle(5)
    fake_window.grab().save(str(shots / "timeline_thumbnails.png"))
    row = next(i for i in range(pane.timeline_model.rowCount()) if pane.timeline_model.row_at(i).key == "a1")
    pane.images.open_at(row, "b" * 64)
    viewer = pane.images.viewer
    assert viewer is not None
    await wait_until(lambda: not viewer.displayed_size().isEmpty(), what="image shown")
    await settle(3)
    viewer.grab().save(str(shots / "image_viewer.png"))
    viewer.go(-1)
    await wait_until(lambda: viewer.index == 0 and not viewer.displayed_size().isEmpty())
    await settle(3)
    viewer.grab().save(str(shots / "image_viewer_first.png"))
    viewer.close()


async def test_screenshot_tasks_panel(fake_window: MainWindow, fake_kernel: FakeKernel, tmp_path: Path,
                                      shots: Path) -> None:
    sid = await _session(fake_window, fake_kernel, tmp_path, "Release build")
    fake_kernel.add_messages(sid, [user("Run the full test suite and the dev server", mid="u1"),
                                   reply("Both are running in the background.", mid="a1")])
    await settle()
    await show(fake_window, sid)
    output = "".join(f"tests/test_{n:02d}.py ........                                   [{n * 4:3d}%]\n"
                     for n in range(1, 21))
    fake_kernel.put_task(TaskRecord("task_1", sid, "shell", "npm run build", "completed", 0,
                                    "built in 4.2s\n", created_at=1_700_000_000_000))
    fake_kernel.put_task(TaskRecord("task_2", sid, "shell", "make lint", "failed", 2,
                                    "src/app.py:3:1: F401 unused import\n", created_at=1_700_000_100_000))
    fake_kernel.put_task(TaskRecord("task_3", sid, "shell", "pytest -q --maxfail=1 tests/", "running", None,
                                    output, created_at=1_700_000_200_000))
    await settle()
    pane = fake_window.pane
    pane.tasks.header.click()
    await fake_window.runner.drain()
    await settle(5)
    assert pane.tasks.selected() == "task_3"
    fake_window.grab().save(str(shots / "tasks_panel.png"))
    pane.tasks.select("task_2")
    await fake_window.runner.drain()
    await settle(3)
    pane.tasks.grab().save(str(shots / "tasks_panel_failed.png"))
