"""Session export (Markdown, JSON) and import of a JSON export (real kernel, SQLite, fake provider)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.errors import BadInput, InvalidOperation
from foya_desktop.core.model import VP, ApprovalMode, Session
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.transfer.export_json import EXPORT_WARNING
from foya_desktop.store.history import valid_messages
from tests.fakeprovider import FakeProviderServer, Reply, ToolCallSpec
from tests.helpers.engine import Recorder, wait_turns

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


@pytest.fixture
async def worked(kernel: Kernel, fake: FakeProviderServer, rec: Recorder, project: Path) -> Session:
    """A session with two VPs, an image, a tool call with its result and a reply with ``` inside."""
    await kernel.vps.add_vp(VP("linus", "Linus", "Linus the implementer", "You implement."))
    fake.script(Reply(reasoning="Let me look.", tool_calls=[ToolCallSpec("read_file", {"path": "README.md"},
                                                                          id="call_r1")]),
                Reply(text="The readme says:\n```\n# Demo project\n```\nThat is all."))
    s = await kernel.sessions.create_session(title="Export me", workdir=str(project), roster=["omni", "linus"],
                                    approval_mode=ApprovalMode.AUTO_EDIT)
    await kernel.sessions.update_session(s.id, announcement="Be brief.")
    await kernel.turns.send(s.id, "what does the readme say? see the picture", attachments=[("pic.png", PNG)])
    (done,) = await wait_turns(rec, s.id, 1)
    assert done.status == "completed", done.error
    return await kernel.sessions.get_session(s.id)


def _normalised(doc: dict[str, Any]) -> dict[str, Any]:
    """The export without what an import renews: ids, turn ids, origin, export time."""
    doc = json.loads(json.dumps(doc))
    doc.pop("exported_at")
    for key in ("id", "origin"):
        doc["session"].pop(key)
    turns: dict[str, int] = {}
    for i, m in enumerate(doc["messages"]):
        m["id"] = i
        m["turn_id"] = turns.setdefault(m["turn_id"], len(turns))
    return doc


async def test_json_round_trip_export_import_export(kernel: Kernel, worked: Session, rec: Recorder,
                                                   project: Path) -> None:
    """Imported into the folder the person names, everything comes back but the approval mode,
    which an import caps at ask (the exported session was in auto_edit)."""
    first = json.loads(await kernel.transfer.export_session(worked.id, "json"))
    assert first["format"] == "foya-session" and first["version"] == 1 and first["warning"] == EXPORT_WARNING
    assert [m["role"] for m in first["messages"]] == ["user", "assistant", "tool", "assistant"]
    (sha,) = first["attachments"]
    assert first["attachments"][sha]["size"] == len(PNG) and first["attachments"][sha]["data"]
    assert [v["id"] for v in first["vps"]] == ["omni", "linus"]
    result = await kernel.transfer.import_session(json.dumps(first), folder=str(project))
    assert len(result.notes) == 1 and "approval mode auto_edit was not taken over" in result.notes[0]
    imported = result.session
    assert imported.id != worked.id and imported.origin == f"import:{worked.id}"
    assert imported.project_id == worked.project_id and imported.roster == ("omni", "linus")
    assert imported.approval_mode == ApprovalMode.ASK
    again = json.loads(await kernel.transfer.export_session(imported.id, "json"))
    a, b = _normalised(again), _normalised(first)
    assert {k: (v, b["session"][k]) for k, v in a["session"].items() if v != b["session"][k]} == {
        "approval_mode": ("ask", "auto_edit")}
    a["session"]["approval_mode"] = "auto_edit"
    assert a == b
    old_ids = {m["id"] for m in first["messages"]}
    assert not old_ids & {m["id"] for m in again["messages"]}
    history = await kernel.store.read(valid_messages, imported.id)
    assert history[0].parts[1].kind == "image" and await kernel.store.read(kernel.store.files.get, sha) == PNG


