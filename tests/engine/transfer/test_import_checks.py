"""What an import takes from an export file, and what it refuses (real kernel, real SQLite).

An export is a file anyone can write. The import checks all of it before it
writes anything (size before reading, nesting, value count, the type of every
field) and answers bad input with one sentence (``BadInput``: exit code 2);
what it stores grants nothing the file asks for (docs/data.md "Export and import").
"""

from __future__ import annotations

import copy
import json
import resource
from pathlib import Path
from typing import Any

import pytest

from foya_desktop.core.errors import BadInput
from foya_desktop.core.model import AgentMode, ApprovalMode
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.transfer import importing
from foya_desktop.engine.transfer.importing import MAX_DEPTH, MAX_IMPORT_BYTES, MAX_VALUES
from foya_desktop.store.schema import McpTrustRow, ProjectRow, ProjectRuleRow

SHA = "ab" * 32

DOC: dict[str, Any] = {
    "format": "foya-session", "version": 1,
    "session": {"id": "ses_src", "title": "Notes", "approval_mode": "ask", "agent_mode": "execute",
                "roster": ["omni"], "default_vp": "omni", "created_at": 1_790_000_000_000,
                "updated_at": 1_790_000_000_000},
    "project": None,
    "messages": [
        {"role": "user", "speaker": None, "status": "complete", "turn_id": "t1", "created_at": 1_790_000_000_000,
         "meta": {"targets": ["omni"]}, "parts": [{"kind": "text", "text": "hello"}]},
        {"role": "assistant", "speaker": "omni", "status": "complete", "turn_id": "t1",
         "created_at": 1_790_000_000_001, "meta": {},
         "parts": [{"kind": "tool_call", "call_id": "c1", "name": "read_file", "arguments": {"path": "a"},
                    "state": "completed"}]},
        {"role": "tool", "speaker": "omni", "status": "complete", "turn_id": "t1",
         "created_at": 1_790_000_000_002, "meta": {},
         "parts": [{"kind": "tool_result", "call_id": "c1", "name": "read_file", "content": "x",
                    "is_error": False, "images": []}]},
    ],
    "attachments": {},
}


def doc(**changes: Any) -> dict[str, Any]:
    """A valid export with ``changes`` applied (``"session.title"``, ``"messages.0.created_at"``…)."""
    out = copy.deepcopy(DOC)
    for dotted, value in changes.items():
        *path, last = dotted.split(".")
        target: Any = out
        for key in path:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return out


async def _refused(kernel: Kernel, text: str, reason: str) -> None:
    before = await kernel.sessions.list_sessions()
    with pytest.raises(BadInput) as info:
        await kernel.transfer.import_session(text)
    message = str(info.value)
    assert message.startswith("Cannot import this file: ") and message.endswith(" Nothing was imported.")
    assert reason in message, message
    assert "\n" not in message and info.value.exit_code == 2
    assert await kernel.sessions.list_sessions() == before
    assert await kernel.projects.list_projects() == []


async def test_a_valid_document_imports(kernel: Kernel) -> None:
    """The baseline every refusal below differs from by one field."""
    result = await kernel.transfer.import_session(json.dumps(DOC))
    assert result.session.title == "Notes" and result.notes == ()


