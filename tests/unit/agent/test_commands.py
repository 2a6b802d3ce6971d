"""What the chat pane does with a typed line (Ink's ``parseCommand`` rule), how it explains a
model reference Ink reads differently from what was probably meant, and why ``/compact`` has
nothing to do."""

from __future__ import annotations

import pytest

from ink_tui.agent.commands import COMMANDS, Command, parse_command, unknown_command
from ink_tui.agent.compact import KEEP_RECENT_TOKENS, nothing_to_compact, plan_compaction
from ink_tui.agent.providers.model import reading_note
from ink_tui.session.conversation.context import frame_summary
from ink_tui.session.reading.records import COMPACTION_SUMMARY_PREFIX


@pytest.mark.parametrize(
    ("typed", "command"),
    [
        ("hello", None),
        (" /compact", None),  # a leading space makes it text, as in Ink
        ("/compact", Command("compact", "")),
        ("/model  openai/gpt-4.1 ", Command("model", "openai/gpt-4.1")),
        ("/model\topenai/gpt-4.1", Command("model", "openai/gpt-4.1")),
        ("/model \ufeff", Command("model", "")),  # JavaScript's trim takes U+FEFF
        ("/think high", Command("think", "high")),
        ("/usr/bin is missing", Command("usr/bin", "is missing")),
        ("/", Command("", "")),
    ],
)
def test_parse_command_follows_ink(typed: str, command: Command | None) -> None:
    assert parse_command(typed) == command


def test_an_unknown_command_lists_the_known_ones_and_how_to_send_text() -> None:
    line = unknown_command("usr/bin")
    assert line.startswith('unknown command "/usr/bin", nothing was sent.')
    assert all(usage in line for usage in COMMANDS.values())
    assert "begin it with a space" in line


@pytest.mark.parametrize(
    ("typed", "note"),
    [
        (
            "gpt-4.1",
            "gpt-4.1 has no provider prefix: Ink reads a bare id as an Anthropic model "
            "(anthropic/gpt-4.1); for another provider name it, e.g. openai/gpt-4.1",
        ),
        (
            "glm-4.6",
            "glm-4.6 has no provider prefix: Ink reads glm-* as a Z.ai model (zai/glm-4.6); "
            "anthropic/glm-4.6 would send it to Anthropic's API",
        ),
        ("openai/gpt-4.1", None),
        ("OpenAI/gpt-5", None),
        ("anthropic/claude-sonnet-4-5", None),
        (
            "openai/",
            "openai/ names no model: Ink reads it as an Anthropic model id (anthropic/openai/)",
        ),
    ],
)
def test_reading_note(typed: str, note: str | None) -> None:
    assert reading_note(typed) == note


def test_reading_note_for_an_unknown_prefix_names_the_providers() -> None:
    note = reading_note("gemini/pro")
    assert note is not None
    assert note.startswith("gemini before the / is not a provider Ink knows (anthropic, openai, ")
    assert note.endswith("it reads gemini/pro as an Anthropic model id (anthropic/gemini/pro)")


def _user(tokens: int) -> dict[str, object]:
    return {"role": "user", "content": "x" * 4 * tokens}


def _assistant(tokens: int) -> dict[str, object]:
    return {"role": "assistant", "blocks": [{"type": "text", "text": "y" * 4 * tokens}]}


def test_nothing_to_compact_says_the_context_is_within_what_ink_keeps() -> None:
    messages = [_user(9_000), _assistant(8_000)]
    assert plan_compaction(messages) is None
    assert nothing_to_compact(messages) == (
        "the context is about 17k tokens and Ink keeps the newest 20k verbatim: nothing older "
        "to summarise"
    )
    small = [_user(3), _assistant(2_400)]
    assert "about 2.4k tokens" in nothing_to_compact(small)


def test_nothing_to_compact_after_a_summary_counts_what_follows_it() -> None:
    messages = [frame_summary(COMPACTION_SUMMARY_PREFIX, "s" * 400_000), _user(500), _assistant(1)]
    assert plan_compaction(messages) is None
    assert nothing_to_compact(messages).startswith(
        "the context since the last compaction is about 501 tokens"
    )


def test_nothing_to_compact_when_one_message_is_bigger_than_what_ink_keeps() -> None:
    messages = [_user(KEEP_RECENT_TOKENS + 5_000), _assistant(10)]
    assert plan_compaction(messages) is None
    assert nothing_to_compact(messages) == (
        "the context is about 25k tokens, but the newest 20k that Ink keeps verbatim reach back "
        "to the first message (a cut must fall before a user or assistant message): nothing "
        "older to summarise"
    )
