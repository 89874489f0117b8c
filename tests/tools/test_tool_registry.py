"""The registry: names, schemas, and the read-only set."""

from __future__ import annotations

from foya_desktop.tools.registry import default_tools, read_only_tools


def test_default_tool_names() -> None:
    assert sorted(default_tools()) == ["edit_file", "glob", "grep", "list_dir", "read_file", "run_command",
                                       "view_image", "write_file"]


def test_read_only_tools_change_nothing() -> None:
    assert sorted(read_only_tools()) == ["glob", "grep", "list_dir", "read_file", "view_image"]


def test_every_schema_is_a_closed_object_with_known_required_fields() -> None:
    for name, tool in default_tools().items():
        schema = tool.parameters
        assert tool.name == name
        assert tool.description
        assert schema["type"] == "object"
        assert schema["additionalProperties"] is False
        assert set(schema.get("required", [])) <= set(schema["properties"])
