"""First run in the window, on the real kernel: with no connection the welcome page offers what
it found (a key variable in the environment, a local server answering — the fake provider on a
local port), one click creates the connection by reference; the connection dialog's Test
connection (a real request, the provider's error in plain words), model list and key-variable
placeholder; and the no-keyring warning said once with the environment route in the dialog."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import keyring.backends.fail as fail
import pytest

from foya_desktop.core.errors import KeyringUnavailable
from foya_desktop.core.model import Connection, ProviderKind
from foya_desktop.engine.bootstrap import build_kernel
from foya_desktop.engine.connections import discovery
from foya_desktop.engine.kernel import Kernel
from foya_desktop.providers.keys import KeyStore
from foya_desktop.store.home import Home
from foya_desktop.ui.dialogs.connections import ConnectionsDialog
from foya_desktop.ui.main_window import MainWindow
from tests.fakeprovider import FakeProviderServer, Fault, Reply
from tests.helpers.fake_keyring import MemoryKeyring
from tests.ui.conftest import _window
from tests.ui.helpers import visible_dialog, wait_until

SECRET = "sk-first-run-secret-value"



@pytest.fixture
async def empty_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       fake_provider: FakeProviderServer) -> AsyncIterator[tuple[Kernel, Home]]:
    """A real kernel with no connection; "the usual ports" are the fake provider's and a closed one."""
    for variable in [s.env for s in discovery.KNOWN_SERVICES]:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("DEEPSEEK_API_KEY", SECRET)
    monkeypatch.setattr(discovery, "LOCAL_SERVERS", (discovery.LocalServer("Ollama", fake_provider.port, "ollama"),))
    home = Home(tmp_path / "foya-home")
    kernel = build_kernel(home, keystore=KeyStore(MemoryKeyring()))
    yield kernel, home
    await kernel.close()


async def test_the_welcome_page_offers_what_it_found_and_one_click_creates_it(
        empty_kernel: tuple[Kernel, Home], shots: Path) -> None:
    kernel, home = empty_kernel
    async with _window(kernel) as window:
        offers = window.first_run
        await wait_until(lambda: len(offers.buttons) == 2, what="offers")
        texts = [b.text() for b in offers.buttons]
        assert texts[0] == "Use DeepSeek (DEEPSEEK_API_KEY) · deepseek-chat"
        assert texts[1].startswith("Use Ollama on port") and texts[1].endswith("· fake-model")
        window.grab().save(str(shots / "first-run-offers.png"))
        offers.buttons[1].click()  # the local server
        await wait_until(lambda: window.welcome.step_service.text().find("ready") >= 0 or not offers.isVisible(),
                         what="connection created")
        await window.runner.drain()
        assert [c.name for c in await kernel.connections.list_connections()] == ["ollama"]
        assert window.prefs.current.default_connection == "ollama" and not offers.isVisible()
    async with _window(kernel) as window:  # a second window: connections exist, nothing offered
        assert not window.first_run.isVisible()
    deepseek = next(o for o in await kernel.connections.offers() if o.source == "env")
    await kernel.connections.add_connection(deepseek.connection)
    with sqlite3.connect(home.root / "foya.sqlite3") as db:
        dump = "\n".join(db.iterdump())
    assert "DEEPSEEK_API_KEY" in dump and SECRET not in dump  # by reference, never the key


async def test_the_connection_dialog_tests_for_real_and_lists_models(
        real_window: MainWindow, real_kernel: Kernel, fake_provider: FakeProviderServer, shots: Path) -> None:
    dialog = ConnectionsDialog(real_kernel, real_window.runner, real_window)
    await dialog.refresh(select="fake")
    dialog.show()
    assert "OPENAI_API_KEY" in dialog.key_env.placeholderText()
    dialog.kind.setCurrentIndex(dialog.kind.findData(str(ProviderKind.ANTHROPIC)))
    assert "ANTHROPIC_API_KEY" in dialog.key_env.placeholderText()
    assert "OPENAI" not in dialog.key_env.placeholderText()
    dialog.kind.setCurrentIndex(dialog.kind.findData(str(ProviderKind.OPENAI)))
    dialog.model.clear()
    assert await dialog.list_models(dialog._form_for_request(), None) == ["fake-model"]  # type: ignore[arg-type]
    assert dialog.model.text() == "fake-model" and dialog.models.stringList() == ["fake-model"]
    dialog.model.setText("my-own-model")  # free entry kept
    fake_provider.script(Reply(text="p"))
    conn = dialog._form_for_request()
    assert conn is not None and conn.model == "my-own-model"
    assert await dialog.test(conn, None)
    assert "works" in dialog.message.text()
    assert fake_provider.requests[-1].body["model"] == "my-own-model"
    fake_provider.script(Reply(fault=Fault.status(401)))
    assert not await dialog.test(conn, "wrong-key")
    assert "The test failed" in dialog.message.text() and "wrong-key" not in dialog.message.text()
    dialog.grab().save(str(shots / "connections-test.png"))
    dialog.reject()
    dialog.deleteLater()


