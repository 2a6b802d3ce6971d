"""What the chat pane shows for each message, for a streaming reply and for an approval.

Pure functions of Ink messages; all session and model text goes through ``render.safe``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from ink_tui.session.conversation.context import unframe_summary
from ink_tui.session.conversation.view import key_argument
from ink_tui.session.reading.shapes import MISSING, list_items, not_a_list, not_an_object
from ink_tui.session.rules.content import content_text
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import ansi_text, plain
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown

__all__ = ["RESULT_LINES", "diff_text", "message_block"]

RESULT_LINES = 8
Message = Mapping[str, Any]  # a message as the chat holds it: written or read (recordtypes)


def _cut(text: str, lines: int) -> str:
    parts = text.rstrip("\n").split("\n")
    if len(parts) <= lines:
        return "\n".join(parts)
    return "\n".join([*parts[:lines], f"… {len(parts) - lines} more lines"])


def call_line(block: Message) -> Text:
    """``▸ bash  ls -la`` for a tool call."""
    name = str(block.get("name", ""))
    line = Text("▸ ", style=palette.current.accent)
    line.append_text(plain(name, f"bold {palette.current.accent}"))
    argument = key_argument(name, block.get("arguments"))
    if argument:
        line.append("  ")
        line.append_text(plain(argument, palette.current.argument))
    return line


def _user(message: Message) -> RenderableType:
    framed = unframe_summary(message)
    if framed is not None:
        kind, summary = framed
        title = "compaction summary" if kind == "compaction" else "branch summary"
        return Group(
            plain(f"── {title} ──", f"bold {palette.current.secondary}"),
            plain(_cut(summary, 12), "dim"),
        )
    text = content_text(message.get("content"), show_non_string_text=True)
    line = Text("> ", style=f"bold {palette.current.accent}")
    line.append_text(plain(text, "bold"))
    return line


def _oddities(message: Message, field: str, one: str) -> list[RenderableType]:
    """``⚠`` lines for the shapes of ``message[field]`` that are not a list of objects."""
    listed = message.get(field, MISSING)
    odd = [not_a_list(field, listed)]
    odd += [not_an_object(f"{one} {n}", value) for n, value in enumerate(list_items(listed))]
    return [plain(f"  ⚠ {text}", palette.current.error) for text in odd if text is not None]


def _assistant(message: Message, show_thinking: bool) -> RenderableType:
    parts = _oddities(message, "blocks", "block")
    for block in list_items(message.get("blocks")):
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "thinking" and show_thinking and block.get("thinking"):
            parts.append(plain(str(block["thinking"]), "dim italic"))
        elif kind == "text" and block.get("text"):
            parts.append(StreamedMarkdown(str(block["text"]), finished=True))
        elif kind == "toolCall":
            parts.append(call_line(block))
    return Group(*parts)


def _results(message: Message) -> RenderableType:
    parts = _oddities(message, "results", "result")
    for result in list_items(message.get("results")):
        if not isinstance(result, dict):
            continue
        error = bool(result.get("isError"))
        mark = Text("  ✗ " if error else "  ✓ ")
        mark.stylize(palette.current.error if error else palette.current.ok)
        mark.append_text(plain(str(result.get("toolName", "")), "bold"))
        parts.append(mark)
        body = _cut(content_text(result.get("content"), show_non_string_text=True), RESULT_LINES)
        if body:
            parts.append(Padding(ansi_text(body), (0, 0, 0, 4)))
    return Group(*parts)


def message_block(message: Any, *, show_thinking: bool = True) -> RenderableType:
    """One message of the conversation as the pane shows it (anything a retained tail holds:
    a value that is not a message is shown as it is)."""
    odd = not_an_object("message", message)
    if odd is not None:
        return plain(f"⚠ {odd}", palette.current.error)
    role = message.get("role")
    if role == "user":
        return _user(message)
    if role == "assistant":
        return _assistant(message, show_thinking)
    if role == "toolResult":
        return _results(message)
    return plain(f"({role} message)", "dim")


def diff_text(body: str) -> Text:
    """A unified diff with added lines green and removed lines red (plain text otherwise)."""
    out = Text()
    for line in body.split("\n"):
        style = ""
        if line.startswith("+") and not line.startswith("+++"):
            style = palette.current.ok
        elif line.startswith("-") and not line.startswith("---"):
            style = palette.current.error
        elif line.startswith("@@"):
            style = palette.current.secondary
        out.append_text(plain(line, style))
        out.append("\n")
    out.rstrip()
    return out
