"""Every error code the window may translate is listed, with its params, in ``core/error_codes.py`` (issue 7).

The list is checked against the code itself: every ``FoyaError`` subclass in
the package, every finer ``code=`` given where an error is raised (and the
params passed beside it), every ``Notice`` published, and nothing listed that
nobody raises; a real turn shows the codes arriving in the events.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path
from typing import get_args

import foya_desktop
from foya_desktop.core.error_codes import ERROR_CODES, NOTICE_CODES
from foya_desktop.core.errors import FoyaError
from foya_desktop.core.events import Notice, VPStatus
from foya_desktop.engine.kernel import Kernel
from foya_desktop.engine.ops.eligibility import BranchBlock, RewindBlock
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.helpers.engine import Recorder, wait_turns

EXPANSIONS = {"branch_": get_args(BranchBlock), "rewind_": get_args(RewindBlock)}
"""Codes built with an f-string at their raise site: the prefix and the values its field takes."""

PACKAGE = Path(foya_desktop.__file__).parent


def _error_classes() -> list[type[FoyaError]]:
    for info in pkgutil.walk_packages([str(PACKAGE)], "foya_desktop."):
        if not info.name.startswith(("foya_desktop.ui", "foya_desktop.app")) \
                and not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    found: list[type[FoyaError]] = []
    todo: list[type[FoyaError]] = [FoyaError]
    while todo:
        cls = todo.pop()
        if cls.__module__.startswith("foya_desktop"):  # not test doubles (tests/ui/test_i18n's _Coded)
            found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def _raise_sites(names: set[str]) -> list[tuple[str, ast.Call]]:
    """Calls of an error class anywhere in the package (``InvalidOperation(...)``)."""
    sites: list[tuple[str, ast.Call]] = []
    for source in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(
                    func, ast.Attribute) else ""
                if name in names:
                    sites.append((f"{source.relative_to(PACKAGE)}:{node.lineno}", node))
    return sites


def _site_codes(call: ast.Call) -> list[str] | None:
    """The code(s) a raise site gives explicitly (``None``: the class's own code)."""
    for kw in call.keywords:
        if kw.arg == "code":
            if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                return [kw.value.value]
            assert isinstance(kw.value, ast.JoinedStr), ast.dump(kw.value)
            prefix = kw.value.values[0]
            assert isinstance(prefix, ast.Constant) and prefix.value in EXPANSIONS, \
                f"add the f-string code {ast.unparse(kw.value)} to EXPANSIONS"
            return [f"{prefix.value}{v}" for v in EXPANSIONS[prefix.value]]
    return None


def test_every_error_class_has_a_listed_code_with_its_params() -> None:
    """An error class's code is listed; one that builds its params itself builds the listed ones."""
    for cls in _error_classes():
        assert cls.class_code() in ERROR_CODES, f"{cls.__qualname__}: list {cls.class_code()!r}"
        if cls.__init__ is FoyaError.__init__:
            continue
        signature = inspect.signature(cls.__init__)
        kwargs: dict[str, object] = {name: 1 for name, p in signature.parameters.items()
                                     if p.kind is p.KEYWORD_ONLY and p.default is p.empty}
        error = cls("a sentence", **kwargs)  # type: ignore[arg-type]  # the required keywords, filled
        assert error.code == cls.class_code()
        assert set(error.params) == set(ERROR_CODES[error.code].params), cls.__qualname__


def test_every_raise_site_gives_a_listed_code_and_its_params() -> None:
    """Each call of an error class passes exactly the params listed for its code."""
    classes = {cls.__name__: cls for cls in _error_classes()}
    sites = _raise_sites(set(classes))
    assert len(sites) > 100, "the scan found the raise sites"
    for where, call in sites:
        func = call.func
        cls = classes[func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")]
        if cls.__init__ is not FoyaError.__init__:
            continue  # its params are its constructor's, checked above
        passed = {kw.arg for kw in call.keywords if kw.arg not in ("code", None)}
        for code in _site_codes(call) or [cls.class_code()]:
            assert code in ERROR_CODES, f"{where}: list the code {code!r} in core/error_codes.py"
            assert passed == set(ERROR_CODES[code].params), f"{where}: {code} carries {sorted(passed)}"


def test_nothing_listed_is_stale() -> None:
    classes = _error_classes()
    raised = {cls.class_code() for cls in classes}
    for _where, call in _raise_sites({cls.__name__ for cls in classes}):
        raised.update(_site_codes(call) or [])
    assert set(ERROR_CODES) - raised == set()
    assert all(c.code == name and c.meaning for name, c in ERROR_CODES.items())


def test_every_notice_carries_a_listed_code_and_its_params() -> None:
    """A ``Notice`` is published with a code from NOTICE_CODES and (when written out) its params."""
    sites = _raise_sites({"Notice"})
    assert len(sites) >= 3
    for where, call in sites:
        args = call.args[3:] + [kw.value for kw in call.keywords if kw.arg in ("code", "params")]
        assert args and isinstance(args[0], ast.Constant), f"{where}: a Notice without a code"
        code = args[0].value
        assert isinstance(code, str) and code in NOTICE_CODES, f"{where}: list the notice code {code!r} in core/error_codes.py"
        if len(args) > 1 and isinstance(args[1], ast.Dict):
            keys = {str(k.value) for k in args[1].keys if isinstance(k, ast.Constant)}
            assert keys == set(NOTICE_CODES[code].params), f"{where}: {code} carries {sorted(keys)}"


async def test_a_failed_vp_and_a_retry_carry_their_codes(kernel: Kernel, fake: FakeProviderServer,
                                                          rec: Recorder) -> None:
    """The window gets the code and params of a VP's error and of a retry notice, not only English text."""
    fake.script(Reply(fault=Fault.status(429, retry_after=0.05)), Reply(fault=Fault.status(401)))
    s = await kernel.sessions.create_session()
    await kernel.turns.send(s.id, "hello")
    await wait_turns(rec, s.id, 1)
    retry = next(n for n in rec.of(Notice) if isinstance(n, Notice) and n.code == "provider_retry")
    assert retry.params["error_code"] == "rate_limited" and retry.params["attempt"] == 2
    failed = next(v for v in rec.of(VPStatus) if isinstance(v, VPStatus) and v.state == "error")
    assert failed.error_code == "auth_error" and failed.error_params["status"] == 401
    assert failed.error  # the English sentence stays beside the code


def test_every_approval_reason_code_is_listed() -> None:
    """Codes the policy gives its reasons (``Verdict(code=...)``, ``coded(...)``, a walker's ``ask``) are listed.

    ``APPROVAL_REASONS`` for the policy's verdicts, ``COMMAND_REASONS`` for the parts of a command
    policy's reason; nothing listed is unused.
    """
    from foya_desktop.core.error_codes import APPROVAL_REASONS, COMMAND_REASONS

    used: set[str] = set()
    for source in sorted(PACKAGE.rglob("*.py")):
        if source.is_relative_to(PACKAGE / "ui"):
            continue
        for node in ast.walk(ast.parse(source.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            values = [kw.value for kw in node.keywords if kw.arg == "code"]
            if name == "coded" or (name == "ask" and source.name == "shell_policy.py"):
                values += node.args[1:2]
            if name in ("reason_part", "_part"):
                values += node.args[:1]
            if name in ("Verdict", "coded", "ask", "reason_part", "_part"):
                used.update(v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        used.update(re.findall(r'"code": "([a-z_]+)"', source.read_text()))
    used.discard("")
    listed = set(APPROVAL_REASONS) | set(COMMAND_REASONS)
    assert used - listed == set(), "list these codes in core/error_codes.py"
    assert listed - used == set(), "listed but never given"
