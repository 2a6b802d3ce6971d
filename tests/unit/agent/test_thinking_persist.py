"""A startup thinking level (``--thinking``, or ``INK_THINKING`` through the same option) that
differs from the level a resume restores is written as a ``thinkingLevelChange`` with the first
record, as a ``--model`` override is written as a ``session_model``: the next resume (Ink's or
ink-tui's) then restores the level the conversation went on with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ink_tui.agent.start import load_chat, new_chat
from ink_tui.session import open_session
from ink_tui.session.conversation.tree import thinking_level


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _types(path: Path) -> list[str]:
    return [record["type"] for record in _records(path)]


def _session(kit: Any, *, level: str | None = None) -> Path:
    path, _ = kit.session({"role": "user", "content": "earlier"}, kit.assistant("ok"))
    if level is not None:
        from ink_tui.session.writing.writer import SessionWriter

        writer = SessionWriter.for_session(open_session(path, warn=None))
        writer.append_entry("thinkingLevelChange", {"thinkingLevel": level})
    return path


async def test_a_different_startup_level_is_written_before_the_first_message(
    chat_kit: Any,
) -> None:
    path = _session(chat_kit)
    before = len(_records(path))
    chat_kit.fake.anthropic(text="thought hard")
    engine = chat_kit.engine(load_chat(path, thinking="high"), chat_kit.sink())
    await engine.send("think")
    new = _records(path)[before:]
    assert [r["type"] for r in new] == ["thinkingLevelChange", "message", "message"]
    assert new[0]["thinkingLevel"] == "high"
    assert new[1]["parentId"] == new[0]["id"]  # an entry of the branch, as /think writes it
    assert thinking_level(open_session(path, warn=None)) == "high"
    assert load_chat(path).thinking == "high"  # a resume without --thinking keeps it
    chat_kit.check(engine)
    chat_kit.fake.anthropic(text="again")
    await engine.send("and again")
    assert _types(path).count("thinkingLevelChange") == 1  # written once


async def test_a_startup_level_equal_to_the_restored_one_writes_nothing(chat_kit: Any) -> None:
    for restored, wanted in (("high", "high"), (None, "medium")):  # medium: the default
        path = _session(chat_kit, level=restored)
        chat_kit.fake.anthropic(text="ok")
        engine = chat_kit.engine(load_chat(path, thinking=wanted), chat_kit.sink())
        await engine.send("hi")
        assert _types(path).count("thinkingLevelChange") == (1 if restored else 0)


async def test_slash_think_replaces_the_pending_startup_level(chat_kit: Any) -> None:
    path = _session(chat_kit, level="low")
    engine = chat_kit.engine(load_chat(path, thinking="high"), chat_kit.sink())
    assert await engine.set_thinking("minimal")
    levels = [r["thinkingLevel"] for r in _records(path) if r["type"] == "thinkingLevelChange"]
    assert levels == ["low", "minimal"]


async def test_a_new_session_records_a_startup_level_after_its_header(chat_kit: Any) -> None:
    chat_kit.fake.anthropic(text="hello")
    start = new_chat(str(chat_kit.work), model=chat_kit.model(chat_kit.ANTHROPIC), thinking="max")
    engine = chat_kit.engine(start, chat_kit.sink())
    await engine.send("start")
    assert engine.store.path is not None
    records = _records(engine.store.path)
    assert [r["type"] for r in records] == ["session", "thinkingLevelChange", "message", "message"]
    assert records[1]["thinkingLevel"] == "max" and records[1]["parentId"] is None
    assert load_chat(engine.store.path).thinking == "max"
