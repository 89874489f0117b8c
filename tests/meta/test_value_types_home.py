"""Value types are imported from the module that holds them, not through ``core.events``.

Issue 7 moved queue items, task records, checkpoints and usage figures out of
the events module; a re-export would let the old path creep back, so this test
reads every import in the tree and names the first one that takes a value type
from ``core.events``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import foya_desktop.core.figures as figures
import foya_desktop.core.records as records

ROOT = Path(__file__).resolve().parents[2]
VALUE_TYPES = {name for mod in (records, figures) for name in vars(mod)
               if not name.startswith("_") and getattr(vars(mod)[name], "__module__", "") == mod.__name__}


def _sources() -> list[Path]:
    return [p for top in ("foya_desktop", "tests", "benchmarks") for p in (ROOT / top).rglob("*.py")]


def test_the_value_types_are_known() -> None:
    assert {"Checkpoint", "QueueItem", "TaskRecord", "Usage"} <= VALUE_TYPES


def test_no_module_takes_a_value_type_from_core_events() -> None:
    offenders = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "foya_desktop.core.events":
                wrong = sorted(a.name for a in node.names if a.name in VALUE_TYPES)
                if wrong:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {', '.join(wrong)}")
    assert not offenders, "import these from core.records / core.figures: " + "; ".join(offenders)
