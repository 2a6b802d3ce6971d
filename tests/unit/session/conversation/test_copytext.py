"""Ink's ``/copy`` rule (spec §7, ``commands.ts@3c659997``): the newest assistant message of the
context whose text blocks, joined with no separator and trimmed, are not empty; thinking and
tool calls are left out; nothing of the kind: Ink's ``No agent messages to copy yet.``"""

from __future__ import annotations

from typing import Any

from ink_tui.session import open_session
from ink_tui.session.conversation.copytext import (
    COPIED,
    NOTHING_TO_COPY,
    agent_text,
    last_agent_text,
    session_agent_text,
)


def reply(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": list(blocks),
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "end_turn",
    }


def text(value: Any) -> dict[str, Any]:
    return {"type": "text", "text": value}


THINKING = {"type": "thinking", "thinking": "let me think about the answer"}
CALL = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "ls"}}
USER = {"role": "user", "content": "what now?"}
RESULTS = {
    "role": "toolResult",
    "results": [{"toolCallId": "c1", "toolName": "bash", "content": "a.txt", "isError": False}],
}


def test_ink_s_words_are_kept_exactly() -> None:
    assert COPIED == "Copied last agent message to clipboard"
    assert NOTHING_TO_COPY == "No agent messages to copy yet."


def test_text_blocks_join_with_no_separator_and_are_trimmed_without_thinking_or_calls() -> None:
    message = reply(THINKING, text("  First part,"), CALL, text(" second part.\n\n"))
    assert agent_text(message) == "First part, second part."


def test_the_newest_reply_with_text_wins_over_later_tool_only_replies() -> None:
    messages = [
        USER,
        reply(text("the older answer")),
        USER,
        reply(text("the answer to copy"), CALL),
        RESULTS,
        reply(THINKING, CALL),  # only calls a tool: passed over
        RESULTS,
        reply(text(" \n\t\u3000")),  # blank once trimmed (JavaScript's whitespace): passed over
    ]
    assert last_agent_text(messages) == "the answer to copy"


def test_no_agent_message_with_text_gives_none() -> None:
    assert last_agent_text([]) is None
    assert last_agent_text([USER, reply(CALL), RESULTS, reply(THINKING)]) is None
    assert last_agent_text([{"role": "user", "content": [text("only the user")]}]) is None


def test_odd_shapes_are_passed_over_and_text_joins_as_javascript_does() -> None:
    odd: list[Any] = [
        None,
        "a string in a retained tail",
        {"role": "assistant", "blocks": "not a list"},
        {"role": "assistant"},
        reply(None, "x", text("kept")),  # blocks that are not objects are skipped
    ]
    assert last_agent_text(odd) == "kept"
    assert agent_text(reply(text(1), text(None), text(" two"))) == "1 two"


def test_it_reads_the_context_ink_rebuilds_after_a_compaction(sf: Any) -> None:
    """The answer before a compaction is out of the context unless the retained tail holds it;
    the summary (a user message) is never copied."""
    compaction = sf.entry(
        "compaction",
        "c1",
        "a1",
        summary="the summary",
        retainedTail=[reply(text("kept in the tail"))],
        tokensBefore=10,
    )
    path = sf.write(
        sf.user("u1", None, "first"),
        sf.assistant("a1", "u1", "dropped by the compaction"),
        compaction,
        sf.user("u2", "c1", "after"),
    )
    session = open_session(path, warn=None)
    assert session_agent_text(session) == "kept in the tail"
    assert session_agent_text(session, "a1") == "dropped by the compaction"  # another branch point
    assert session_agent_text(session, "u1") is None
