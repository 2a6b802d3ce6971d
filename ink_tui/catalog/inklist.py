"""``ink sessions``, as Ink prints it (spec §7; ``cli.ts@b1deda4d`` ``printSessionList``).

Ink lists ``listSessions(cwd)`` with its default filter, newest file mtime first, with no cap
(:func:`ink_tui.catalog.scan.list_sessions` with ``include_hidden=False`` is exactly that list:
a file Ink's ``open()`` or ``stats()`` rejects is left out, and so is one holding no message
entry and no explicit model selection; ``children/`` is never read). One line per session::

    <date>  <id8>  <M> msgs · <T> turns  <title>

``<date>`` is the mtime in UTC as ``toISOString().slice(0, 16)`` with the ``T`` made a space
(``YYYY-MM-DD HH:MM``, the seconds cut, never rounded); ``<id8>`` the header id's first 8
UTF-16 units; ``M`` the message entries and ``T`` the assistant messages of the current branch
(``stats()``), both always plural; ``<title>`` the listing's title. Then an empty line and the
two ``Resume with`` lines; with no session, ``No saved sessions for this directory yet.``

Ink prints the title as it is; here it is one line whatever it holds (a name with a line break
would start a line of its own): :func:`ink_tui.safetext.one_line` shows the break as ``␊``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from ink_tui.catalog.row import SessionSummary
from ink_tui.catalog.titles import js_slice
from ink_tui.safetext import one_line, utf8_safe

__all__ = ["NO_SESSIONS", "RESUME_HINT", "ink_date", "ink_session_line", "ink_sessions_text"]

NO_SESSIONS: Final = "No saved sessions for this directory yet."
RESUME_HINT: Final = (
    "Resume with: ink -c            (most recent)",
    "             ink -r <id>       (specific)",
)
_MS_PER_DAY: Final = 86_400_000


def _civil(days: int) -> tuple[int, int, int]:
    """(year, month, day) of a day count since 1970-01-01, proleptic Gregorian, any year."""
    days += 719_468
    era = days // 146_097
    day_of_era = days - era * 146_097
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + 3 if month_index < 10 else month_index - 9
    return year_of_era + era * 400 + (month <= 2), month, day


def ink_date(mtime: float) -> str:
    """An mtime (seconds) as Ink's list shows it: ``toISOString().slice(0, 16)``, ``T`` → space.

    ``new Date(ms)`` drops the fraction of a millisecond (toward zero); a year outside 0…9999
    is written as ``toISOString`` writes it (``+010000``, ``-000001``)."""
    ms = math.trunc(mtime * 1000)
    day, in_day = divmod(ms, _MS_PER_DAY)
    year, month, date = _civil(day)
    hour, minute = in_day // 3_600_000, in_day // 60_000 % 60
    shown_year = (
        f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"
    )
    iso = f"{shown_year}-{month:02d}-{date:02d}T{hour:02d}:{minute:02d}"
    return iso[:16].replace("T", " ", 1)


def ink_session_line(row: SessionSummary) -> str:
    """One session as ``ink sessions`` prints it (the row must be one Ink lists)."""
    id8 = utf8_safe(js_slice(row.id or "", 8))
    counts = f"{row.message_count} msgs · {row.turn_count} turns"
    return one_line(f"{ink_date(row.mtime)}  {id8}  {counts}  {utf8_safe(row.title)}")


def ink_sessions_text(rows: Iterable[SessionSummary]) -> str:
    """The whole output of ``ink sessions`` for the rows Ink lists (newest first)."""
    lines = [ink_session_line(row) for row in rows]
    if not lines:
        return NO_SESSIONS + "\n"
    return "".join(f"{line}\n" for line in [*lines, "", *RESUME_HINT])
