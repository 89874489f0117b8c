"""The VP library on the real kernel and a real SQLite file: create, edit, duplicate, remove,
rosters, and the start-up upgrade of an untouched built-in (Y09, Y10, Y11, Y64)."""

from __future__ import annotations

import sqlite3

import pytest

from foya_desktop.core.errors import InvalidOperation, NotFound
from foya_desktop.core.model import OMNI, OMNI_PAST_DEFAULTS, VP
from foya_desktop.engine.kernel import Kernel
from foya_desktop.store.database import stored_version
from foya_desktop.store.schema import SCHEMA_VERSION
from tests.lifecycle.conftest import KernelBox


def _vp(name: str, soul: str = "You help.", **kw: object) -> VP:
    return VP(id="", name=name, display_name="", soul=soul, **kw)  # type: ignore[arg-type]


async def test_create_edit_duplicate_remove(kernel: Kernel) -> None:
    """A VP gets an id from its name, keeps its hint/tools/colour, and is found by name later."""
    linus = await kernel.vps.add_vp(_vp("Linus", "You implement.", model_hint="fast",
                                    tools=("read_file", "grep"), color="#aa3300"))
    assert (linus.id, linus.display_name, linus.model_hint, linus.tools) == ("linus", "Linus", "fast",
                                                                             ("read_file", "grep"))
    with pytest.raises(InvalidOperation, match="already exists"):
        await kernel.vps.add_vp(_vp("linus"))
    edited = await kernel.vps.edit_vp("LINUS", soul="You implement carefully.", tools=())
    assert edited.id == "linus" and edited.soul == "You implement carefully." and edited.tools == ()
    copy = await kernel.vps.duplicate_vp("Linus", "Linus2")
    assert copy.id == "linus2" and copy.soul == edited.soul and copy.color == "#aa3300"
    assert [v.name for v in await kernel.vps.list_vps()] == ["Omni", "Linus", "Linus2"]
    assert await kernel.vps.remove_vp("Linus2") == []
    with pytest.raises(NotFound, match="foya vps list"):
        await kernel.vps.edit_vp("Linus2", soul="x")


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("name", "two words", "one word"), ("name", "@x", "one word"), ("soul", "  ", "needs a soul"),
    ("model_hint", "gpt-9", "'primary' or 'fast'"), ("tools", ("nope",), "Unknown tool"),
    ("color", "red", "#rrggbb"),
])
async def test_bad_fields_are_refused_with_a_reason(kernel: Kernel, field: str, value: object,
                                                    reason: str) -> None:
    fields: dict[str, object] = {"name": "Ok", "soul": "You help.", field: value}
    with pytest.raises(InvalidOperation, match=reason):
        await kernel.vps.add_vp(VP(id="", display_name="", **fields))  # type: ignore[arg-type]


async def test_remove_is_refused_while_a_roster_uses_it_unless_forced(kernel: Kernel) -> None:
    await kernel.vps.add_vp(_vp("Linus"))
    await kernel.vps.add_vp(_vp("Martin"))
    s = await kernel.sessions.create_session(title="pair", roster=["Linus", "Martin"], default_vp="Martin")
    with pytest.raises(InvalidOperation, match=rf"roster of 1 session\(s\): {s.id} \(pair\).*--force"):
        await kernel.vps.remove_vp("Martin")
    assert (await kernel.sessions.get_session(s.id)).roster == ("linus", "martin")
    assert await kernel.vps.remove_vp("Martin", force=True) == [s.id]
    after = await kernel.sessions.get_session(s.id)
    assert after.roster == ("linus",) and after.default_vp == "linus"
    with pytest.raises(InvalidOperation, match="built in"):
        await kernel.vps.remove_vp("omni")


async def test_roster_and_default_vp_of_an_existing_session(kernel: Kernel) -> None:
    """Y03/Y09: a new session without roster gets Omni; an explicit roster is kept as given."""
    await kernel.vps.add_vp(_vp("Linus"))
    s = await kernel.sessions.create_session(title="solo")
    assert (s.roster, s.default_vp) == (("omni",), "omni")
    s = await kernel.sessions.update_session(s.id, roster=("Linus", "omni"), default_vp="omni")
    assert (s.roster, s.default_vp) == (("linus", "omni"), "omni")
    with pytest.raises(InvalidOperation, match="not in the roster"):
        await kernel.sessions.update_session(s.id, roster=("Linus",), default_vp="omni")
    with pytest.raises(InvalidOperation, match="foya vps add"):
        await kernel.sessions.update_session(s.id, roster=("Ghost",))


async def test_omni_is_stored_editable_and_kept_across_restarts(box: KernelBox) -> None:
    """Y10/Y11: Omni keeps id ``omni``; an edited soul is never overwritten at start-up."""
    (omni, *_rest) = await box.kernel.vps.list_vps()
    assert (omni.id, omni.soul, omni.builtin) == ("omni", OMNI.soul, True)
    await box.kernel.vps.edit_vp("omni", soul="You are my own Omni.")
    kernel = await box.restart()
    (omni, *_rest) = await kernel.vps.list_vps()
    assert omni.soul == "You are my own Omni." and omni.id == "omni"


async def test_an_untouched_old_default_is_upgraded_at_start(box: KernelBox) -> None:
    """Y11: a stored Omni exactly equal to an older shipped default becomes the current one."""
    name, display, soul = OMNI_PAST_DEFAULTS[0]
    db = box.home.database
    await box.kernel.close()
    con = sqlite3.connect(db)
    con.execute("UPDATE vp_row SET name=?, display_name=?, soul=? WHERE id='omni'", (name, display, soul))
    con.commit()
    con.close()
    box.kernel = box._build()
    (omni, *_rest) = await box.kernel.vps.list_vps()
    assert omni.soul == OMNI.soul and omni.display_name == OMNI.display_name
    await box.kernel.close()
    con = sqlite3.connect(db)
    con.execute("UPDATE vp_row SET soul=? WHERE id='omni'", (soul + " Also: be brief.",))
    con.commit()
    con.close()
    box.kernel = box._build()
    (omni, *_rest) = await box.kernel.vps.list_vps()
    assert omni.soul == soul + " Also: be brief."


async def test_schema_1_database_gains_the_vp_library_columns(box: KernelBox) -> None:
    """A database from before the VP library opens, keeps its VPs and gets version 2."""
    await box.kernel.vps.add_vp(_vp("Linus"))
    await box.kernel.close()
    db = box.home.database
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE vp_row DROP COLUMN builtin")
    con.execute("ALTER TABLE vp_row DROP COLUMN color")
    con.execute("DELETE FROM vp_row WHERE id='omni'")
    con.execute("UPDATE meta_row SET value='1' WHERE key='schema_version'")
    con.commit()
    con.close()
    box.kernel = box._build()
    assert stored_version(db) == SCHEMA_VERSION
    assert [v.name for v in await box.kernel.vps.list_vps()] == ["Omni", "Linus"]
    assert list(box.home.backups.glob("foya-schema1-*.sqlite3"))
