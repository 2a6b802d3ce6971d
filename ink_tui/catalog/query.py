"""The search query language, parsed into an FTS5 expression and filters.

- ``word``: every word must occur in the record (case and accents ignored; a word is matched
  whole, so ``retry`` does not find ``retrying``: write ``retry*``);
- ``"exact phrase"``: the words in this order, nothing between (punctuation is not a word, so
  ``"src/retry.ts"`` and ``src/retry.ts`` both find that path);
- ``-word`` or ``-"phrase"``: records holding it are left out;
- ``prefix*``: a word starting so;
- Chinese, Japanese and Korean text: any run of two or more characters is found wherever it
  occurs, inside longer runs too (``结构化`` finds ``把日志改成结构化输出``);
- filters: ``project:NAME`` (the project folder or cwd contains NAME; searches every project),
  ``model:NAME`` (the session's model contains NAME), ``machine:NAME`` (the sessions mirrored
  from machine NAME, its name whole; searches every machine), ``role:user|assistant|tool``,
  ``after:DATE`` (on or after; ``2026``, ``2026-10``, ``2026-10-05``, ``2026-10-05T14:30``,
  seconds and a trailing ``Z`` allowed), ``before:DATE`` (strictly before). A date that does not
  exist (``2026-13-45``, ``2026-02-30``, ``2026-99``, hour 25) is a query error naming the bad
  part, never a filter that quietly matches nothing.

Parsing never raises anything but :class:`QueryError`, whose message is one line for the user.
:meth:`Term.pattern` finds a term in a text the way the index matched it, for marking every
wanted term and phrase in a snippet.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from typing import Final

from ink_tui.catalog.textpieces import CJK_RUN, run_grams

__all__ = ["ROLES", "Query", "QueryError", "Term", "parse_query"]

ROLES: Final = ("user", "assistant", "tool")
_FILTERS: Final = ("project", "model", "machine", "role", "after", "before")
_PIECE: Final = re.compile(
    r'(?P<neg>-?)(?:(?P<key>[A-Za-z]+):)?(?:"(?P<quoted>[^"]*)"?|(?P<bare>[^\s"]*))'
)
_DATE: Final = re.compile(
    r"(?P<year>\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2})(?:[T ](?P<hour>\d{2}):(?P<minute>\d{2})"
    r"(?::(?P<second>\d{2})(?:\.\d{1,9})?)?Z?)?)?)?"
)
_WORD_CHAR: Final = re.compile(r"\w")
_TOKEN: Final = re.compile(r"[^\W_]+")  # a word as the index's tokenizer sees it
_BETWEEN: Final = r"[\W_]+"  # what separates the words of a phrase in the text
_NOT_WORD_BEFORE: Final = r"(?<![^\W_])"
_NOT_WORD_AFTER: Final = r"(?![^\W_])"


class QueryError(ValueError):
    """A query that cannot be run; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class Term:
    """One word or phrase of the query."""

    text: str
    negated: bool = False
    prefix: bool = False

    def fts(self) -> str | None:
        """This term as an FTS5 expression (``None`` when nothing in it can be searched)."""
        parts: list[str] = []
        rest = CJK_RUN.sub(" ", self.text)
        if _WORD_CHAR.search(rest):
            parts.append(f"body : {_quote(rest)}" + (" *" if self.prefix else ""))
        for run in CJK_RUN.findall(self.text):
            if len(run) >= 2:
                parts.append(f"grams : {_quote(run_grams(run))}")
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else "(" + " AND ".join(parts) + ")"

    def needles(self) -> list[str]:
        """What a snippet looks for in the text: the term as written, then its words."""
        words = [word for word in re.split(r"\W+", self.text) if word]
        return [self.text, *words]

    def pattern(self) -> re.Pattern[str] | None:
        """Where this term occurs in a text as the index matches it (case ignored): its words
        in order, whole, with any punctuation or spaces between them (the last one a prefix for
        ``word*``), and each run of two or more CJK characters anywhere. ``None``: nothing in
        it can be found."""
        pieces: list[str] = []
        words = _TOKEN.findall(CJK_RUN.sub(" ", self.text))
        if words:
            phrase = _BETWEEN.join(re.escape(word) for word in words)
            end = r"[^\W_]*" if self.prefix else _NOT_WORD_AFTER
            pieces.append(f"{_NOT_WORD_BEFORE}{phrase}{end}")
        pieces += [re.escape(run) for run in CJK_RUN.findall(self.text) if len(run) >= 2]
        return re.compile("|".join(pieces), re.IGNORECASE) if pieces else None


