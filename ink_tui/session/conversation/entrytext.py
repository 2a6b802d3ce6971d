"""One line saying what a session entry is: a prompt's or reply's first line, else its kind.

Used by the branches list for each leaf and its last prompt. The text is session text (untrusted):
callers render it through the safe door.
"""

from __future__ import annotations

from ink_tui.humanize import cut
from ink_tui.session.reading.recordtypes import EntryRecord, json_list, json_object, read_message
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


def short_time(timestamp: object) -> str:
    """``2026-10-05T12:34:56.789Z`` as ``2026-10-05 12:34`` (anything else cut as is)."""
    text = str(timestamp)
    if len(text) >= 16 and text[10] == "T":
        return f"{text[:10]} {text[11:16]}"
    return text[:16]


def _message_summary(value: object) -> str:
    message = read_message(value)
    if message is None:
        return "message"
    role = message["role"]
    if role == "user":
        content = message.get("content")
        text = first_line(content_text(content, show_non_string_text=True))
        if text:
            return text
        has_image = any(
            json_object(block) and block.get("type") == "image" for block in json_list(content)
        )
        return "(image)" if has_image else "(empty prompt)"
    if role == "assistant":
        blocks = json_list(message.get("blocks"))
        text = first_line(content_text(blocks, show_non_string_text=True))
        if text:
            return text
        calls = [
            str(block.get("name", "?"))
            for block in blocks
            if json_object(block) and block.get("type") == "toolCall"
        ]
        if calls:
            return first_line("calls " + ", ".join(calls))
        return "(thinking)" if blocks else "(empty reply)"
    if role == "toolResult":
        results = [r for r in json_list(message.get("results")) if json_object(r)]
        names = [str(r.get("toolName", "?")) for r in results]
        failed = any(r.get("isError") is True for r in results)
        text = "result of " + (", ".join(names) or "nothing")
        return first_line(text + (" (error)" if failed else ""))
    return first_line(f"{role} message")


def record_summary(kind: str, record: EntryRecord) -> str:
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
