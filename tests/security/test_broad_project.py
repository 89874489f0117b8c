"""The broad-project rule held by the kernel (issue 8 class 3), without a window.

The window asks and passes ``allow_broad``; ``foya run`` needs
``--allow-broad-project``; and every kernel entry that binds a folder refuses
a broad one otherwise — including an imported export, which names its folder
itself (a crafted file must not bind a session to the home folder).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from foya_desktop.core.errors import InvalidOperation
from foya_desktop.engine.kernel import Kernel


async def test_every_binding_entry_refuses_a_broad_folder_without_allow_broad(
        kernel: Kernel, tmp_path: Path) -> None:
    """``tmp_path`` holds the test's data folder (FOYA_HOME), so it is broad ("contains_data")."""
    assert await kernel.projects.broad_folder(str(tmp_path)) == "contains_data"
    assert await kernel.projects.broad_folder("/") == "root"
    assert await kernel.projects.broad_folder(str(Path.home())) == "home"
    small = tmp_path / "small"
    small.mkdir()
    assert await kernel.projects.broad_folder(str(small)) is None
    project = await kernel.projects.add_project(str(small))
    unbound = await kernel.sessions.create_session(title="Loose")
    for call in (kernel.sessions.create_session(workdir=str(tmp_path)), kernel.sessions.create_session(workdir="/"),
                 kernel.projects.add_project(str(tmp_path)), kernel.projects.relink_project(project.id, str(tmp_path))):
        with pytest.raises(InvalidOperation) as refused:
            await call
        assert refused.value.code == "broad_project"
        assert "explicit confirmation" in str(refused.value)
    assert [p.path for p in await kernel.projects.list_projects()] == [str(small.resolve())]
    broad = await kernel.projects.add_project(str(tmp_path), allow_broad=True)
    with pytest.raises(InvalidOperation, match="contains Foya's data folder"):
        await kernel.sessions.bind_project(unbound.id, broad.id)
    assert (await kernel.sessions.get_session(unbound.id)).project_id is None
    created = await kernel.sessions.create_session(workdir=str(tmp_path), allow_broad=True)
    assert created.workdir == str(tmp_path.resolve())


async def test_an_imported_session_naming_a_broad_folder_is_left_unbound(kernel: Kernel, tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    session = await kernel.sessions.create_session(title="Exported", workdir=str(small))
    doc = json.loads(await kernel.transfer.export_session(session.id, "json"))
    doc["project"]["path"] = str(tmp_path)
    result = await kernel.transfer.import_session(json.dumps(doc))
    assert result.session.project_id is None and result.session.workdir == ""
    before = await kernel.sessions.list_sessions()
    parsed = await kernel.transfer.check_export(json.dumps(doc))
    exported = await kernel.transfer.exported_folder_here(parsed)
    assert exported == str(tmp_path.resolve())
    with pytest.raises(InvalidOperation) as refused:  # binding to it asks, as everywhere else
        await kernel.transfer.import_export(parsed, folder=exported)
    assert refused.value.code == "broad_project"
    assert await kernel.sessions.list_sessions() == before
    assert str(tmp_path.resolve()) not in [p.path for p in await kernel.projects.list_projects()]
    confirmed = await kernel.transfer.import_export(parsed, folder=exported, allow_broad=True)
    assert confirmed.session.workdir == str(tmp_path.resolve())
