"""``INK_CONTEXT_WINDOW`` as current Ink reads it (spec §4.5, ``models.ts`` ``envInt``):
JavaScript's ``Number()``, a known window when finite and above 0 (the trigger then
``min(floor(0.85·W), W - 32768)``, tiny windows ``max(1, floor(0.85·W))``), else ignored with
Ink's note, which the chat shows once."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.start import load_chat
from ink_tui.agent.windows import context_window, env_window
from ink_tui.session.reading.jsvalues import string_to_number
from ink_tui.session.rules.modelref import ModelRef

CLAUDE = ModelRef("anthropic", "claude-haiku-4-5")  # Ink's static table: 200,000


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1e5", 100_000),
        (" 100000 ", 100_000),
        ("\u00a0\t100000\ufeff\u2028", 100_000),  # JavaScript's white space, trimmed
        ("0x10", 16),
        ("0XfF", 255),
        ("0o17", 15),
        ("0b101", 5),
        ("+5", 5),
        ("5.", 5),
        (".5", 0.5),
        ("100000.5", 100_000.5),
        ("", 0),
        ("   ", 0),
        ("Infinity", math.inf),
        ("-Infinity", -math.inf),
        ("1e400", math.inf),
    ],
)
def test_number_parses_as_javascript_does(text: str, number: float) -> None:
    assert string_to_number(text) == number


@pytest.mark.parametrize(
    "text",
    [
        "1_000",
        "nan",
        "NaN",
        "inf",
        "infinity",
        "-0x10",
        "0x",
        "0x1g",
        "1e",
        "e5",
        ".",
        "١٢",
        "12px",
    ],
)
def test_number_is_nan_where_javascript_s_is(text: str) -> None:
    assert math.isnan(string_to_number(text))


def note(shown: str) -> str:
    return f"ink: ignoring invalid INK_CONTEXT_WINDOW={shown} (not a positive number)"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("nope", '"nope"'),
        ("", '""'),
        ("0", '"0"'),
        ("-5", '"-5"'),
        ("Infinity", '"Infinity"'),
        ('a "quoted"\\ value\n', '"a \\"quoted\\"\\\\ value\\n"'),  # JSON.stringify
    ],
)
def test_an_invalid_value_is_ignored_with_inks_note(raw: str, shown: str) -> None:
    assert env_window(raw) == (None, note(shown))
    window = context_window(CLAUDE, {"INK_CONTEXT_WINDOW": raw, "HOME": "/nonexistent"})
    assert (window.tokens, window.source, window.note) == (200_000, "static", note(shown))


@pytest.mark.parametrize(
    ("raw", "window", "trigger"),
    [
        ("1e5", 100_000, 67_232),  # min(85,000, 100,000 - 32,768)
        ("100000.5", 100_000.5, 67_232.5),  # used as it is, as Ink does
        ("0xEA60", 60_000, 27_232),
        ("  20000  ", 20_000, 17_000),  # tiny: max(1, floor(0.85 W))
        ("1", 1, 1),
    ],
)
def test_a_valid_value_is_a_known_window(raw: str, window: float, trigger: float) -> None:
    found = context_window(None, {"INK_CONTEXT_WINDOW": raw})
    assert (found.tokens, found.source, found.note) == (window, "env", None)
    assert found.trigger == trigger


def big_session(kit: Any) -> Path:
    measured = {"inputTokens": 30_000, "outputTokens": 500}
    path, _ = kit.session(
        {"role": "user", "content": "A" * 70_000},
        kit.assistant("first answer"),
        {"role": "user", "content": "B" * 80_000},
        {**kit.assistant("second answer"), "usage": measured},
    )
    return path


async def test_a_hex_window_counts_as_known_and_compacts(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(text="## Goal\nRead the notes.", usage=(900, 80))
    fake.anthropic(text="Continuing.")
    sink = chat_kit.sink()
    env = {**fake.env(), "INK_CONTEXT_WINDOW": "0xEA60"}  # 60,000: trigger 27,232
    engine = chat_kit.engine(load_chat(big_session(chat_kit)), sink, env=env)
    await engine.send("next")
    assert any("27,232 for a 60,000-token window" in said for said in sink.notices)
    chat_kit.check(engine)


async def test_the_chat_shows_inks_note_once(chat_kit: Any) -> None:
    fake = chat_kit.fake
    fake.anthropic(text="One.")
    fake.anthropic(text="Two.")
    path, _ = chat_kit.session({"role": "user", "content": "hi"}, chat_kit.assistant("hello"))
    sink = chat_kit.sink()
    env = {**fake.env(), "INK_CONTEXT_WINDOW": "128k"}
    engine = chat_kit.engine(load_chat(path), sink, env=env)
    await engine.send("first")
    await engine.send("second")
    assert sink.notices.count(note('"128k"')) == 1
    assert len(fake.requests) == 2  # the value is ignored: nothing else changes
    chat_kit.check(engine)