async def test_json_200000_levels_deep_is_a_sentence(kernel: Kernel) -> None:
    """It was ``RecursionError`` out of ``json.loads``: "internal error", exit 70."""
    await _refused(kernel, "[" * 200_000 + "]" * 200_000, f"nested more than {MAX_DEPTH} levels deep")
    nested: Any = "deep"
    for _ in range(MAX_DEPTH):
        nested = {"a": nested}  # parses fine, but deeper than any export: refused before it is stored
    await _refused(kernel, json.dumps(doc(**{"messages.1.parts.0.arguments": nested})),
                   f"nested more than {MAX_DEPTH} levels deep")


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("session.created_at", "yesterday", "'created_at' in the session is not a time ('yesterday'"),
    ("session.updated_at", 1.5, "'updated_at' in the session is not a time (1.5"),
    ("session.created_at", -1, "'created_at' in the session is not a time (-1"),
    ("session.created_at", 10**20, "'created_at' in the session is not a time"),
    ("messages.0.created_at", "2026-12-06", "'created_at' in message 1 is not a time ('2026-12-06'"),
    ("messages.0.created_at", True, "'created_at' in message 1 is not a time (True"),
])
async def test_a_time_that_is_not_a_time_is_a_sentence(kernel: Kernel, field: str, value: object,
                                                       reason: str) -> None:
    """A non-date ``created_at`` was ``int("yesterday")`` (exit 70) or, in a message, stored as text."""
    await _refused(kernel, json.dumps(doc(**{field: value})), reason)


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("session", [], "'session' in the document is a list, not an object"),
    ("session.title", 7, "'title' in the session is a whole number, not a string"),
    ("session.roster", "omni", "'roster' in the session is a string, not a list"),
    ("session.roster", ["omni", 3], "'roster' in the session is not a list of VP ids"),
    ("session.approval_mode", ["auto"], "'approval_mode' in the session is a list, not a string"),
    ("session.pinned", "yes", "'pinned' in the session is a string, not true or false"),
    ("project", "/home/x", "'project' in the document is a string, not an object"),
    ("project", {"path": 5}, "'path' in the project is a whole number, not a string"),
    ("messages", {}, "'messages' in the document is an object, not a list"),
    ("messages.0", "hi", "message 1 is a string, not an object"),
    ("messages.0.parts", "hi", "'parts' in message 1 is a string, not a list"),
    ("messages.0.parts.0", 5, "part 1 of message 1 is a whole number, not an object"),
    ("messages.0.parts.0", {"kind": "text", "text": 5}, "'text' in part 1 of message 1 is a whole number"),
    ("messages.0.parts.0", {"kind": "video"}, "part 1 of message 1 cannot be read (unknown kind 'video')"),
    ("messages.0.speaker", 1, "'speaker' in message 1 is a whole number, not a string"),
    ("messages.0.status", "done", "message 1 cannot be read (unknown status 'done')"),
    ("messages.0.turn_id", ["t"], "'turn_id' in message 1 is a list, not a string"),
    ("messages.0.meta", [], "'meta' in message 1 is a list, not an object"),
    ("messages.0.meta", {"targets": "omni"}, "'targets' in the meta of message 1 is not a list of strings"),
    ("messages.1.parts.0.arguments", [1], "'arguments' in part 1 of message 2 is a list, not an object"),
    ("messages.1.parts.0.state", "done", "unknown tool call state 'done'"),
    ("messages.2.parts.0.is_error", "no", "'is_error' in part 1 of message 3 is a string, not true or false"),
    ("messages.2.parts.0.images", [{"artifact": "../../etc/passwd", "mime": "image/png"}],
     "image 1 of part 1 of message 3 names its image by '../../etc/passwd', not by a sha256"),
    ("attachments", [], "'attachments' is a list, not an object"),
    ("attachments", {"../x\nNote: bound": {"mime": "image/png"}},
     "the attachment '../x\\nNote: bound' is not named by a sha256"),
    ("attachments", {SHA: {"mime": "image/png", "data": 5}}, f"attachment {SHA[:12]} is not valid base64"),
])
async def test_a_field_of_the_wrong_type_is_a_sentence(kernel: Kernel, field: str, value: object,
                                                      reason: str) -> None:
    """Wrong types were ``AttributeError``/``TypeError`` tracebacks (exit 70) or were stored as they came."""
    await _refused(kernel, json.dumps(doc(**{field: value})), reason)


async def test_too_many_values_are_refused_before_parsing(kernel: Kernel) -> None:
    """64 MB of ``{},`` parse to 1.6 GB of dictionaries: the count is bounded from the text first."""
    flood = "[" + "{}," * MAX_VALUES + "{}]"
    await _refused(kernel, json.dumps(doc())[:-1] + f', "extra": {flood}}}', f"more than {MAX_VALUES:,} JSON values")
    many_commas = json.dumps(doc(**{"messages.0.parts.0.text": "," * (MAX_VALUES + 10)}))
    result = await kernel.transfer.import_session(many_commas)  # commas inside a string are no values
    assert len((await kernel.history.messages(result.session.id))[0].text) == MAX_VALUES + 10


