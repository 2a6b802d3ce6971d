"""What an export holds: one branch of a session as turns of parts, every piece of session text
already cleaned (secrets masked when asked, controls made visible, tool output's escape sequences
dropped), so the Markdown and HTML writers only lay it out.

Built from the session view's own rows
(:func:`ink_tui.session.conversation.branchview.load_branch`), so an export shows what the replay
shows: the same turns, tool calls joined with their results, edits as diffs, compactions and model
switches where they happen.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, Literal

from ink_tui.export.redact import Redactor
from ink_tui.humanize import plural
from ink_tui.safetext import keep_sgr, visible
from ink_tui.session.analysis.changediff import edit_arguments_diff
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.conversation.skills import skill_summary
from ink_tui.session.conversation.view import Item, ToolExchange, Turn, key_argument
from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.reading.recordtypes import JsonObject, json_list, json_object

__all__ = [
    "CUT_CHARACTERS",
    "CUT_LINES",
    "IMAGE_TYPES",
    "Document",
    "ExportOptions",
    "Image",
    "Note",
    "Part",
    "Piece",
    "TextPart",
    "ToolPart",
    "TurnDoc",
    "build_document",
    "shown_time",
]

Format = Literal["md", "html", "json"]
ToolsMode = Literal["none", "cut", "full"]
CUT_LINES: Final = 40  # lines of a tool's output (or a written file) kept with --tools cut
CUT_CHARACTERS: Final = 8_000  # and characters (a minified file is one long line)
IMAGE_TYPES: Final = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_SGR: Final = re.compile(r"\x1b\[[0-9;:]*m")
_ISO_TIME: Final = re.compile(r"(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.\d+)?Z")
_BASE64: Final = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_STATUS_WORDS: Final = {
    "ok": "✓ ok",
    "error": "✗ error",
    "missing": "… no result",
    "unknown": "? unknown outcome",
}
_NOTE_TITLES: Final = {
    "compaction": "Compaction",
    "branch_summary": "Branch summary",
    "thinking_level": "Thinking level",
    "session_info": "Session name",
    "label": "Label",
    "model_change": "Model",
    "oddity": "Odd record",
    "orphan_result": "Tool result with no call",
}


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """What the user asked for: the format, tool calls (none, outputs cut, full), thinking,
    redaction."""

    format: Format = "md"
    tools: ToolsMode = "cut"
    thinking: bool = False
    redact: bool = False
    allow_secrets: bool = False  # without redaction: export even when secrets are found


@dataclass(frozen=True, slots=True)
class Image:
    """An image block: its type, size, and base64 data (``None``: not a type shown inline)."""

    mime: str
    size: int
    data: str | None


Piece = str | Image  # a part of a prompt or a tool output: text, or an image


@dataclass(slots=True)
class TextPart:
    """The assistant's text (Markdown) or thinking (plain text)."""

    kind: Literal["text", "thinking"]
    text: str


@dataclass(slots=True)
class ToolPart:
    """A tool call and its result. ``detail_kind`` says what ``detail`` is: the command, a
    unified diff, a written file (in ``language``), the arguments as JSON, or nothing."""

    name: str
    summary: str
    status: str  # ok, error, missing, unknown
    detail_kind: Literal["command", "diff", "code", "json", "none"]
    detail: str = ""
    language: str = ""
    detail_cut: str = ""  # what of a written file was left out (--tools cut): "8 more lines"
    output: list[Piece] = field(default_factory=list)
    output_cut: str = ""  # what of the output was left out (--tools cut)
    duplicates: int = 0
    fill_in: str = ""  # what Ink's fill-in result says happened ("⊘ not run: output limit")

    @property
    def status_text(self) -> str:
        return self.fill_in or _STATUS_WORDS.get(self.status, self.status)

    @property
    def detail_note(self) -> str:
        """Said under a written file cut short ("" when it is whole)."""
        return f"… {self.detail_cut} of the file" if self.detail_cut else ""

    @property
    def notes(self) -> list[str]:
        """Said after the output: what was cut, a missing result, a result recorded twice."""
        notes = [f"… {self.output_cut} (--tools full shows all)"] if self.output_cut else []
        if self.status == "missing":
            notes.append("no result (interrupted)")
        if self.duplicates:
            notes.append(f"⚠ result recorded {self.duplicates + 1} times")
        return notes


