"""Session text is untrusted: make it safe to print.

:func:`visible` is the one door from session text to a terminal, the app's screen (through
``ui/render/safe.py`` and the app's ``notify``) and the command line alike. Every control character
becomes visible: C0 controls as their Unicode control pictures (ESC shows as ``␛``), DEL as ``␡``,
C1 controls and bidirectional overrides as ``<U+XXXX>``. Newlines and tabs are kept. Nothing the
text holds can move the cursor, retitle the window or write the clipboard.

Lone surrogates (a JSON ``"\\ud83d"`` with no pair: a model cut mid-emoji writes them, Ink keeps
them) cannot be encoded as UTF-8: :func:`visible` and :func:`utf8_safe` show each as U+FFFD, as
Node does when it prints one. :func:`json_visible` is the door for JSON text (``--json``): it
escapes what the JSON encoder leaves raw and a terminal would obey, keeping the JSON value.

:func:`one_line` is the door for a name printed inside one line (a file path in a report row or
an error line): as :func:`visible`, and the newline and the tab shown too (``␊``, ``␉``), so a
name can neither fake a line of output nor shift a column.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "escape_spans",
    "json_visible",
    "keep_sgr",
    "one_line",
    "utf8_safe",
    "visible",
    "without_colour",
]

# C0 except \t and \n; DEL; C1; bidi embeddings, overrides and isolates; line/paragraph separators;
# lone surrogates (UTF-8 cannot encode them).
_UNSAFE: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
# The same, and the tab and the newline: for text that must stay on one line.
_UNSAFE_IN_LINE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
# What a JSON encoder leaves raw inside strings and a terminal obeys. Not C0: the encoder escapes
# it inside strings, and the newlines of an indented text stand between values.
_JSON_UNSAFE: Final = re.compile(
    "[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
REPLACEMENT: Final = "\ufffd"


def _show(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    if 0xD800 <= code <= 0xDFFF:
        return REPLACEMENT
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """``text`` with every control character made visible (``\\n`` and ``\\t`` kept) and every
    lone surrogate shown as U+FFFD: safe to print, and always encodable as UTF-8."""
    return _UNSAFE.sub(_show, text)


def one_line(text: str) -> str:
    """``text`` as :func:`visible` shows it, on one line: the newline and the tab are shown too
    (``␊``, ``␉``, their control pictures). For a name (a file path, a title) printed inside a
    line: it cannot start a line of its own or shift a column."""
    return _UNSAFE_IN_LINE.sub(_show, text)


def utf8_safe(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (what Node sends for one), so that it
    encodes as UTF-8; nothing else changes. For bytes that leave the process as data (a request
    body, the clipboard), not for display (use :func:`visible`)."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(REPLACEMENT, text)


def json_visible(encoded: str) -> str:
    """JSON text made safe to print with its value unchanged: DEL, C1 controls, bidi controls,
    line separators and lone surrogates, which JSON encoders leave raw, become ``\\uXXXX``.

    Such characters can only stand inside JSON strings, where ``\\uXXXX`` means the same.
    """
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", encoded)


# Escape sequences: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ST), other two-byte escapes.
_ESCAPE: Final = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC (title, clipboard, hyperlink), maybe unterminated
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS, SOS, PM, APC strings
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
)
_SGR: Final = re.compile(r"\x1b\[[0-9;:]*m")


def keep_sgr(text: str) -> str:
    """``text`` with SGR colour sequences kept and every other control made visible.

    The result holds no escape other than ``ESC [ … m``, so an ANSI decoder can turn it into
    colours and nothing else. Other sequences appear as text (``␛]0;title␇``). ``\\r\\n`` becomes
    ``\\n``.
    """
    text = text.replace("\r\n", "\n")
    out: list[str] = []
    position = 0
    for match in _ESCAPE.finditer(text):
        out.append(visible(text[position : match.start()]))
        sequence = match.group()
        out.append(sequence if _SGR.fullmatch(sequence) else visible(sequence))
        position = match.end()
    out.append(visible(text[position:]))
    return "".join(out)


def without_colour(text: str) -> str:
    """``text`` with its SGR colour sequences removed (``rg --color`` output read by an agent
    is the words alone), every other control left as it is for :func:`visible` to show."""
    return _SGR.sub("", text)


def escape_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s escape sequences are (CSI, OSC, DCS…): what a reader of the words,
    such as the secrets detector, looks past."""
    if "\x1b" not in text:
        return []
    return [match.span() for match in _ESCAPE.finditer(text)]
