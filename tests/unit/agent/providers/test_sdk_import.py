"""The provider SDKs (a second or two to import) are imported in a worker thread, never on the
event loop: the first message of a chat must not freeze the app."""

from __future__ import annotations

import builtins
import threading
from types import ModuleType
from typing import Any

import pytest

import ink_tui.agent.providers.sdk as sdk
from ink_tui.agent.providers import stream_turn
from ink_tui.session.rules.modelref import ModelRef

WIRES = pytest.mark.parametrize(
    ("provider", "module"), [("anthropic", "anthropic"), ("openai", "openai")]
)


@WIRES
async def test_the_first_request_imports_its_sdk_off_the_event_loop(
    fake_llm: Any, monkeypatch: pytest.MonkeyPatch, provider: str, module: str
) -> None:
    loop_thread = threading.current_thread()
    imported: list[tuple[str, threading.Thread]] = []  # by the loader, and where
    statements: list[tuple[str, threading.Thread]] = []  # `import x` statements, and where
    preload = sdk.preload_sdk
    real_import = builtins.__import__

    def recording_preload(name: Any) -> ModuleType:
        imported.append((name, threading.current_thread()))
        return preload(name)

    def recording_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] in ("anthropic", "openai"):
            statements.append((name, threading.current_thread()))
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(sdk, "_already_loaded", lambda name: None)  # as if not imported yet
    monkeypatch.setattr(sdk, "preload_sdk", recording_preload)
    monkeypatch.setattr(builtins, "__import__", recording_import)
    if provider == "anthropic":
        fake_llm.anthropic(text="hello")
    else:
        fake_llm.chat(text="hello")
    reply = await stream_turn(
        ModelRef(provider, "m"),
        "system",
        [{"role": "user", "content": "hi"}],
        (),
        on_event=lambda event: None,
        env=fake_llm.env(),
    )
    assert reply["blocks"] == [{"type": "text", "text": "hello"}]
    assert [name for name, _ in imported] == [module]
    assert all(thread is not loop_thread for _, thread in imported)
    assert [name for name, thread in statements if thread is loop_thread] == []


async def test_a_module_already_loaded_is_returned_without_a_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import anthropic

    monkeypatch.setattr(sdk, "preload_sdk", lambda name: pytest.fail("imported again"))
    assert await sdk.load_sdk("anthropic") is anthropic


def test_a_module_still_being_imported_is_not_taken_as_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    half = ModuleType("anthropic")
    half.__spec__ = type("Spec", (), {"_initializing": True})()  # type: ignore[assignment]
    monkeypatch.setitem(__import__("sys").modules, "anthropic", half)
    assert sdk._already_loaded("anthropic") is None
