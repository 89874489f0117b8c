"""``foya search`` as a newcomer runs it: a real subprocess on a real data dir."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from foya_desktop.core.messages import Message, TextPart
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from tests.cli.test_cli import foya
from tests.helpers.fake_keyring import MemoryKeyring


async def _seed(home: Path, folder: Path) -> tuple[str, str]:
    kernel = build_kernel(Home(home), keystore=KeyStore(MemoryKeyring()))
    try:
        bound = await kernel.sessions.create_session(title="Bound work", workdir=str(folder))
        loose = await kernel.sessions.create_session(title="Loose")
        await kernel.store.import_messages(bound.id, [Message("m1", bound.id, "user", (TextPart("fix parse_args bug"),))])
        await kernel.store.import_messages(loose.id, [Message("m2", loose.id, "assistant",
                                                              (TextPart("parse_args explained"),), speaker="omni")])
        return bound.id, loose.id
    finally:
        await kernel.close()


def test_foya_search_prints_hits_newest_first_and_filters_by_project(tmp_path: Path) -> None:
    home, folder = tmp_path / "home", tmp_path / "proj"
    folder.mkdir()
    bound, loose = asyncio.run(_seed(home, folder))
    out = foya(home, "search", "parse_args")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{loose}  m2") and lines[1].startswith(f"{bound}  m1")
    as_json = json.loads(foya(home, "search", "parse_args", "--project", str(folder.resolve()), "--json").stdout)
    assert [(h["session_id"], h["message_id"]) for h in as_json] == [(bound, "m1")]
    assert json.loads(foya(home, "search", "parse", "--speaker", "Omni", "--json").stdout)[0]["message_id"] == "m2"
    missing = foya(home, "search", "nothing-like-this")
    assert missing.returncode == 1 and "No messages match" in missing.stdout
    bad = foya(home, "search", "x", "--project", "nope")
    assert bad.returncode == 1 and "No project 'nope'" in bad.stderr and "Traceback" not in bad.stderr
    bad_day = foya(home, "search", "parse", "--since", "yesterday")
    assert bad_day.returncode == 1 and "--since takes a day" in bad_day.stderr
