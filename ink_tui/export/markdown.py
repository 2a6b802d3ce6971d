"""A :class:`~ink_tui.export.document.Document` as Markdown that reads well on a code forge:
a heading per turn, the assistant's Markdown as it is, code in fences, each tool call as a
collapsible ``<details>`` (its summary escaped as HTML), edits as ``diff`` blocks (open from
the start).

Images are not inlined (forges drop ``data:`` URIs): each shows as a line with its type and size.
"""

from __future__ import annotations

import html
import re
from typing import Final

from ink_tui.export.document import (
    Document,
    Image,
    Note,
    Piece,
    TextPart,
    ToolPart,
    TurnDoc,
    shown_time,
)
from ink_tui.humanize import human_size, plural

__all__ = ["fence", "inline", "markdown_document"]

_INLINE_SPECIAL: Final = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def inline(text: str) -> str:
    """One line of text that Markdown shows as written (its punctuation escaped)."""
    return _INLINE_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def fence(text: str, language: str = "") -> str:
    """``text`` in a fenced code block whose fence no backtick run inside can close."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{marks}{language}\n{body}{marks}\n"


def _code_span(text: str) -> str:
    """``text`` as inline code (a one-line summary)."""
    line = " ".join(text.split())
    if not line:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", line)), default=0)
    marks = "`" * (longest + 1)
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{marks}{pad}{line}{pad}{marks}"


def _image_line(image: Image) -> str:
    return f"*[image {inline(image.mime)}, {human_size(image.size)}]*\n"


def _pieces(pieces: list[Piece], *, code: bool) -> list[str]:
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, Image):
            out.append(_image_line(piece))
        elif code:
            out.append(fence(piece, "text"))
        elif piece.strip():
            out.append(piece.rstrip("\n") + "\n")
    return out


def _tool(part: ToolPart) -> str:
    summary = f"<code>{html.escape(part.name)}</code>"
    if part.summary:
        summary += f" {html.escape(part.summary[:200])}"
    summary += f" — {html.escape(part.status_text)}"
    opened = " open" if part.detail_kind == "diff" else ""  # an edit's diff shows at once
    blocks = [f"<details{opened}>\n<summary>{summary}</summary>\n\n"]
    if part.detail_kind == "command":
        blocks.append(fence(f"$ {part.detail}", "bash"))
    elif part.detail_kind in ("diff", "code", "json") and part.detail:
        blocks.append(fence(part.detail, part.language))
        if part.detail_note:
            blocks.append(f"\n*{part.detail_note}*\n")
    if part.output:
        blocks.append("\n" if len(blocks) > 1 else "")
        blocks.extend(_pieces(part.output, code=True))
    blocks.extend(f"\n*{note}*\n" for note in part.notes)
    blocks.append("\n</details>\n")
    return "".join(blocks)


def _note(part: Note) -> str:
    head = f"> **{inline(part.title)}**"
    if part.text:
        head += f": {inline(part.text)}"
    if not part.detail:
        return head + "\n"
    quoted = "\n".join(f"> {line}" if line else ">" for line in part.detail.split("\n"))
    return f"{head}\n>\n{quoted}\n"


def _part(part: TextPart | ToolPart | Note) -> str:
    if isinstance(part, ToolPart):
        return _tool(part)
    if isinstance(part, Note):
        return _note(part)
    if part.kind == "thinking":
        quoted = "\n".join(f"> {line}" if line else ">" for line in part.text.split("\n"))
        return f"> *thinking*\n>\n{quoted}\n"
    return part.text.rstrip("\n") + "\n"


def _turn(turn: TurnDoc) -> str:
    if turn.number == 0:
        heading = "## Before the first prompt"
    else:
        heading = f"## Turn {turn.number}: {inline(turn.title[:120])}"
    out = [heading + "\n"]
    facts = [shown_time(turn.timestamp)] if turn.timestamp else []
    if turn.label:
        facts.append(f"label: {inline(turn.label)}")
    if facts:
        out.append(f"\n*{' · '.join(facts)}*\n")
    if turn.prompt:
        out.append("\n**You**\n\n")
        out.append("\n".join(_pieces(turn.prompt, code=False)))
    if turn.parts:
        out.append("\n**Assistant**\n")
    for part in turn.parts:
        out.append("\n" + _part(part))
    return "".join(out)


def markdown_document(document: Document) -> str:
    """The whole document as Markdown."""
    branch = "the current branch" if document.current else "not the current branch"
    prompts = sum(1 for turn in document.turns if turn.number)
    lines = [
        f"# {inline(document.title)}",
        "",
        f"- Session: {_code_span(document.session_id)}",
        f"- Project: {_code_span(document.project)}",
        f"- Model: {_code_span(document.model)}",
        f"- Branch: leaf {_code_span(document.leaf_id) or '(none)'}, {branch}, "
        f"{plural(prompts, 'turn')}",
        "- Exported by ink-tui",
        "",
    ]
    out = ["\n".join(lines)]
    for turn in document.turns:
        out.append("\n---\n\n" + _turn(turn))
    return "".join(out)