@dataclass(slots=True)
class Note:
    """A compaction, branch summary, model or thinking switch, name, label or odd record."""

    kind: str
    text: str
    detail: str = ""  # a compaction's or summary's text

    @property
    def title(self) -> str:
        return _NOTE_TITLES.get(self.kind, self.kind)


Part = TextPart | ToolPart | Note


@dataclass(slots=True)
class TurnDoc:
    """A user's prompt (``number`` 0: what came before the first one) and what followed it."""

    number: int
    title: str
    timestamp: str
    prompt: list[Piece]
    label: str = ""
    parts: list[Part] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"turn-{self.number}"


@dataclass(slots=True)
class Document:
    """The branch to export, and the facts its header shows."""

    title: str
    session_id: str
    project: str
    model: str
    leaf_id: str
    current: bool  # the branch Ink would resume
    turns: list[TurnDoc]
    options: ExportOptions


def shown_time(timestamp: str) -> str:
    """``2026-03-02T09:00:01.000Z`` as ``2026-03-02 09:00:01 UTC`` (other text as it is)."""
    match = _ISO_TIME.fullmatch(timestamp)
    return f"{match.group(1)} {match.group(2)} UTC" if match else timestamp


def clean(text: str, redactor: Redactor) -> str:
    """Session text for a document: redacted, every control made visible."""
    return visible(redactor.text(text))


def clean_output(text: str, redactor: Redactor) -> str:
    """Tool output: colours dropped, every other escape sequence and control made visible."""
    text = redactor.text(text)
    if "\x1b" not in text:  # no escape sequence: only controls to show (most outputs)
        return visible(text.replace("\r\n", "\n"))
    return _SGR.sub("", keep_sgr(text))


def _image(block: JsonObject) -> Image:
    mime = str(block.get("mimeType", ""))
    data = block.get("data")
    text = data if isinstance(data, str) else ""
    size = len(text) * 3 // 4
    if mime not in IMAGE_TYPES or not _is_base64(text):
        return Image(visible(mime) or "image", size, None)
    return Image(mime, size, text)


def _is_base64(text: str) -> bool:
    if not text or len(text) % 4 or _BASE64.fullmatch(text) is None:
        return False
    try:
        base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _pieces(content: object, redactor: Redactor, *, output: bool) -> list[Piece]:
    cleaner = clean_output if output else clean
    if isinstance(content, str):
        return [cleaner(content, redactor)]
    pieces: list[Piece] = []
    for block in json_list(content):
        if not json_object(block):
            continue
        if block.get("type") == "text":
            pieces.append(cleaner(str(block.get("text", "")), redactor))
        elif block.get("type") == "image":
            pieces.append(_image(block))
    return pieces


def _cut_pieces(pieces: list[Piece]) -> tuple[list[Piece], str]:
    """The pieces up to :data:`CUT_LINES` lines and :data:`CUT_CHARACTERS` characters of text,
    and what was left out (``"8 more lines"``; ``""``: nothing)."""
    kept: list[Piece] = []
    lines_left, chars_left, lines_cut, chars_cut = CUT_LINES, CUT_CHARACTERS, 0, 0
    for piece in pieces:
        if isinstance(piece, Image):
            kept.append(piece)
            continue
        lines = piece.split("\n")
        shown = lines[: max(lines_left, 0)]
        lines_cut += len(lines) - len(shown)
        lines_left -= len(shown)
        text = "\n".join(shown)
        if len(text) > chars_left:
            chars_cut += len(text) - max(chars_left, 0)
            text = text[: max(chars_left, 0)]
        chars_left -= len(text)
        if text:
            kept.append(text)
    said = [plural(lines_cut, "more line")] if lines_cut else []
    if chars_cut:
        said.append(f"{chars_cut:,} more characters")
    return kept, ", ".join(said)


@lru_cache(maxsize=256)
def _language(path: str) -> str:
    """The Pygments name of a file's language, from its name (``""``: not known)."""
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_for_filename(path)
    except ClassNotFound:
        return ""
    return lexer.aliases[0] if lexer.aliases else ""


