"""How a tool call looks with its result: a header with the call's status, what the call
does (a command, an edit's diff, a written file highlighted, the arguments), then its output
(colours only, cut or whole or hidden) or why there is none.

Pure: no widget state (see ``blocks.py``).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from ink_tui.humanize import plural
from ink_tui.session.analysis.changediff import edit_arguments_diff
from ink_tui.session.conversation.view import Item, ToolExchange
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.rules.taskrecord import record_line, task_record
from ink_tui.ui.render import palette
from ink_tui.ui.render.block_parts import (
    CUT_LINES,
    OutputMode,
    RenderOptions,
    content_parts,
    fixed_piece,
    holds_huge,
    image_note,
)
from ink_tui.ui.render.huge import (
    code_pieces,
    content_is_huge,
    content_pieces,
    cut_lines,
    text_pieces,
)
from ink_tui.ui.render.pieces import Piece, Pieces, is_huge
from ink_tui.ui.render.safe import plain

__all__ = ["diff_block", "status_mark", "tool_block", "tool_is_huge"]

_MARKS = {"ok": "✓", "error": "✗", "missing": "…", "unknown": "?"}


def tool_is_huge(exchange: ToolExchange) -> bool:
    """Whether a call's arguments or output hold a text too big to render at once."""
    result = exchange.result
    return holds_huge(exchange.arguments) or (
        result is not None and content_is_huge(result.get("content"))
    )


def status_mark(
    exchange: ToolExchange,
    running_since: float | None = None,
    now: float = 0.0,
    *,
    waiting: bool = False,
) -> Text:
    """``✓ ok``, ``✗ error``, ``… no result``, ``⟳ running 12s`` while a followed call runs
    (since ``running_since``, at ``now`` on the app's clock), or ``… waiting`` while a live
    chat awaits its result (``waiting``); for Ink's fill-in results what they say happened:
    ``⊘ not run: output limit``, ``? abandoned after interrupt``, ``⊘ blocked by extension
    NAME``, ``? unknown outcome``…"""
    if waiting and exchange.result is None:
        return Text("… waiting", style=palette.current.warning)
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


def _cut(text: Text, limit: int) -> tuple[Text, int]:
    lines = text.split("\n", allow_blank=True)
    if len(lines) <= limit:
        return text, 0
    return Text("\n").join(lines[:limit]), len(lines) - limit


def diff_block(diff: str, theme: str = "monokai") -> RenderableType:
    """A unified diff, highlighted (an edit's change; a call's preview at its approval)."""
    from rich.syntax import Syntax  # highlighting is imported when a diff or file is shown

    return Syntax(_visible_code(diff), "diff", theme=theme, word_wrap=True)


def _edit_diff(arguments: dict[str, Any], theme: str) -> RenderableType:
    return diff_block(edit_arguments_diff(arguments), theme)


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
        status_mark(
            exchange,
            options.running.get(item.key),
            options.now,
            waiting=item.key in options.waiting,
        ),
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


def _no_result(item: Item, options: RenderOptions) -> Text:
    """Under a call without a result: awaited (a followed call running, or a live chat's), or
    never to come."""
    if item.key in options.running or item.key in options.waiting:
        return plain("  … waiting for the result", "dim italic")
    return plain("  … no result (interrupted)", palette.current.warning)


def tool_block(
    item: Item, exchange: ToolExchange, options: RenderOptions
) -> RenderableType | Pieces:
    if tool_is_huge(exchange):
        return _huge_tool_block(item, exchange, options)
    parts: list[RenderableType] = [_tool_header(item, exchange, options)]
    task = _task_line(exchange)
    if task is not None:
        parts.append(task)
    detail = _call_detail(exchange, options)
    if detail is not None:
        parts.append(Padding(detail, (0, 0, 0, 2)))
    mode: OutputMode = "full" if item.key in options.expanded else options.output
    if exchange.result is None:
        parts.append(_no_result(item, options))
    elif mode != "hidden":
        content = content_parts(exchange.result.get("content"), colours=True)
        body: list[RenderableType] = []
        for piece in content:
            if mode == "cut" and isinstance(piece, Text):
                piece, more = _cut(piece, CUT_LINES)
                body.append(piece)
                if more:
                    body.append(_more_lines(more, options))
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
    if exchange.name not in ("bash", "edit", "write") and holds_huge(arguments):
        encoded = encode_json(arguments, indent=True).decode("utf-8")
        return text_pieces(encoded, partial(plain, style="dim"), indent=2)
    detail = _call_detail(exchange, options)  # small, or an edit (rendered whole)
    return [] if detail is None else [fixed_piece(Padding(detail, (0, 0, 0, 2)))]


def _more_lines(more: int, options: RenderOptions) -> Text:
    """``… 30 more lines (o: show all)`` under a cut output (without a key where none shows
    it)."""
    key = f" ({options.output_key}: show all)" if options.output_key else ""
    return plain(f"… {plural(more, 'more line')}{key}", "dim italic")


def _huge_output(exchange: ToolExchange, mode: OutputMode, options: RenderOptions) -> list[Piece]:
    assert exchange.result is not None
    content = exchange.result.get("content")
    style = _output_style(exchange)
    if mode == "full":
        return content_pieces(content, image_note, colours=True, indent=2, style=style)
    pieces: list[Piece] = []
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    for block in blocks if isinstance(blocks, list) else ():
        if not isinstance(block, dict) or block.get("type") != "text":
            pieces.extend(content_pieces([block], image_note, colours=True, indent=2, style=style))
            continue
        kept, more = cut_lines(str(block.get("text", "")), CUT_LINES)
        pieces.extend(content_pieces(kept, image_note, colours=True, indent=2, style=style))
        if more:
            note = _more_lines(more, options)
            pieces.append(fixed_piece(Padding(note, (0, 0, 0, 2), style=style)))
    return pieces


def _huge_tool_block(item: Item, exchange: ToolExchange, options: RenderOptions) -> Pieces:
    """A tool row holding a huge argument or output: the same parts, huge texts in pieces."""
    task = _task_line(exchange)
    parts = [fixed_piece(_tool_header(item, exchange, options))]
    parts += [fixed_piece(task)] if task is not None else []
    parts += _huge_detail(exchange, options)
    mode: OutputMode = "full" if item.key in options.expanded else options.output
    if exchange.result is None:
        parts.append(fixed_piece(_no_result(item, options)))
    elif mode != "hidden":
        parts.extend(_huge_output(exchange, mode, options))
    if exchange.duplicate_results:
        parts.append(fixed_piece(_duplicates(exchange)))
    return Pieces(parts)
