"""Automatic compaction before a turn, at Ink's trigger (against the local fake model server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ink_tui.agent.compact import SUMMARIZATION_SYSTEM_PROMPT
from ink_tui.agent.start import load_chat
from ink_tui.session.reading.records import COMPACTION_SUMMARY_PREFIX

# INK_CONTEXT_WINDOW=60000 is a known window: trigger min(51,000, 60,000 - 32,768) = 27,232
SMALL_WINDOW = {"INK_CONTEXT_WINDOW": "60000"}


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()[1:]]


def big_session(kit: Any) -> Path:
    """The last reply measured 30,500 tokens of context (Ink's estimate anchors on it); the
    newest 20k tokens (chars / 4) are kept verbatim, the first exchange is summarised."""
    measured = {"inputTokens": 30_000, "outputTokens": 500}
    path, _ = kit.session(
        {"role": "user", "content": "A" * 70_000},
        kit.assistant("first answer"),
        {"role": "user", "content": "B" * 80_000},
        {**kit.assistant("second answer"), "usage": measured},
    )
    return path


async def test_a_turn_over_the_trigger_compacts_first(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(text="## Goal\nRead the notes.", usage=(900, 80))
    fake.anthropic(text="Continuing.")
    sink = chat_kit.sink()
    path = big_session(chat_kit)
    engine = chat_kit.engine(load_chat(path), sink, env={**fake.env(), **SMALL_WINDOW})
    await engine.send("next")
    assert any("27,232 for a 60,000-token window" in note for note in sink.notices)
    assert any(note.startswith("compacted: ~") for note in sink.notices)
    summariser, turn = fake.requests[-2:]
    assert summariser.body["system"] == SUMMARIZATION_SYSTEM_PROMPT
    summary = f"{COMPACTION_SUMMARY_PREFIX}\n\n## Goal\nRead the notes."
    assert turn.body["messages"][0] == {"role": "user", "content": summary}
    kinds = [(r["type"], r.get("message", {}).get("role")) for r in records(path)[-3:]]
    assert kinds == [("compaction", None), ("message", "user"), ("message", "assistant")]
    chat_kit.check(engine)


async def test_a_turn_under_the_trigger_does_not_compact(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(text="Continuing.")
    sink = chat_kit.sink()
    path = big_session(chat_kit)
    env = {**fake.env(), "INK_CONTEXT_WINDOW": "1000000"}  # trigger 850,000
    engine = chat_kit.engine(load_chat(path), sink, env=env)
    await engine.send("next")
    assert len(fake.requests) == 1
    assert not any("compact" in note for note in sink.notices)
    assert all(r["type"] == "message" for r in records(path))


async def test_a_failed_automatic_compaction_still_sends_the_message(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(text="## Goal\nRead tw", stop="max_tokens")
    fake.anthropic(text="Continuing.")
    sink = chat_kit.sink()
    path = big_session(chat_kit)
    before = len(records(path))
    engine = chat_kit.engine(load_chat(path), sink, env={**fake.env(), **SMALL_WINDOW})
    await engine.send("next")
    assert any("token cap" in note and "without compacting" in note for note in sink.notices)
    after = records(path)
    assert len(after) == before + 2 and all(r["type"] == "message" for r in after)
    chat_kit.check(engine)


async def test_a_provider_error_in_the_summary_still_sends_the_message(chat_kit: Any) -> None:
    """The context is over the trigger, so the summary request is the one most likely to fail
    (too long for the model): the failure is a note and the user's message still goes."""
    fake = chat_kit.fake
    fake.error(400, {"type": "error", "error": {"type": "x", "message": "prompt is too long"}})
    fake.anthropic(text="Continuing.")
    sink = chat_kit.sink()
    path = big_session(chat_kit)
    before = len(records(path))
    engine = chat_kit.engine(load_chat(path), sink, env={**fake.env(), **SMALL_WINDOW})
    outcome = await engine.send("next")
    assert outcome.status == "done"
    assert any(
        note.startswith("compaction: ")
        and "prompt is too long" in note
        and "without compacting" in note
        for note in sink.notices
    )
    after = records(path)
    assert len(after) == before + 2 and all(r["type"] == "message" for r in after)
    chat_kit.check(engine)
