"""What a tool call the model got wrong is told, instead of running it or ending the turn.

Small local models often send arguments that are not JSON, name a tool that does not exist or
leave out a required argument. Ending the whole turn for that never lets the model correct
itself; so such a call becomes its own failed, *blocked* result (it never ran; the status counts
it as a failure), with one sentence saying what was wrong and what the tool expects, and the step
goes on. A model that keeps failing meets the step limit (``runner``), which then says so.

The first line of each text is the sentence (the timeline's tool row shows it); the lines after
it are for the model: the tool's parameters, what it sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

MAX_PARAMETERS_SHOWN = 24


def unknown_tool(name: str, available: Iterable[str]) -> str:
    """A call to a tool that does not exist here: the names that do."""
    names = ", ".join(sorted(available)) or "none"
    what = f"There is no tool named {name!r}" if name else "This tool call has no tool name"
    return (f"{what}, so it did not run.\nThe tools you can call here are: {names}. "
            "Call one of them by its exact name.")


def unreadable_arguments(name: str, why: str, sent: str, schema: Mapping[str, Any]) -> str:
    """A call whose arguments are not a JSON object: why, what the tool takes, what came."""
    return (f"The arguments of this {name} call are {why}, so it did not run.\n"
            f"Send the call again with its arguments as one JSON object. {takes(name, schema)}\n"
            f"You sent: {sent}")


def against_schema(name: str, problem: str, schema: Mapping[str, Any]) -> str:
    """A call whose arguments break the tool's JSON schema: the validation error."""
    return (f"The arguments of this {name} call do not match its parameters: {problem}. It did not run.\n"
            f"{takes(name, schema)}")


def takes(name: str, schema: Mapping[str, Any]) -> str:
    """The tool's parameters in one line: ``read_file takes: path (string, required), …``."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or not properties:
        return f"{name} takes no arguments: send {{}}."
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) else set()
    shown = [_parameter(key, spec, key in needed)
             for key, spec in list(properties.items())[:MAX_PARAMETERS_SHOWN]]
    more = len(properties) - len(shown)
    return f"{name} takes: " + ", ".join(shown) + (f" and {more} more" if more > 0 else "") + "."


def _parameter(key: str, spec: object, required: bool) -> str:
    kind = "any"
    if isinstance(spec, Mapping):
        if isinstance(spec.get("enum"), list):
            kind = "one of " + " | ".join(repr(v) for v in spec["enum"])
        elif isinstance(spec.get("type"), str):
            kind = spec["type"]
        elif isinstance(spec.get("type"), list):
            kind = " or ".join(str(t) for t in spec["type"])
    return f"{key} ({kind}{', required' if required else ''})"


def schema_problem(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> str | None:
    """The most relevant way ``arguments`` break ``schema``, or ``None`` when they fit.

    Blocking, and the first call imports ``jsonschema`` (~70 ms, a dependency of the MCP SDK):
    call it on a worker thread. A schema that is itself invalid (an MCP server's) is not
    enforced: the tool's own checks decide then.
    """
    from jsonschema import exceptions, validators  # type: ignore[import-untyped]

    validator_class = validators.validator_for(schema, default=validators.Draft202012Validator)
    try:
        validator_class.check_schema(schema)
    except exceptions.SchemaError:
        return None
    error = exceptions.best_match(validator_class(schema).iter_errors(dict(arguments)))
    if error is None:
        return None
    where = "/".join(str(step) for step in error.absolute_path)
    return f"{error.message} (at {where})" if where else str(error.message)
