"""One line saying what a session entry is: a prompt's or reply's first line, else its kind.

Used by the branches list for each leaf and its last prompt. The text is session text (untrusted):
callers render it through the safe door.
"""

from __future__ import annotations

from typing import Any

from ink_tui.humanize import cut
from ink_tui.session.rules.content import content_text

__all__ = ["SUMMARY_WIDTH", "first_line", "record_summary", "short_time"]

SUMMARY_WIDTH = 80


def first_line(text: str, width: int = SUMMARY_WIDTH) -> str:
    """The first non-blank line of ``text``, stripped and cut to ``width`` cells."""
    for line in text.split("\n"):
        line = line.strip()
        if line:
            return cut(line, width)
    return ""


def short_time(timestamp: Any) -> str:
    """``2026-10-05T12:34:56.789Z`` as ``2026-10-05 12:34`` (anything else cut as is)."""
    text = str(timestamp)
    if len(text) >= 16 and text[10] == "T":
        return f"{text[:10]} {text[11:16]}"
    return text[:16]


def _message_summary(message: Any) -> str:
    if not isinstance(message, dict):
        return "message"
    role = message.get("role")
    if role == "user":
        content = message.get("content")
        text = first_line(content_text(content, show_non_string_text=True))
        if text:
            return text
        has_image = isinstance(content, list) and any(
            isinstance(block, dict) and block.get("type") == "image" for block in content
        )
        return "(image)" if has_image else "(empty prompt)"
    if role == "assistant":
        blocks = message.get("blocks")
        blocks = blocks if isinstance(blocks, list) else []
        text = first_line(content_text(blocks, show_non_string_text=True))
        if text:
            return text
        calls = [
            str(block.get("name", "?"))
            for block in blocks
            if isinstance(block, dict) and block.get("type") == "toolCall"
        ]
        if calls:
            return first_line("calls " + ", ".join(calls))
        return "(thinking)" if blocks else "(empty reply)"
    if role == "toolResult":
        results = message.get("results")
        results = results if isinstance(results, list) else []
        names = [str(r.get("toolName", "?")) for r in results if isinstance(r, dict)]
        failed = any(isinstance(r, dict) and r.get("isError") is True for r in results)
        text = "result of " + (", ".join(names) or "nothing")
        return first_line(text + (" (error)" if failed else ""))
    return first_line(f"{role} message")


def record_summary(kind: str, record: dict[str, Any]) -> str:
    """One line saying what a record is: the prompt's or reply's first line, else its type."""
    if kind == "message":
        return _message_summary(record.get("message"))
    if kind == "compaction":
        return first_line(f"compaction ({record.get('tokensBefore', '?')} tokens before)")
    if kind == "branchSummary":
        return first_line("branch summary: " + str(record.get("summary", "")))
    if kind == "thinkingLevelChange":
        return first_line(f"thinking level: {record.get('thinkingLevel')}")
    if kind == "session_info":
        name = str(record.get("name", "")).strip()
        return first_line(f"name: {name}" if name else "name cleared")
    if kind == "label":
        return first_line(f"label {record.get('label')!s} on {record.get('targetId')!s}")
    return kind
