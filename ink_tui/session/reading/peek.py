"""Reading just enough of many entries, from a thread, without touching the shared entries.

:class:`EntryPeek` answers "is this message a user prompt?" and "what is its record?" for entries
of a session another thread may be using (the session view, the live tail). Records in memory
are used as they are; the others are read here, one pass over the file per batch, and kept only
here, so nothing shared is mutated.

A message's role is read from the head of its line when the line starts exactly as Ink's writer
writes it (``{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{"role":"…"``): only a
few hundred bytes are read and nothing is parsed. Any other line (keys in another order, escapes,
spaces) is read whole and parsed. The role decides only what the branches list shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.recordtypes import EntryRecord, read_message

__all__ = ["EntryPeek"]

HEAD_BYTES: Final = 512
_STRING = rb'"(?:[^"\\]|\\.)*"'
_MESSAGE_HEAD: Final = re.compile(
    rb'\{"type":"message","id":' + _STRING + rb',"parentId":(?:null|' + _STRING + rb"),"
    rb'"timestamp":' + _STRING + rb',"message":\{"role":"([A-Za-z]+)"'
)


class EntryPeek:
    """Roles and records of entries, read aside from the entries themselves."""

    def __init__(self, session: SessionFile) -> None:
        self.session = session
        self._records: dict[int, EntryRecord] = {}  # id(entry) -> record read here
        self._roles: dict[int, str | None] = {}  # id(entry) -> role from the line's head

    def fetch_roles(self, entries: Iterable[Entry]) -> None:
        """Learn the role of every message entry among ``entries`` (one pass over the file)."""
        wanted = sorted(
            (
                entry
                for entry in entries
                if entry.type == "message"
                and entry._record is None
                and id(entry) not in self._records
                and id(entry) not in self._roles
            ),
            key=lambda entry: entry.offset,
        )
        if not wanted:
            return
        whole: list[Entry] = []
        with open_regular(self.session.path) as stream:
            for entry in wanted:
                stream.seek(entry.offset)
                head = stream.read(min(HEAD_BYTES, entry.end - entry.offset))
                match = _MESSAGE_HEAD.match(head)
                if match is None:
                    whole.append(entry)
                else:
                    self._roles[id(entry)] = match.group(1).decode("ascii")
        self.fetch(whole)

    def fetch(self, entries: Iterable[Entry]) -> None:
        """Read the records of ``entries`` not in memory (one pass over the file).

        Raises :class:`SessionError` when the file changed on disk under an entry.
        """
        missing = sorted(
            (e for e in entries if e._record is None and id(e) not in self._records),
            key=lambda e: e.offset,
        )
        if not missing:
            return
        with open_regular(self.session.path) as stream:
            for entry in missing:
                stream.seek(entry.offset)
                self._records[id(entry)] = entry._parse(stream.read(entry.end - entry.offset))

    def record(self, entry: Entry) -> EntryRecord:
        record = entry._record
        if record is None:
            record = self._records.get(id(entry))
            if record is None:
                self.fetch([entry])
                record = self._records[id(entry)]
        return record

    def role(self, entry: Entry) -> str | None:
        """The message's role (``None`` for other entries)."""
        if entry.type != "message":
            return None
        key = id(entry)
        if entry._record is None and key in self._roles:
            return self._roles[key]
        message = read_message(self.record(entry).get("message"))
        return None if message is None else message["role"]

    def is_prompt(self, entry: Entry) -> bool:
        return self.role(entry) == "user"