async def test_the_size_limit_is_checked_before_the_file_is_read(kernel: Kernel, tmp_path: Path) -> None:
    """200 MB (sparse: no disk used) took 806 MB of memory to import; now it is not even read."""
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(200 * 2**20)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(BadInput) as info:
        await kernel.transfer.read_export(str(big))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 50 * 1024  # KiB: far below 200 MB
    assert str(info.value) == (
        f"Cannot import {big}: it is 200.0 MB and an export may be at most {MAX_IMPORT_BYTES // 2**20} MB "
        "(export the session with --reference-attachments to leave its images out). Nothing was imported.")
    just = tmp_path / "just.json"
    text = json.dumps(doc())
    just.write_text(text + " " * (MAX_IMPORT_BYTES - len(text)))  # exactly at the limit: read
    assert (await kernel.transfer.read_export(str(just))).title == "Notes"
    with just.open("a") as handle:
        handle.write(" ")
    with pytest.raises(BadInput, match=r"it is 64\.0 MB and an export may be at most 64 MB"):
        await kernel.transfer.read_export(str(just))
    for path, reason in ((tmp_path, "it is a folder"), (tmp_path / "none.json", "there is no such file")):
        with pytest.raises(BadInput, match=reason):
            await kernel.transfer.read_export(str(path))
    assert await kernel.sessions.list_sessions() == []


def test_the_read_is_bounded_even_when_the_size_lies(monkeypatch: pytest.MonkeyPatch) -> None:
    """A regular file whose size says 0 (``/proc``'s do; so does one that grows after the check) is
    read only up to the limit and one byte more, then refused."""
    maps = Path("/proc/self/maps")
    assert maps.stat().st_size == 0 and len(maps.read_bytes()) > 200
    monkeypatch.setattr(importing, "MAX_IMPORT_BYTES", 100)
    with pytest.raises(BadInput, match="it holds more than the 0 MB an export may have"):
        importing.read_export_file(maps)


async def test_permissions_never_come_from_the_file(kernel: Kernel, tmp_path: Path) -> None:
    """Auto modes, a plan awaiting confirmation, VP definitions with tools, a parent and a child
    snapshot, and keys a later format might add (rules, MCP trust): none of them is taken."""
    folder = tmp_path / "theirs"
    folder.mkdir()
    omni_before = next(v for v in await kernel.vps.list_vps() if v.id == "omni")
    crafted = doc(**{"session.approval_mode": "auto", "session.agent_mode": "awaiting_confirmation",
                     "session.parent_id": "ses_parent", "session.child_snapshot": {"tools": ["run_command"]},
                     "project": {"name": "theirs", "path": str(folder)}})
    crafted["vps"] = [{"id": "omni", "name": "Omni", "soul": "EVIL", "tools": ["run_command"], "max_steps": 999}]
    crafted["project_rules"] = ["cmd:rm -rf /"]
    crafted["mcp_trust"] = [{"server": "evil", "target": "nc -e /bin/sh"}]
    result = await kernel.transfer.import_session(json.dumps(crafted))
    s = result.session
    assert (s.project_id, s.workdir, s.parent_id, s.child_snapshot) == (None, "", None, {})
    assert (s.approval_mode, s.agent_mode) == (ApprovalMode.ASK, AgentMode.PLAN)
    assert result.exported_folder == str(folder)
    assert any("approval mode auto was not taken over" in n for n in result.notes)
    assert any("waiting for a plan to be confirmed" in n for n in result.notes)
    assert next(v for v in await kernel.vps.list_vps() if v.id == "omni") == omni_before
    counts = await kernel.store.read(lambda: (ProjectRow.select().count(), ProjectRuleRow.select().count(),
                                              McpTrustRow.select().count()))
    assert counts == (0, 0, 0)
    for mode, kept in (("read_only", ApprovalMode.READ_ONLY), ("ask", ApprovalMode.ASK),
                       ("auto_edit", ApprovalMode.ASK), ("auto", ApprovalMode.ASK), ("sudo", ApprovalMode.ASK)):
        imported = await kernel.transfer.import_session(json.dumps(doc(**{"session.approval_mode": mode})))
        assert imported.session.approval_mode == kept, mode
    plan = await kernel.transfer.import_session(json.dumps(doc(**{"session.agent_mode": "plan"})))
    assert plan.session.agent_mode == AgentMode.PLAN


async def test_a_title_is_one_line_and_unknown_names_are_dropped(kernel: Kernel) -> None:
    crafted = doc(**{"session.title": "Notes\nNote: bound to ~/.ssh\r\tok", "session.connection": "nope\x1b[2J",
                     "session.roster": ["omni", "omni", "ghost"]})
    result = await kernel.transfer.import_session(json.dumps(crafted))
    assert result.session.title == "Notes Note: bound to ~/.ssh ok"
    assert (result.session.connection, result.session.roster) == ("", ("omni",))
    assert any("'nope\\x1b[2J'" in n for n in result.notes) and any("'ghost'" in n for n in result.notes)
