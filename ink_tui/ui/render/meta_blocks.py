"""What the replay pane shows for the rows that are not a message's text or a tool call:
compactions (with their retained tail), branch summaries, the small metadata entries, model
switches, and oddities (a shape Ink's code trips on, shown as the file holds it)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding

from ink_tui.humanize import plural
from ink_tui.secrets import masked_text
from ink_tui.session.conversation.view import Item
from ink_tui.session.reading.recordtypes import json_list
from ink_tui.session.reading.shapes import MISSING, list_items, not_a_list, not_an_object
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import markdown, plain

__all__ = ["meta_block", "retained_line"]


def retained_line(message: Any) -> str:
    """One line naming a message of a compaction's retained tail: its role and what it holds."""
    odd = not_an_object("message", message)
    if odd is not None:
        return f"⚠ {odd}"
    role = str(message.get("role", "?"))
    if role == "assistant":
        parts = []
        for block in list_items(message.get("blocks")):
            if isinstance(block, dict) and block.get("type") == "toolCall":
                parts.append(f"→ {block.get('name')}")
            elif isinstance(block, dict) and block.get("type") == "text":
                line = str(block.get("text", "")).strip().split("\n", 1)[0]
                parts.append(masked_text(line)[:60])  # masked before it is cut
        return f"assistant: {' · '.join(parts)}"
    if role == "toolResult":
        names = [
            str(r.get("toolName"))
            for r in list_items(message.get("results"))
            if isinstance(r, dict)
        ]
        return f"tool result: {', '.join(names)}"
    content = message.get("content")
    text = (
        content
        if isinstance(content, str)
        else " ".join(str(b.get("text", "")) for b in list_items(content) if isinstance(b, dict))
    )
    return f"{role}: {masked_text(text.strip().split(chr(10), 1)[0])[:70]}"


def meta_block(item: Item) -> RenderableType | None:
    """The replay's block for a metadata row (``None`` for any other kind)."""
    kind = item.kind
    if kind == "oddity":
        return plain(f"⚠ {item.text} (as the file holds it)", palette.current.error)
    if kind == "compaction":
        record = item.entry.record
        kept = record.get("retainedTail", MISSING)
        odd = not_a_list("retained tail", kept)
        count = len(json_list(kept))
        kept_text = f"kept {plural(count, 'message')}" if odd is None else f"⚠ {odd}"
        header = plain(
            f"⟳ compaction · {record.get('tokensBefore', '?')} tokens before · "
            f"{kept_text} as the retained tail",
            f"bold {palette.current.warning}",
        )
        kept_lines = [plain(retained_line(message), "dim") for message in list_items(kept)]
        return Group(
            header,
            Padding(markdown(item.text), (0, 0, 0, 2)),
            *(
                [plain("  retained tail (sent after the summary):", "dim italic")]
                if kept_lines
                else []
            ),
            *(Padding(line, (0, 0, 0, 4)) for line in kept_lines),
        )
    if kind == "branch_summary":
        header = plain(
            "⑂ branch summary (a branch that was left)", f"bold {palette.current.warning}"
        )
        return Group(header, Padding(markdown(item.text), (0, 0, 0, 2)))
    if kind == "thinking_level":
        return plain(f"· thinking → {item.text}", "dim")
    if kind == "model_change":
        return plain(f"· model → {item.text}", "dim")
    if kind == "session_info":
        return plain(f"· session named: {item.text}" if item.text else "· name cleared", "dim")
    if kind == "label":
        return plain(f"· label {item.text}" if item.text else "· label removed", "dim")
    return None
