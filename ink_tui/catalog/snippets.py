"""A search hit's snippet: one line of the record's text around the match (where most of the wanted
terms occur together), every wanted term and phrase in it marked.

A term is found as the index matched it (:meth:`ink_tui.catalog.query.Term.pattern`): words whole
and in order, any punctuation or spaces between a phrase's words, case ignored, a CJK run
anywhere. A match the index found only through accents or its tokenizer's rules is not located:
the snippet is then the text's start, with nothing marked. The snippet is session text
(untrusted): callers render it through the safe door.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from ink_tui.catalog.query import Query, Term

__all__ = ["SNIPPET_WIDTH", "Marks", "marks_in", "snippet_of"]

SNIPPET_WIDTH: Final = 100
_BEFORE: Final = 30  # characters of context before the match
_LOOKED_AT: Final = 64  # occurrences of each term weighed for where the snippet goes
_SPACES: Final = re.compile(r"\s+")

Marks = tuple[tuple[int, int], ...]  # (start, end) spans, in order, never overlapping


def _patterns(query: Query) -> list[re.Pattern[str]]:
    return _compiled(tuple(query.wanted))


@functools.lru_cache(maxsize=64)  # a search makes a snippet per hit, all with the same terms
def _compiled(terms: tuple[Term, ...]) -> list[re.Pattern[str]]:
    return [found for term in terms if (found := term.pattern()) is not None]


def _anchor(text: str, patterns: list[re.Pattern[str]], width: int) -> tuple[int, int]:
    """The span the snippet is built around: the first occurrence of a wanted term whose window
    holds the most of the wanted terms (a lone term: its first occurrence); ``(0, 0)`` when
    none is found."""
    if len(patterns) == 1:  # the common case: where it first occurs
        first = next((m for m in patterns[0].finditer(text) if m.end() > m.start()), None)
        return (0, 0) if first is None else first.span()
    found: list[tuple[int, int, int]] = []  # (start, end, which term)
    for number, pattern in enumerate(patterns):
        for seen, match in enumerate(pattern.finditer(text)):
            if seen == _LOOKED_AT:
                break
            if match.end() > match.start():
                found.append((match.start(), match.end(), number))
    if not found:
        return 0, 0
    found.sort()
    best, most = found[0], 0
    for candidate in found:
        left = max(0, candidate[0] - _BEFORE)
        held = {term for start, end, term in found if start >= left and end <= left + width}
        if len(held) > most:
            best, most = candidate, len(held)
    return best[0], best[1]


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
    """One line of ``text`` around the wanted terms (see :func:`_anchor`), and where they are in
    it."""
    start, end = _anchor(text, _patterns(query), width)
    left = max(0, start - _BEFORE)
    right = max(left + width, end)
    head = "…" if left > 0 else ""
    tail = "…" if right < len(text) else ""
    before = _SPACES.sub(" ", text[left:start])
    line = head + (before if head else before.lstrip())
    line += _SPACES.sub(" ", text[start:right]).rstrip() + tail
    return line, marks_in(line, query)
