"""What Ink's ``/copy`` copies: the last agent message of the context (spec §7).

Ink's ``/copy`` (``commands.ts@3c659997``) walks the live context (``buildContext().messages``
plus the current run) from the newest message back and takes the first ``assistant`` message
whose ``text`` blocks, joined with no separator and trimmed (JavaScript's ``trim()``), are not
empty: thinking and tool calls are left out, and a reply that only calls tools is passed over.
It copies that trimmed text and says ``Copied last agent message to clipboard``; with none it
says ``No agent messages to copy yet.``

The rule is :func:`last_agent_text`, over any list of context messages: the copy menu (``y``)
and the chat pane's ``/copy`` both use it. A context message that Ink's code would trip over (a
``retainedTail`` item that is not an object, ``blocks`` that is not a list, a block that is not
an object) is passed over here; a ``text`` that is not a string joins as JavaScript's ``join``
shows it (``null`` as nothing, ``1`` as ``1``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ink_tui.session.conversation.context import build_context
from ink_tui.session.reading.jsvalues import js_joined
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.reading.shapes import MISSING

__all__ = ["COPIED", "NOTHING_TO_COPY", "agent_text", "last_agent_text", "session_agent_text"]

COPIED: Final = "Copied last agent message to clipboard"
"""Ink's words when ``/copy`` copied."""
NOTHING_TO_COPY: Final = "No agent messages to copy yet."
"""Ink's words when the context holds no agent message with text."""


def agent_text(message: Any) -> str:
    """An assistant message's text as ``/copy`` takes it: its ``text`` blocks joined with no
    separator, trimmed as JavaScript trims; ``""`` for any other message (or shape)."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return ""
    blocks = message.get("blocks")
    if not isinstance(blocks, list):
        return ""
    joined = "".join(
        js_joined(block.get("text", MISSING))
        for block in blocks
        if isinstance(block, dict) and block.get("type") == "text"
    )
    return joined.strip(JS_WHITESPACE)


def last_agent_text(messages: Sequence[Any]) -> str | None:
    """Ink's ``/copy`` over ``messages`` (oldest first): the newest assistant message's
    :func:`agent_text` that is not empty; ``None`` when there is none (Ink says
    :data:`NOTHING_TO_COPY`)."""
    for message in reversed(messages):
        text = agent_text(message)
        if text:
            return text
    return None


def session_agent_text(session: SessionFile, leaf_id: str | None = None) -> str | None:
    """:func:`last_agent_text` of the context Ink rebuilds for ``leaf_id`` (the session's leaf
    when ``None``). Raises ``SessionError`` where ``buildContext`` does."""
    return last_agent_text(build_context(session, leaf_id).messages)
