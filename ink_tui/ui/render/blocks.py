"""One renderable per view row: what the replay pane shows for a turn or an item.

Pure functions of the view rows (``ink_tui.session.conversation.view``) and display options; no
widget state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from ink_tui.humanize import plural
from ink_tui.session.analysis.changediff import edit_arguments_diff
from ink_tui.session.conversation.skills import skill_summary
from ink_tui.session.conversation.view import Item, ToolExchange, Turn
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.rules.taskrecord import record_line, task_record
from ink_tui.ui.render import palette
from ink_tui.ui.render.huge import (
    code_pieces,
    content_is_huge,
    content_pieces,
    cut_lines,
    markdown_pieces,
    text_pieces,
)
from ink_tui.ui.render.meta_blocks import meta_block
from ink_tui.ui.render.pieces import Piece, Pieces, is_huge
from ink_tui.ui.render.safe import ansi_text, markdown, plain

__all__ = [
    "OutputMode",
    "RenderOptions",
    "item_block",
    "item_is_huge",
    "label_line",
    "status_mark",
    "turn_block",
    "turn_is_huge",
]

OutputMode = Literal["hidden", "cut", "full"]
CUT_LINES = 12
_MARKS = {"ok": "✓", "error": "✗", "missing": "…", "unknown": "?"}


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """What the user chose to see."""

    show_thinking: bool = False
    output: OutputMode = "cut"
    expanded: frozenset[str] = frozenset()  # item keys whose output is shown in full
    thinking_open: frozenset[str] = frozenset()  # thinking items shown although thinking is off
    code_theme: str = "monokai"
    running: dict[str, float] = field(default_factory=dict)  # followed calls: key -> start
    now: float = 0.0  # the app's clock when ``running`` was last measured


def status_mark(
    exchange: ToolExchange, running_since: float | None = None, now: float = 0.0
) -> Text:
    """``✓ ok``, ``✗ error``, ``… no result``, or ``⟳ running 12s`` while a followed call runs
    (since ``running_since``, at ``now`` on the app's clock); for Ink's fill-in results what
    they say happened: ``⊘ not run: output limit``, ``? abandoned after interrupt``,
    ``⊘ blocked by extension NAME``, ``? unknown outcome``…"""
    if running_since is not None and exchange.result is None:
        elapsed = max(0, int(now - running_since))
        return Text(f"⟳ running {elapsed}s", style=f"bold {palette.current.warning}")
    fill_in = exchange.fill_in
    if fill_in is not None:  # Ink's own result for a call it did not run (or see finish)
        return plain(fill_in.status, palette.current.warning)
    mark = _MARKS[exchange.status]
    colour = {"ok": palette.current.ok, "error": palette.current.error}.get(
        exchange.status, palette.current.warning
    )
    label = {"ok": "ok", "error": "error", "missing": "no result", "unknown": "unknown outcome"}[
        exchange.status
    ]
    return Text(f"{mark} {label}", style=colour)


def _output_style(exchange: ToolExchange) -> str:
    """A result's colour: an error's, or (a fill-in: Ink did not run the call) a warning's."""
    if exchange.fill_in is not None:
        return palette.current.warning
    return palette.current.error if exchange.status == "error" else ""


def _image_note(block: dict[str, Any]) -> RenderableType:
    size = len(str(block.get("data", ""))) * 3 // 4
    mime = str(block.get("mimeType", "image"))
    return plain(f"[image {mime}, {size / 1024:.1f} KB]", f"italic {palette.current.argument}")


def _content(content: Any, *, colours: bool) -> list[RenderableType]:
    """A message or result content: text (ANSI-safe when ``colours``) and image placeholders."""
    if isinstance(content, str):
        return [ansi_text(content) if colours else plain(content)]
    parts: list[RenderableType] = []
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            text = str(block.get("text", ""))
            parts.append(ansi_text(text) if colours else plain(text))
        elif block.get("type") == "image":
            parts.append(_image_note(block))
    return parts


def label_line(label: str) -> Text:
    """How a row's label (a ``label`` record naming its entry) is shown: ``# label``."""
    return plain(f"# {label}", f"italic {palette.current.accent}")


def _holds_huge(value: Any, depth: int = 3) -> bool:
    """Whether ``value`` (tool arguments) holds a huge string, a few levels down."""
    if isinstance(value, str):
        return is_huge(value)
    if depth and isinstance(value, dict):
        return any(_holds_huge(inner, depth - 1) for inner in value.values())
    if depth and isinstance(value, list):
        return any(_holds_huge(inner, depth - 1) for inner in value)
    return False


def turn_is_huge(turn: Turn) -> bool:
    """Whether the prompt is too big to render at once (it is shown in pieces)."""
    return turn.user is not None and content_is_huge(turn.user.message.get("content"))


def item_is_huge(item: Item) -> bool:
    """Whether a row is too big to render at once (it is shown in pieces)."""
    exchange = item.tool
    if exchange is None:
        return is_huge(item.text)
    result = exchange.result
    return _holds_huge(exchange.arguments) or (
        result is not None and content_is_huge(result.get("content"))
    )


def _fixed(renderable: RenderableType) -> Piece:
    return Piece(lambda: renderable)


def turn_block(turn: Turn, number: int, label: str | None = None) -> RenderableType | Pieces:
    """The user's prompt, as a header line (with the entry's label) and its text."""
    title = f"▌ You · turn {number}" if number > 0 else "▌ You"
    header = Text.assemble((title, "bold"), "  ", plain(turn.user_id, "dim"))
    if label:
        header.append("  ")
        header.append_text(label_line(label))
    skill = skill_summary(turn.prompt)
    if skill is not None:  # an expanded /skill: block: one line, as Ink's replay shows it
        return Group(header, Padding(plain(skill, palette.current.accent), (0, 0, 0, 2)))
    content = turn.user.message.get("content") if turn.user is not None else ""
    if content_is_huge(content):
        pieces = content_pieces(content, _image_note, colours=False, indent=2)
        return Pieces([_fixed(header), *pieces])
    return Group(header, Padding(Group(*_content(content, colours=False)), (0, 0, 0, 2)))


def _cut(text: Text, limit: int) -> tuple[Text, int]:
    lines = text.split("\n", allow_blank=True)
    if len(lines) <= limit:
        return text, 0
    return Text("\n").join(lines[:limit]), len(lines) - limit


def _edit_diff(arguments: dict[str, Any], theme: str) -> RenderableType:
    from rich.syntax import Syntax  # highlighting is imported when a diff or file is shown

    return Syntax(
        _visible_code(edit_arguments_diff(arguments)), "diff", theme=theme, word_wrap=True
    )


def _visible_code(text: str) -> str:
    return plain(text).plain


def _call_detail(exchange: ToolExchange, options: RenderOptions) -> RenderableType | None:
    arguments = exchange.arguments if isinstance(exchange.arguments, dict) else {}
    name = exchange.name
    if name == "bash":
        return plain(f"$ {arguments.get('command', '')}", "bold")
    if name == "edit":
        return _edit_diff(arguments, options.code_theme)
    if name == "write":
        from rich.syntax import Syntax  # (as above)

        path = str(arguments.get("path", ""))
        lexer = Syntax.guess_lexer(path, "")
        code = _visible_code(str(arguments.get("content", "")))
        return Syntax(code, lexer, theme=options.code_theme, line_numbers=True, word_wrap=True)
    if name in ("read", "grep", "find", "ls", "task") or not arguments:
        return None
    # As Ink would send them (JSON.stringify: 1e400 is null, 1.0 is 1), controls made visible.
    return plain(encode_json(arguments, indent=True).decode("utf-8"), "dim")


def _tool_header(item: Item, exchange: ToolExchange, options: RenderOptions) -> Text:
    return Text.assemble(
        ("● ", f"bold {palette.current.accent}"),
        plain(exchange.name, "bold"),
        "  ",
        plain(exchange.key_argument, palette.current.argument),
        "  ",
        status_mark(exchange, options.running.get(item.key), options.now),
    )


def _task_line(exchange: ToolExchange) -> Text | None:
    """Under a ``task`` call: what its result's task record says (status, turns, health,
    worktree, transcript); a record Ink cannot read is said to be treated as absent."""
    result = exchange.result
    if exchange.name != "task" or not isinstance(result, dict) or "taskRecord" not in result:
        return None
    record = task_record(result)
    if record is None:
        return plain("  ⤷ a task record Ink cannot read (treated as absent)", "dim italic")
    return plain(f"  ⤷ {record_line(record)}", palette.current.accent)


def _duplicates(exchange: ToolExchange) -> Text:
    return plain(
        f"  ⚠ result recorded {exchange.duplicate_results + 1} times", palette.current.error
    )


def _tool_block(
    item: Item, exchange: ToolExchange, options: RenderOptions
) -> RenderableType | Pieces:
    if item_is_huge(item):
        return _huge_tool_block(item, exchange, options)
    parts: list[RenderableType] = [_tool_header(item, exchange, options)]
    task = _task_line(exchange)
    if task is not None:
        parts.append(task)
    detail = _call_detail(exchange, options)
    if detail is not None:
        parts.append(Padding(detail, (0, 0, 0, 2)))
    mode: OutputMode = "full" if item.key in options.expanded else options.output
    if exchange.result is None and item.key in options.running:
        parts.append(plain("  … waiting for the result", "dim italic"))
    elif exchange.result is None:
        parts.append(plain("  … no result (interrupted)", palette.current.warning))
    elif mode != "hidden":
        content = _content(exchange.result.get("content"), colours=True)
        body: list[RenderableType] = []
        for piece in content:
            if mode == "cut" and isinstance(piece, Text):
                piece, more = _cut(piece, CUT_LINES)
                body.append(piece)
                if more:
                    body.append(plain(f"… {plural(more, 'more line')} (o: show all)", "dim italic"))
            else:
                body.append(piece)
        style = _output_style(exchange)
        parts.append(Padding(Group(*body), (0, 0, 0, 2), style=style))
    if exchange.duplicate_results:
        parts.append(_duplicates(exchange))
    return Group(*parts)


def _huge_detail(exchange: ToolExchange, options: RenderOptions) -> list[Piece]:
    arguments = exchange.arguments if isinstance(exchange.arguments, dict) else {}
    content, command = arguments.get("content"), arguments.get("command")
    if exchange.name == "write" and isinstance(content, str) and is_huge(content):
        path = str(arguments.get("path", ""))
        return code_pieces(content, path, theme=options.code_theme, indent=2)
    if exchange.name == "bash" and isinstance(command, str) and is_huge(command):
        return text_pieces(f"$ {command}", partial(plain, style="bold"), indent=2)
    if exchange.name not in ("bash", "edit", "write") and _holds_huge(arguments):
        encoded = encode_json(arguments, indent=True).decode("utf-8")
        return text_pieces(encoded, partial(plain, style="dim"), indent=2)
    detail = _call_detail(exchange, options)  # small, or an edit (rendered whole)
    return [] if detail is None else [_fixed(Padding(detail, (0, 0, 0, 2)))]


def _huge_output(exchange: ToolExchange, mode: OutputMode) -> list[Piece]:
    assert exchange.result is not None
    content = exchange.result.get("content")
    style = _output_style(exchange)
    if mode == "full":
        return content_pieces(content, _image_note, colours=True, indent=2, style=style)
    pieces: list[Piece] = []
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    for block in blocks if isinstance(blocks, list) else ():
        if not isinstance(block, dict) or block.get("type") != "text":
            pieces.extend(content_pieces([block], _image_note, colours=True, indent=2, style=style))
            continue
        kept, more = cut_lines(str(block.get("text", "")), CUT_LINES)
        pieces.extend(content_pieces(kept, _image_note, colours=True, indent=2, style=style))
        if more:
            note = plain(f"… {plural(more, 'more line')} (o: show all)", "dim italic")
            pieces.append(_fixed(Padding(note, (0, 0, 0, 2), style=style)))
    return pieces


def _huge_tool_block(item: Item, exchange: ToolExchange, options: RenderOptions) -> Pieces:
    """A tool row holding a huge argument or output: the same parts, huge texts in pieces."""
    task = _task_line(exchange)
    parts = [_fixed(_tool_header(item, exchange, options))]
    parts += [_fixed(task)] if task is not None else []
    parts += _huge_detail(exchange, options)
    mode: OutputMode = "full" if item.key in options.expanded else options.output
    if exchange.result is None and item.key in options.running:
        parts.append(_fixed(plain("  … waiting for the result", "dim italic")))
    elif exchange.result is None:
        parts.append(_fixed(plain("  … no result (interrupted)", palette.current.warning)))
    elif mode != "hidden":
        parts.extend(_huge_output(exchange, mode))
    if exchange.duplicate_results:
        parts.append(_fixed(_duplicates(exchange)))
    return Pieces(parts)


def item_block(
    item: Item, options: RenderOptions, label: str | None = None
) -> RenderableType | Pieces | None:
    """The renderable for one row (under its label, if it has one), or ``None``; a huge row
    in :class:`Pieces`."""
    block = _item_body(item, options)
    if isinstance(block, Pieces):
        return Pieces([_fixed(label_line(label)), *block.parts]) if label else block
    if label and block is not None:
        return Group(label_line(label), block)
    return block


def _huge_item(item: Item, options: RenderOptions) -> Pieces | None:
    kind = item.kind
    if kind == "text":
        return Pieces(markdown_pieces(item.text, theme=options.code_theme))
    if kind == "thinking" and (options.show_thinking or item.key in options.thinking_open):
        pieces = text_pieces(item.text, partial(plain, style="dim italic"))
        return Pieces([_fixed(plain("▾ thinking", "dim italic")), *pieces])
    if kind == "orphan_result":
        header = plain("⚠ tool result with no call", palette.current.error)
        return Pieces([_fixed(header), *content_pieces(item.text, _image_note, colours=True)])
    return None


def _item_body(item: Item, options: RenderOptions) -> RenderableType | Pieces | None:
    kind = item.kind
    huge = _huge_item(item, options) if item.tool is None and is_huge(item.text) else None
    if huge is not None:
        return huge
    if kind == "text":
        return markdown(item.text, code_theme=options.code_theme)
    if kind == "thinking":
        if not options.show_thinking and item.key not in options.thinking_open:
            return plain(f"▸ thinking ({len(item.text)} chars, t to show)", "dim italic")
        return Group(plain("▾ thinking", "dim italic"), plain(item.text, "dim italic"))
    if kind == "tool" and item.tool is not None:
        return _tool_block(item, item.tool, options)
    if kind == "orphan_result":
        return Group(
            plain("⚠ tool result with no call", palette.current.error), ansi_text(item.text)
        )
    return meta_block(item)
