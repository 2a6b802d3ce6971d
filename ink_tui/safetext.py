"""Session text is untrusted: make it safe to print.

:func:`visible` is the door from session text to a plain terminal (the command line). Every
control character becomes visible: C0 controls as their Unicode control pictures (ESC shows as
``␛``), DEL as ``␡``, C1 controls and bidirectional overrides as ``<U+XXXX>``. Newlines and tabs
are kept. Nothing the text holds can move the cursor, retitle the window or write the clipboard.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["keep_sgr", "visible"]

# C0 except \t and \n; DEL; C1; bidi embeddings, overrides and isolates; line/paragraph separators.
_UNSAFE: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def _show(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """``text`` with every control character made visible (``\\n`` and ``\\t`` kept)."""
    return _UNSAFE.sub(_show, text)


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
