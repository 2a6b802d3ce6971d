"""A search hit's snippet: one line of the record's text around the match, every wanted term and
phrase in it marked.

A term is found as the index matched it (:meth:`ink_tui.catalog.query.Term.pattern`): words whole
and in order, any punctuation or spaces between a phrase's words, case ignored, a CJK run
anywhere. A match the index found only through accents or its tokenizer's rules is not located:
the snippet is then the text's start, with nothing marked. The snippet is session text
(untrusted): callers render it through the safe door.
"""

from __future__ import annotations

import re
from typing import Final

from ink_tui.catalog.query import Query

__all__ = ["SNIPPET_WIDTH", "Marks", "marks_in", "snippet_of"]

SNIPPET_WIDTH: Final = 100
_BEFORE: Final = 30  # characters of context before the match
_SPACES: Final = re.compile(r"\s+")

Marks = tuple[tuple[int, int], ...]  # (start, end) spans, in order, never overlapping


def _patterns(query: Query) -> list[re.Pattern[str]]:
    return [found for term in query.wanted if (found := term.pattern()) is not None]


def _first(text: str, patterns: list[re.Pattern[str]]) -> tuple[int, int]:
    """The span of the first wanted term that occurs (in the query's order), else ``(0, 0)``."""
    for pattern in patterns:
        found = pattern.search(text)
        if found is not None and found.end() > found.start():
            return found.span()
    return 0, 0


def marks_in(line: str, query: Query) -> Marks:
    """Every place in ``line`` where a wanted term or phrase occurs, overlaps merged."""
    spans = sorted(
        found.span()
        for pattern in _patterns(query)
        for found in pattern.finditer(line)
        if found.end() > found.start()
    )
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


def snippet_of(text: str, query: Query, width: int = SNIPPET_WIDTH) -> tuple[str, Marks]:
    """One line of ``text`` around the first wanted term, and where the wanted terms are in it."""
    start, end = _first(text, _patterns(query))
    left = max(0, start - _BEFORE)
    right = max(left + width, end)
    head = "…" if left > 0 else ""
    tail = "…" if right < len(text) else ""
    before = _SPACES.sub(" ", text[left:start])
    line = head + (before if head else before.lstrip())
    line += _SPACES.sub(" ", text[start:right]).rstrip() + tail
    return line, marks_in(line, query)