def _tool(exchange: ToolExchange, options: ExportOptions, redactor: Redactor) -> ToolPart:
    arguments = redactor.value(exchange.arguments)
    name = visible(exchange.name)
    part = ToolPart(name, visible(key_argument(exchange.name, arguments)), exchange.status, "none")
    if exchange.fill_in is not None:
        part.fill_in = exchange.fill_in.status
    shown: JsonObject = arguments if json_object(arguments) else {}
    if exchange.name == "bash":
        part.detail_kind, part.detail = "command", visible(str(shown.get("command", "")))
        part.language = "bash"
    elif exchange.name == "edit":
        part.detail_kind, part.detail, part.language = (
            "diff",
            visible(edit_arguments_diff(shown)),
            "diff",
        )
    elif exchange.name == "write":
        path = str(shown.get("path", ""))
        code = visible(str(shown.get("content", "")))
        if options.tools == "cut":
            kept, part.detail_cut = _cut_pieces([code])
            code = "\n".join(str(piece) for piece in kept)
        part.detail_kind, part.detail, part.language = "code", code, _language(path)
    elif exchange.name not in ("read", "grep", "find", "ls", "task") and shown:
        encoded = encode_json(shown, indent=True).decode("utf-8")
        part.detail_kind, part.detail, part.language = "json", visible(encoded), "json"
    if exchange.result is not None:
        pieces = _pieces(exchange.result.get("content"), redactor, output=True)
        if options.tools == "cut":
            pieces, part.output_cut = _cut_pieces(pieces)
        part.output = pieces
    part.duplicates = exchange.duplicate_results
    return part


def _part(item: Item, options: ExportOptions, redactor: Redactor) -> Part | None:
    kind = item.kind
    if kind == "text":
        return TextPart("text", clean(item.text, redactor)) if item.text.strip() else None
    if kind == "thinking":
        return TextPart("thinking", clean(item.text, redactor)) if options.thinking else None
    if kind == "tool":
        if item.tool is None or options.tools == "none":
            return None
        return _tool(item.tool, options, redactor)
    if kind == "orphan_result" and options.tools == "none":
        return None
    if kind in ("compaction", "branch_summary"):
        tokens = item.entry.record.get("tokensBefore") if kind == "compaction" else None
        said = f"{tokens:,} tokens before" if isinstance(tokens, int) else ""
        return Note(kind, said, clean(item.text, redactor))
    if kind == "orphan_result":
        return Note(kind, "", clean_output(item.text, redactor))
    if kind == "label":
        return None  # a label shows on the row it names (the turn's heading, or a note there)
    return Note(kind, clean(item.text, redactor))


def _turn(
    turn: Turn, number: int, labels: dict[str, str], options: ExportOptions, redactor: Redactor
) -> TurnDoc:
    if turn.user is None:
        prompt: list[Piece] = []
        title, stamp = "(session start)", ""
    else:
        skill = skill_summary(turn.prompt)
        content = turn.user.message.get("content")
        prompt = [visible(skill)] if skill is not None else _pieces(content, redactor, output=False)
        title = clean(turn.title, redactor)
        stamp = visible(str(turn.user.record.get("timestamp", "")))
    label = clean(labels.get(turn.key, ""), redactor)
    document = TurnDoc(number, title, stamp, prompt, label)
    for item in turn.items:
        part = _part(item, options, redactor)
        if part is None:
            continue
        if item.key in labels:
            document.parts.append(Note("label", clean(labels[item.key], redactor)))
        document.parts.append(part)
    return document


def build_document(
    loaded: LoadedBranch, title: str, options: ExportOptions, redactor: Redactor
) -> Document:
    """The document of a loaded branch (built with ``models=True``: model switches are rows)."""
    labels = loaded.row_labels()
    turns: list[TurnDoc] = []
    number = 0
    for turn in loaded.turns:
        if turn.user is not None:
            number += 1
        turns.append(_turn(turn, number if turn.user is not None else 0, labels, options, redactor))
    session = loaded.session
    return Document(
        title=clean(title, redactor),
        session_id=visible(str(session.header.get("id", ""))),
        project=clean(loaded.header.get("project", ""), redactor),
        model=visible(loaded.header.get("model", "")),
        leaf_id=visible(loaded.leaf_id or ""),
        current=loaded.leaf_id == session.leaf_id,
        turns=turns,
        options=options,
    )