@pytest.fixture
async def no_keyring_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Kernel]:
    """A real kernel on a system whose keyring is keyring's own "fail" backend (no secure store)."""
    monkeypatch.setenv("FOYA_HOME", str(tmp_path / "foya-home"))
    kernel = build_kernel(Home(tmp_path / "foya-home"), keystore=KeyStore(fail.Keyring()))  # type: ignore[no-untyped-call]
    yield kernel
    await kernel.close()


async def test_without_a_keyring_the_dialog_says_it_once_and_offers_the_environment_route(
        no_keyring_kernel: Kernel, shots: Path) -> None:
    kernel = no_keyring_kernel
    assert kernel.connections.keyring_problem() is not None
    async with _window(kernel) as window:
        dialog = ConnectionsDialog(kernel, window.runner, window)
        dialog.show()
        await wait_until(dialog.isVisible)
        shown = [w.text() for w in dialog.findChildren(type(dialog.problem)) if w.isVisible()]
        assert sum("keyring" in t for t in shown) == 1  # once
        assert not dialog.api_key.isVisible()  # no second warning in the key field
        assert dialog.use_env_button.isVisible()
        dialog.kind.setCurrentIndex(dialog.kind.findData(str(ProviderKind.ANTHROPIC)))
        dialog.use_env_button.click()
        assert dialog.key_env.text() == "ANTHROPIC_API_KEY" and dialog.key_env.selectedText() == "ANTHROPIC_API_KEY"
        dialog.name.setText("claude")
        await dialog.save(dialog.form_connection(), None)  # type: ignore[arg-type]
        assert await kernel.connections.list_connections() == [
            Connection("claude", ProviderKind.ANTHROPIC, "https://api.anthropic.com", "", "ANTHROPIC_API_KEY")]
        dialog.grab().save(str(shots / "connections-no-keyring.png"))
        dialog.reject()
        dialog.deleteLater()


async def test_a_typed_key_without_a_keyring_is_refused_and_the_variable_route_works(
        no_keyring_kernel: Kernel) -> None:
    """The key field is off, so a key cannot be typed; the kernel itself refuses one anyway."""
    kernel = no_keyring_kernel
    async with _window(kernel) as window:
        window._actions["connections"].trigger()
        await wait_until(lambda: visible_dialog(ConnectionsDialog) is not None)
        dialog = visible_dialog(ConnectionsDialog)
        assert dialog is not None
        assert not dialog.api_key.isEnabled() and "No secure keyring" in dialog.problem.text()
        dialog.name.setText("local")
        dialog.kind.setCurrentIndex(0)
        dialog.base_url.setText("http://127.0.0.1:11434/v1")
        dialog.model.setText("qwen3")
        dialog.key_env.setText("LOCAL_KEY")
        await dialog.save(dialog.form_connection(), None)  # type: ignore[arg-type]
        assert await kernel.connections.list_connections() == [
            Connection("local", ProviderKind.OPENAI, "http://127.0.0.1:11434/v1", "qwen3", "LOCAL_KEY")]
        assert dialog.list.count() == 1
        with pytest.raises(KeyringUnavailable):
            await kernel.connections.add_connection(Connection("typed", ProviderKind.OPENAI, "http://127.0.0.1:1/v1", "m"),
                                        api_key="sk-typed")
        assert [c.name for c in await kernel.connections.list_connections()] == ["local"]
        dialog.reject()
        await window.runner.drain()
        assert window.pane.status.connection.findText("local") >= 0
