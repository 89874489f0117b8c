"""One store dialect (issue 7): ``store.read(fn, ...)`` / ``store.write(fn, ...)``, no pass-throughs.

``store/store.py``'s docstring says why this dialect was kept. The check: no method of
``Store`` is a one-statement door that only forwards to ``self.read``/``self.write``
(what ``store.get_session(sid)`` and forty others were); the functions live in the
store's modules and callers name them. Methods with their own logic (the lease, the
phase-and-release transaction, deleting blob files) stay.
"""

from __future__ import annotations

import ast
from pathlib import Path

import foya_desktop
from foya_desktop.store.store import Store

STORE_PY = Path(foya_desktop.__file__).parent / "store" / "store.py"


def _forwarders(source: str) -> list[str]:
    """Names of ``Store`` methods whose whole body forwards to ``self.read``/``self.write``."""
    tree = ast.parse(source)
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Store"]
    found = []
    for fn in cls.body:
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) or fn.name in ("read", "write"):
            continue
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr) or body[0].value is None:
            continue
        value = body[0].value
        call = value.value if isinstance(value, ast.Await) else value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "self"
                and call.func.attr in ("read", "write")):
            found.append(fn.name)
    return found


def test_store_has_no_one_line_pass_throughs() -> None:
    """A named async door per query is the other dialect: call ``store.read(fn, ...)`` instead."""
    assert _forwarders(STORE_PY.read_text(encoding="utf-8")) == []


def test_the_check_sees_a_pass_through() -> None:
    """The check is not blind: the old shape of ``get_session`` is caught."""
    old = '''
class Store:
    async def get_session(self, session_id):
        """One session."""
        return await self.read(sessions.get_session, session_id)

    async def claim(self, session_id):
        lease_id = self._lease_id()
        return await self.write(job, lease_id)
'''
    assert _forwarders(old) == ["get_session"]


def test_read_and_write_are_the_doors() -> None:
    """What callers use: the two threads' doors (typed with ``ParamSpec``, so mypy checks arguments)."""
    assert callable(Store.read) and callable(Store.write)