async def test_markdown_is_readable_with_folded_tools(kernel: Kernel, worked: Session) -> None:
    md = await kernel.transfer.export_session(worked.id, "md")
    assert md.startswith("# Export me\n") and EXPORT_WARNING in md and "**Announcement:** Be brief." in md
    assert "### You · " in md and "### 全能助手 / Omni assistant · " in md
    assert "<details><summary>Tool call: <code>read_file</code> (completed)</summary>" in md
    assert "<details><summary>Result of <code>read_file</code> · " in md and "Hello from the readme." in md
    assert "<details><summary>Reasoning</summary>" in md and "· image/png · sha256 " in md
    assert "```\n# Demo project\n```" in md  # the reply's own fence, outside any <details>
    result_block = md.split("Result of <code>read_file</code>", 1)[1].split("</details>", 1)[0]
    assert "Hello from the readme." in result_block


async def test_referenced_attachments_missing_here_become_a_note(kernel: Kernel, worked: Session) -> None:
    doc = json.loads(await kernel.transfer.export_session(worked.id, "json", embed=False))
    (entry,) = doc["attachments"].values()
    assert "data" not in entry
    same_home = await kernel.transfer.import_session(json.dumps(doc))
    assert not any("only referenced" in n for n in same_home.notes)  # this data folder still has the blob
    doc["attachments"] = {"0" * 64: {"mime": "image/png", "size": 1}}
    for m in doc["messages"]:
        for p in m["parts"]:
            if p["kind"] == "image":
                p["artifact"] = "0" * 64
    elsewhere = await kernel.transfer.import_session(json.dumps(doc))
    assert any("only referenced" in n for n in elsewhere.notes)
    first = (await kernel.store.read(valid_messages, elsewhere.session.id))[0]
    assert "was not included in the export" in first.text


@pytest.mark.parametrize(("mangle", "reason"), [
    (lambda text: text[:-40], "it is not valid JSON (line"),
    (lambda text: json.dumps({**json.loads(text), "version": 7}), "export version 7; this Foya reads version 1"),
    (lambda text: json.dumps({**json.loads(text), "format": "chat"}), "not a Foya session export"),
    (lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "messages"}),
     "the document has no 'messages' field"),
    (lambda text: json.dumps({**json.loads(text), "messages": [{"role": "user"}]}), "message 1 has no 'parts'"),
    (lambda text: json.dumps({**json.loads(text), "messages": [
        {"role": "robot", "parts": [], "status": "complete"}]}), "message 1 cannot be read"),
    (lambda text: json.dumps(_tamper(json.loads(text))), "does not match its sha256"),
    (lambda text: "[1, 2]", "not a Foya session export"),
])
async def test_bad_input_is_a_sentence_and_changes_nothing(kernel: Kernel, worked: Session, mangle: Any,
                                                           reason: str) -> None:
    text = await kernel.transfer.export_session(worked.id, "json")
    before = [s.id for s in await kernel.sessions.list_sessions()]
    with pytest.raises(BadInput, match="Cannot import this file") as info:
        await kernel.transfer.import_session(mangle(text))
    assert reason in str(info.value) and "Nothing was imported." in str(info.value)
    assert info.value.exit_code == 2
    assert [s.id for s in await kernel.sessions.list_sessions()] == before


def _tamper(doc: dict[str, Any]) -> dict[str, Any]:
    (entry,) = doc["attachments"].values()
    entry["data"] = "AAAA" + entry["data"][4:]
    return doc


async def test_import_elsewhere_unbinds_and_drops_unknown_vps(kernel: Kernel, worked: Session) -> None:
    doc = json.loads(await kernel.transfer.export_session(worked.id, "json", include_debug=True))
    assert isinstance(doc["debug_traces"], list) and doc["debug_traces"]
    doc["project"]["path"] = "/nonexistent/folder"
    doc["session"]["roster"] = ["omni", "ghost"]
    parsed = await kernel.transfer.check_export(json.dumps(doc))
    assert await kernel.transfer.exported_folder_here(parsed) is None
    result = await kernel.transfer.import_export(parsed)
    assert result.session.project_id is None and result.session.workdir == ""
    assert result.session.roster == ("omni",)
    assert any("'/nonexistent/folder'" in n and "not bound" in n for n in result.notes)
    assert any("ghost" in n for n in result.notes)
    with pytest.raises(InvalidOperation, match=r"does not exist here\. Nothing was imported\."):
        await kernel.transfer.import_export(parsed, folder="/nonexistent/folder")