@dataclass(slots=True)
class Query:
    """A parsed query."""

    terms: list[Term] = field(default_factory=list)
    projects: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    machines: list[str] = field(default_factory=list)  # mirrored machines' names, casefolded
    roles: list[str] = field(default_factory=list)
    after: str | None = None
    before: str | None = None

    @property
    def wanted(self) -> list[Term]:
        """The terms that must occur."""
        return [term for term in self.terms if not term.negated]

    def match(self) -> str:
        """The FTS5 MATCH expression: every wanted term, none of the excluded ones."""
        wanted = [expression for term in self.wanted if (expression := term.fts()) is not None]
        if not wanted:
            raise QueryError(_nothing_to_find(self))
        text = " AND ".join(wanted)
        for term in self.terms:
            if term.negated and (expression := term.fts()) is not None:
                text = f"({text}) NOT {expression}"
        return text


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _nothing_to_find(query: Query) -> str:
    if any(not term.negated for term in query.terms):
        return "give two or more Chinese, Japanese or Korean characters, or a word"
    return "give a word or a phrase to look for (filters and -words only narrow a search)"


def _date(key: str, value: str) -> str:
    """``value`` as the index's timestamps are compared with it; :class:`QueryError` naming the
    bad part when it is not a date, or one that does not exist."""
    found = _DATE.fullmatch(value)
    if found is None:
        raise QueryError(f"{key}: takes a date like 2026-10-05 or 2026-10, not {value!r}")
    bad = _impossible(found)
    if bad is not None:
        raise QueryError(f"{key}:{value} is not a date: {bad}")
    return value.replace(" ", "T")


def _impossible(date: re.Match[str]) -> str | None:
    """What makes a well-formed date impossible (``"there is no month 13"``), else ``None``."""
    year = int(date["year"])
    if year == 0:
        return "there is no year 0000"
    if date["month"] is None:
        return None
    month = int(date["month"])
    if not 1 <= month <= 12:
        return f"there is no month {date['month']} (01 to 12)"
    if date["day"] is None:
        return None
    days = calendar.monthrange(year, month)[1]
    if not 1 <= int(date["day"]) <= days:
        return f"{date['year']}-{date['month']} has no day {date['day']} (01 to {days})"
    for part, top in (("hour", 23), ("minute", 59), ("second", 59)):
        if date[part] is not None and int(date[part]) > top:
            return f"there is no {part} {date[part]} (00 to {top})"
    return None


def _add_filter(query: Query, key: str, value: str) -> None:
    if value == "":
        raise QueryError(f"{key}: needs a value (e.g. {key}:{_EXAMPLES[key]})")
    if key == "project":
        query.projects.append(value.casefold())
    elif key == "model":
        query.models.append(value.casefold())
    elif key == "machine":
        query.machines.append(value.casefold())
    elif key == "role":
        role = value.casefold()
        if role not in ROLES:
            raise QueryError(f"role: is one of {', '.join(ROLES)}, not {value!r}")
        query.roles.append(role)
    elif key == "after":
        query.after = _date(key, value)
    else:
        query.before = _date(key, value)


_EXAMPLES: Final = {
    "project": "web",
    "model": "sonnet",
    "machine": "devbox",
    "role": "user",
    "after": "2026-10-01",
    "before": "2026-11-01",
}


def parse_query(text: str) -> Query:
    """Parse a query (see the module doc); raises :class:`QueryError`."""
    query = Query()
    text = text.replace("\x00", " ")  # FTS5's parser stops at a NUL: it is no character anyway
    for piece in _PIECE.finditer(text):
        key = piece["key"]
        quoted = piece["quoted"]
        value = quoted if quoted is not None else piece["bare"] or ""
        if key is not None and key.casefold() in _FILTERS:
            if piece["neg"]:
                raise QueryError(f"-{key}: is not supported: filters only narrow a search")
            _add_filter(query, key.casefold(), value)
            continue
        if key is not None:
            value = f"{key}:{value}"  # not a filter: a word with a colon, as written
        prefix = quoted is None and value.endswith("*") and len(value) > 1
        if prefix:
            value = value.rstrip("*")
        if value.strip():
            query.terms.append(Term(value, negated=bool(piece["neg"]), prefix=prefix))
    if query.after and query.before and query.after >= query.before:
        raise QueryError(f"after:{query.after} is not before before:{query.before}")
    query.match()  # raises when there is nothing to look for
    return query
