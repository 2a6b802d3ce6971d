"""What the search index holds of one record: its text, capped, and the CJK bigrams of that text.

One record gives at most one searchable text (:func:`record_text`):

- a user message: its prompt (text blocks; images are not text);
- an assistant message: its text, its thinking and each tool call (the tool's name, then each
  argument as ``key: value``, strings as written rather than JSON-escaped);
- a tool result message: each result's text;
- a compaction or branch summary: the summary; a ``session_info``: the name; a ``label``: the
  label.

Caps (documented in README): a tool call's arguments and a tool result are cut at
:data:`TOOL_CAP` characters each (their start is what people remember: the command, the path, the
error), any other text at :data:`PROSE_CAP` characters. Text past a cap is still shown when the
session is opened; it is only not found by search.

Chinese, Japanese and Korean text has no spaces between words, so a word tokenizer sees a whole
run of it as one token and finds no part of it. :func:`cjk_grams` writes every run of two or more
such characters as its overlapping bigrams (``把日志改`` → ``把日 日志 志改``), runs apart by a
token that no bigram equals; a query for any substring of two or more characters is then the
phrase of its bigrams, which matches exactly where that substring occurs.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from typing import Any, Final

from ink_tui.session.reading.jsoncodec import encode_json
from ink_tui.session.rules.content import content_text

__all__ = [
    "PROSE_CAP",
    "TOOL_CAP",
    "cjk_grams",
    "cjk_runs",
    "pack_text",
    "record_role",
    "record_text",
    "unpack_text",
]

TOOL_CAP: Final = 2_048
PROSE_CAP: Final = 32_768

# Han (with extensions A and compatibility), kana (with half-width katakana), Hangul syllables and
# jamo: the scripts written without spaces between words.
_CJK_CLASS: Final = (
    "\u3040-\u30ff\u3131-\u318e\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
)
CJK_RUN: Final = re.compile(f"[{_CJK_CLASS}]+")
_ESCAPES: Final = re.compile(
    r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])"
)
_RUN_BREAK: Final = " 0 "  # a token between runs, so a phrase never spans two runs


COMPRESS_FROM: Final = 512  # bytes of text from which the index stores it compressed
_PLAIN: Final = b"\x00"
_ZLIB: Final = b"\x01"


def cjk_runs(text: str) -> list[str]:
    """The runs of Chinese, Japanese or Korean characters in ``text``, in order."""
    return CJK_RUN.findall(text)


def run_grams(run: str) -> str:
    """One run as its overlapping bigrams, space-separated (``""`` for a single character)."""
    return " ".join(run[i : i + 2] for i in range(len(run) - 1))


def cjk_grams(text: str) -> str:
    """Every CJK run of two or more characters in ``text`` as bigrams (see the module doc)."""
    if text.isascii():
        return ""  # the common case, at memory speed
    return _RUN_BREAK.join(grams for run in cjk_runs(text) if (grams := run_grams(run)))


def _cut(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[:cap]


def _argument_lines(arguments: Any) -> Iterator[str]:
    if isinstance(arguments, dict):
        for key, value in arguments.items():
            shown = value if isinstance(value, str) else encode_json(value).decode("utf-8")
            yield f"{key}: {shown}"
    elif arguments is not None:
        yield encode_json(arguments).decode("utf-8", "replace")


def _call_text(block: dict[str, Any]) -> str:
    lines = [str(block.get("name", ""))]
    lines.extend(_argument_lines(block.get("arguments")))
    return _cut("\n".join(lines), TOOL_CAP)


def _assistant_parts(message: dict[str, Any]) -> Iterator[str]:
    blocks = message.get("blocks")
    if not isinstance(blocks, list):
        return
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            yield _cut(str(block.get("text", "")), PROSE_CAP)
        elif kind == "thinking":
            yield _cut(str(block.get("thinking", "")), PROSE_CAP)
        elif kind == "toolCall":
            yield _call_text(block)


def _result_parts(message: dict[str, Any]) -> Iterator[str]:
    results = message.get("results")
    if not isinstance(results, list):
        return
    for result in results:
        if isinstance(result, dict):
            yield _cut(content_text(result.get("content"), show_non_string_text=True), TOOL_CAP)


def _message_parts(message: Any) -> Iterator[str]:
    if not isinstance(message, dict):
        return
    role = message.get("role")
    if role == "user":
        yield _cut(content_text(message.get("content"), show_non_string_text=True), PROSE_CAP)
    elif role == "assistant":
        yield from _assistant_parts(message)
    elif role == "toolResult":
        yield from _result_parts(message)


def record_text(kind: str, record: dict[str, Any]) -> str:
    """The searchable text of one tree entry (``kind`` is its ``type``); ``""`` when none.

    Terminal escape sequences (colours in tool output) are left out: they are not what anyone
    searches for, and they would split the words they surround.
    """
    text = _record_text(kind, record)
    return _ESCAPES.sub("", text) if "\x1b" in text else text


def _record_text(kind: str, record: dict[str, Any]) -> str:
    if kind == "message":
        parts = _message_parts(record.get("message"))
    elif kind in ("compaction", "branchSummary"):
        parts = iter((_cut(str(record.get("summary", "")), PROSE_CAP),))
    elif kind == "session_info":
        parts = iter((str(record.get("name", "")),))
    elif kind == "label":
        parts = iter((str(record.get("label", "")),))
    else:
        return ""
    return "\n".join(part for part in parts if part)


_ROLE_OF_KIND: Final = {
    "compaction": "summary",
    "branchSummary": "summary",
    "session_info": "name",
    "label": "label",
}


def record_role(kind: str, record: dict[str, Any]) -> str:
    """What a hit is: user, assistant, tool (a result), summary, name or label."""
    if kind != "message":
        return _ROLE_OF_KIND.get(kind, kind)
    message = record.get("message")
    role = message.get("role") if isinstance(message, dict) else None
    if role == "toolResult":
        return "tool"
    return str(role) if isinstance(role, str) else "message"


def pack_text(text: str) -> bytes:
    """Text as the index stores it: UTF-8 (lone surrogates kept), behind a tag byte; zlib level
    1 from :data:`COMPRESS_FROM` bytes on (a short text hardly shrinks, and setting up a
    compressor costs more than the bytes saved)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) < COMPRESS_FROM:
        return _PLAIN + data
    return _ZLIB + zlib.compress(data, 1)


def unpack_text(packed: bytes, limit: int = 0) -> str:
    """The text :func:`pack_text` stored (its first ``limit`` bytes or so, when ``limit``)."""
    tag, data = packed[:1], packed[1:]
    if tag == _PLAIN:
        if not limit or len(data) <= limit:
            return data.decode("utf-8", "surrogatepass")
        return data[:limit].decode("utf-8", "ignore")
    if not limit:
        return zlib.decompress(data).decode("utf-8", "surrogatepass")
    head = zlib.decompressobj().decompress(data, limit)
    return head.decode("utf-8", "ignore")  # a character cut at the end is dropped
