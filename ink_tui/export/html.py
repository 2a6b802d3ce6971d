"""A :class:`~ink_tui.export.document.Document` as one self-contained HTML page that works
offline: a sidebar of turns, collapsible tool calls (edits open, showing their diff),
highlighted code and diffs (Pygments), images inline as ``data:`` URIs, light and dark by
``prefers-color-scheme``.

Session text is escaped everywhere: prompts, thinking and tool output are text in their element;
the assistant's Markdown goes through markdown-it with raw HTML off (it is shown escaped), images
off (no request leaves the page) and links limited to markdown-it's safe schemes. A
Content-Security-Policy allows no request and no script but the page's own (by its hash).
"""

from __future__ import annotations

import html
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

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
from ink_tui.export.html_style import PAGE_SCRIPT, page_style, script_hash
from ink_tui.humanize import human_size, plural

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["highlight", "html_document"]


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def highlight(code: str, language: str) -> str:
    """``code`` highlighted as ``language`` (plain when Pygments does not know it), escaped, in
    a ``<pre class="code">``."""
    from pygments import highlight as pygmentize

    body = pygmentize(code, _lexer(language), _formatter())
    return f'<pre class="code"><code>{body}</code></pre>\n'


@cache
def _formatter() -> Any:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(nowrap=True)  # made once: making one costs about a millisecond


@lru_cache(maxsize=64)
def _lexer(language: str) -> Any:
    from pygments.lexers import TextLexer, get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        return TextLexer()


@cache
def _markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt

    def fenced(code: str, language: str, _attributes: Any) -> str:
        return highlight(code, language.split()[0] if language.strip() else "")

    parser = MarkdownIt("commonmark", {"html": False, "highlight": fenced})
    parser.enable("table").enable("strikethrough")
    parser.disable("image")  # an image in a reply would be a request leaving the page
    return parser


def _image(image: Image) -> str:
    note = f"[image {image.mime}, {human_size(image.size)}]"
    if image.data is None:
        return f'<p class="image-note">{_e(note)}</p>\n'
    return (
        f'<img class="inline" alt="{_e(note)}" title="{_e(note)}" '
        f'src="data:{_e(image.mime)};base64,{image.data}">\n'
    )


def _output(pieces: list[Piece]) -> str:
    return "".join(
        _image(piece) if isinstance(piece, Image) else f'<pre class="output">{_e(piece)}</pre>\n'
        for piece in pieces
    )


def _opened(part: ToolPart) -> str:
    """Edits are open from the start (their diff is what a reader looks for); other calls are
    closed."""
    return " open" if part.detail_kind == "diff" else ""


def _tool(part: ToolPart) -> str:
    kind = "fill-in" if part.fill_in else part.status  # Ink's fill-in: said, never an error
    css = "tool error" if kind == "error" else "tool"
    out = [
        f'<details class="{css}"{_opened(part)}><summary>',
        f'<span class="name">{_e(part.name)}</span> ',
        f'<span class="arg">{_e(part.summary[:300])}</span> ',
        f'<span class="status-{_e(kind)}">{_e(part.status_text)}</span></summary>\n',
    ]
    if part.detail_kind == "command":
        out.append(highlight(f"$ {part.detail}", "bash"))
    elif part.detail_kind != "none" and part.detail:
        out.append(highlight(part.detail, part.language))
        if part.detail_note:
            out.append(f'<p class="cut">{_e(part.detail_note)}</p>\n')
    out.append(_output(part.output))
    out.extend(f'<p class="cut">{_e(note)}</p>\n' for note in part.notes)
    out.append("</details>\n")
    return "".join(out)


def _note(part: Note) -> str:
    said = f": {_e(part.text)}" if part.text else ""
    detail = f'<div class="note-detail">{_e(part.detail)}</div>' if part.detail else ""
    return f'<aside class="note {_e(part.kind)}"><b>{_e(part.title)}</b>{said}{detail}</aside>\n'


def _part(part: TextPart | ToolPart | Note) -> str:
    if isinstance(part, ToolPart):
        return _tool(part)
    if isinstance(part, Note):
        return _note(part)
    if part.kind == "thinking":
        return (
            '<details class="thinking"><summary>thinking</summary>'
            f'<div class="thinking-text">{_e(part.text)}</div></details>\n'
        )
    return f'<div class="assistant">{_markdown().render(part.text)}</div>\n'


def _turn(turn: TurnDoc) -> str:
    heading = "Before the first prompt" if turn.number == 0 else f"Turn {turn.number}"
    when = shown_time(turn.timestamp)
    out = [
        f'<section class="turn" id="{turn.anchor}"><h2>{heading}',
        f' <span class="when">{_e(when)}</span>' if when else "",
        f' <span class="label"># {_e(turn.label)}</span>' if turn.label else "",
        "</h2>\n",
    ]
    if turn.prompt:
        out.append(_prompt(turn.prompt))
    out.extend(_part(part) for part in turn.parts)
    out.append("</section>\n")
    return "".join(out)


def _prompt(pieces: list[Piece]) -> str:
    inner = "".join(
        _image(piece) if isinstance(piece, Image) else f'<div class="prompt-text">{_e(piece)}</div>'
        for piece in pieces
    )
    return f'<div class="prompt">{inner}</div>\n'


def _sidebar(document: Document) -> str:
    items = "".join(
        f'<li><a href="#{turn.anchor}" title="{_e(turn.title)}">{_e(turn.title[:80])}</a></li>\n'
        for turn in document.turns
        if turn.number
    )
    return f"<nav><h2>Turns</h2>\n<ol>\n{items}</ol></nav>\n"


def _header(document: Document) -> str:
    branch = "the current branch" if document.current else "not the current branch"
    prompts = sum(1 for turn in document.turns if turn.number)
    facts = [
        ("Session", document.session_id),
        ("Project", document.project),
        ("Model", document.model),
        ("Branch", f"leaf {document.leaf_id or '(none)'}, {branch}, {plural(prompts, 'turn')}"),
    ]
    rows = "".join(f"<dt>{_e(name)}</dt><dd>{_e(value)}</dd>" for name, value in facts)
    toggle = '<button class="toggle-all" type="button" hidden>expand tool calls</button>'
    return f'<header>{toggle}<h1>{_e(document.title)}</h1>\n<dl class="meta">{rows}</dl></header>\n'


def html_document(document: Document) -> str:
    """The whole page."""
    policy = (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src '{script_hash()}'; base-uri 'none'; form-action 'none'"
    )
    head = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="ink-tui">\n'
        f"<title>{_e(document.title)}</title>\n<style>{page_style()}</style>\n</head>\n"
    )
    turns = "".join(_turn(turn) for turn in document.turns)
    return (
        f"{head}<body>\n{_sidebar(document)}<main>\n{_header(document)}{turns}</main>\n"
        f"<script>{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
    )
