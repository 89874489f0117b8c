"""The append hot path writes plain SQL (``events_log`` / ``history``): it must name exactly the
columns the peewee models define, so a renamed column fails here, not in a person's database."""

from __future__ import annotations

from foya_desktop.store.events_log import _EVENT_SQL, _HEAD_SQL, _SET_HEAD_SQL
from foya_desktop.store.history import _MESSAGE_FIELDS, INSERT_MESSAGE_SQL
from foya_desktop.store.schema import EventRow, MessageRow, SessionRow


def test_the_plain_sql_names_the_models_tables_and_columns() -> None:
    assert f'"{SessionRow._meta.table_name}"' in _HEAD_SQL
    assert f'"{SessionRow.head_seq.column_name}"' in _HEAD_SQL
    assert all(f'"{c}"' in _SET_HEAD_SQL for c in (SessionRow._meta.table_name, SessionRow.head_seq.column_name,
                                                   SessionRow.updated_at.column_name, SessionRow.id.column_name))
    assert f'INSERT INTO "{EventRow._meta.table_name}"' in _EVENT_SQL
    event_columns = {f.column_name for f in EventRow._meta.sorted_fields if f.name != "id"}
    assert all(f'"{c}"' in _EVENT_SQL for c in event_columns)
    assert f'INSERT INTO "{MessageRow._meta.table_name}"' in INSERT_MESSAGE_SQL
    message_columns = [MessageRow._meta.fields[f].column_name for f in _MESSAGE_FIELDS]
    assert {f.column_name for f in MessageRow._meta.sorted_fields} == set(message_columns)
    listed = INSERT_MESSAGE_SQL.split("(", 1)[1].split(")", 1)[0]
    assert [c.strip().strip('"') for c in listed.split(",")] == message_columns


def test_the_hot_path_json_text_is_json_dumps_text() -> None:
    """Issue 14 (append vs raw sqlite3): ``codec.json_text`` reuses one encoder; its text must be exactly what
    ``json.dumps`` writes, or the stored parts would stop matching ``indexes.OPEN_CALLS_WHERE``'s patterns."""
    import json
    import math

    import pytest

    from foya_desktop.core.messages import (
        ImagePart,
        Part,
        ReasoningPart,
        TextPart,
        ToolCallPart,
        ToolResultPart,
        part_to_json,
    )
    from foya_desktop.store.codec import json_text

    parts: list[Part] = [TextPart('héllo 数据 "q" \\ \n\t\x00 😀'), ReasoningPart("r", signature="S"),
             ToolCallPart("c1", "run", {"cmd": ["ls", 1, 2.5, None, True, {"é": -0.0}]}),
             ToolResultPart("c1", "run", "out", is_error=True, images=(ImagePart("ab", "image/png", "n"),))]
    values: list[object] = [[part_to_json(p) for p in parts], {}, [], {"k": [1, {"x": None}]}, "é", 7, -1.5,
                            None, False, {"n": math.inf, "m": -math.inf}, 10**30]
    for value in values:
        assert json_text(value) == json.dumps(value)
    assert json_text(float("nan")) == json.dumps(float("nan"))
    with pytest.raises(TypeError):
        json_text({"x": object()})
