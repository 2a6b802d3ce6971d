"""Ages, sizes, counts and plurals as people read them, for the screens and the command line;
and the one way text is cut to a width (:func:`cut`, :func:`cut_length`): by terminal cells."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from functools import lru_cache

__all__ = [
    "BREADCRUMB_PARENT",
    "COUNT_WIDTH",
    "ELLIPSIS",
    "THIS_MACHINE",
    "breadcrumb",
    "cell_width",
    "char_cells",
    "compact_count",
    "counts_sentence",
    "cut",
    "cut_length",
    "human_size",
    "plural",
    "relative_age",
]

ELLIPSIS = "…"

COUNT_WIDTH = 5
"""The widest :func:`compact_count` text (``"49.9k"``, ``"-9999"``)."""
BREADCRUMB_PARENT = 30
"""Characters of a parent session's title in a subagent's breadcrumb."""
THIS_MACHINE = "(this machine)"
"""How text names this machine where a machine's name goes (no machine name has brackets)."""


def breadcrumb(parent: str, child: str) -> str:
    """``parent ▸ task ▸ child``: a subagent session named after the session that ran it, the
    parent's title cut to :data:`BREADCRUMB_PARENT` characters (the child's is what matters)."""
    return f"{cut(parent, BREADCRUMB_PARENT)} ▸ task ▸ {child}"


@lru_cache(maxsize=4096)
def char_cells(char: str) -> int:
    """Terminal cells one character takes: 2 for East Asian wide and fullwidth characters
    (``中``, ``ｶ`` is 1), 0 for combining marks and zero-width format characters, else 1."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


CharCells = Callable[[str], int]


def cell_width(text: str, cells: CharCells = char_cells) -> int:
    """Terminal cells ``text`` takes (one line)."""
    return sum(map(cells, text))


def cut_length(text: str, width: int, cells: CharCells = char_cells) -> int | None:
    """``None`` when ``text`` fits in ``width`` cells; else how many of its characters to keep
    so that they and ``…`` fit, whitespace before the cut left out (never ``"fix …"``).

    ``cells`` measures one character (a screen passes its renderer's own measure)."""
    if cells is char_cells and text.isascii():  # one cell a character: no need to measure
        if len(text) <= width or not text:
            return None
        kept = max(width - 1, 0)
        while kept and text[kept - 1].isspace():
            kept -= 1
        return kept
    limit = width - 1  # the room before the ellipsis
    keep: int | None = None
    total = 0
    for index, char in enumerate(text):
        total += cells(char)
        if keep is None and total > limit:
            keep = index
        if total > width:
            break
    else:
        return None
    assert keep is not None
    while keep and text[keep - 1].isspace():
        keep -= 1
    return keep


def cut(text: str, width: int, cells: CharCells = char_cells) -> str:
    """``text`` in at most ``width`` cells: whole, or cut by cell width (a wide character is two
    cells, never half shown) with ``…`` after the last character kept."""
    if width <= 0:
        return ""
    keep = cut_length(text, width, cells)
    return text if keep is None else text[:keep] + ELLIPSIS


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """``"1 leaf"``, ``"2 leaves"``, ``"0 compactions"``: the count and the word that fits it."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count:,} {word}"


def counts_sentence(counts: Mapping[str, int]) -> str:
    """``2 github-token, 1 password``: counts by kind, most first (then by name)."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{count} {kind}" for kind, count in ordered)


def compact_count(count: int) -> str:
    """A count in at most :data:`COUNT_WIDTH` characters, never cut: ``"9998"``, ``"49.9k"``,
    ``"408k"``, ``"1.2M"``. Below 10,000 it is exact."""
    if -10_000 < count < 10_000:
        return str(count)
    sign = "-" if count < 0 else ""
    value = abs(count)
    for unit, size in (("k", 1_000), ("M", 1_000_000), ("G", 1_000_000_000)):
        scaled = value / size
        for text in (f"{scaled:.1f}", f"{scaled:.0f}"):
            if len(sign + text) + 1 <= COUNT_WIDTH and float(text) < 1000:
                return f"{sign}{text}{unit}"
    return f"{sign}{value / 1e12:.0f}T"


def relative_age(mtime: float, now: float) -> str:
    """``"12s ago"``, ``"3m ago"``, ``"5h ago"``, ``"2d ago"``, ``"3w ago"``, ``"4mo ago"``…"""
    seconds = max(0.0, now - mtime)
    for limit, unit, size in (
        (60, "s", 1),
        (3600, "m", 60),
        (86400, "h", 3600),
        (7 * 86400, "d", 86400),
        (35 * 86400, "w", 7 * 86400),
        (365 * 86400, "mo", 30 * 86400),
    ):
        if seconds < limit:
            return f"{int(seconds // size)}{unit} ago"
    return f"{int(seconds // (365 * 86400))}y ago"


def human_size(size: int) -> str:
    """``"812 B"``, ``"4.2 KB"``, ``"1.3 MB"`` (binary units)."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"  # pragma: no cover - the loop always returns
