"""Read one session file (all of it, or only what was appended) into index rows.

Every line read is decoded and checked as Ink's ``open()`` checks it
(:func:`ink_tui.session.reading.records.classify_record`), and fed to the listing's scan
(:class:`ink_tui.catalog.summary.ListingScan`), so the row equals what
:func:`ink_tui.catalog.summary.summarize_file` gives for the same bytes.

Secrets never reach the index: each chunk of lines read goes through the detector's cheap look
first (:func:`ink_tui.secrets.gate.lines_that_may_hold_secrets`), and a record on a line it lets
through has its secrets masked (``[REDACTED:<kind>:<fp8>]``) before its searchable text is taken;
the row counts them by kind (``SessionSummary.secrets``, the count ``ink-tui secrets`` gives).

The last non-blank line is special, as in Ink: it may be a record Ink is still writing, and a torn
one is dropped. So the index keeps what it read up to the START of that line (``indexed_to``, with
the scan's state there), and the last line's entry and text are stored as provisional: the next
scan of an appended file deletes them and reads again from ``indexed_to``.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO, Final

from ink_tui.catalog.gatedlines import gated_batches
from ink_tui.catalog.index.scanrows import (
    EntryRow,
    FileScan,
    MarkerRow,
    Resume,
    TextRow,
    fingerprint,
)
from ink_tui.catalog.index.store import db_text
from ink_tui.catalog.row import SessionSummary
from ink_tui.catalog.summary import (
    ListingScan,
    ScanNode,
    finish_summary,
    read_header_into,
    set_title,
)
from ink_tui.catalog.textpieces import cjk_grams, record_role, record_text
from ink_tui.secrets import Secret, mask_value, redaction
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.jsoncodec import decode_line
from ink_tui.session.reading.lines import RawLine, is_blank
from ink_tui.session.reading.records import LineKind
from ink_tui.session.rules.modelref import ModelRef

__all__ = ["new_summary", "scan_file"]

_CHUNK: Final = 1024 * 1024  # bytes read at a time (the gate looks at each chunk)


def _usage_tokens(message: Any) -> tuple[int, int]:
    usage = message.get("usage") if isinstance(message, dict) else None
    if not isinstance(usage, dict):
        return 0, 0

    def number(key: str) -> int:
        value = usage.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return 0
        return int(value) if math.isfinite(value) else 0

    spent_in = number("inputTokens") + number("cacheReadTokens") + number("cacheWriteTokens")
    return spent_in, number("outputTokens")


class _FileReader:
    """The scan of one file plus what the index adds to it (turns, tokens, texts)."""

    def __init__(self, path: Path, summary: SessionSummary) -> None:
        self.path = path
        self.summary = summary
        self.scan = ListingScan(path, summary)
        self.line = 1
        self.turns: dict[str, int] = {}
        self.tokens: dict[str, tuple[int, int]] = {}
        self.last_timestamp: str | None = None
        self.entries: list[EntryRow] = []
        self.markers: list[MarkerRow] = []
        self.texts: list[TextRow] = []
        self.lossy = False  # an id or name had a lone surrogate: stored changed (U+FFFD)
        self.secrets: Counter[str] = Counter()  # the secrets masked, by kind

    def resume(self, resume: Resume) -> None:
        state = resume.state
        scan = self.scan
        for key in ("seq", "last_entry_seq", "last_content_id", "has_messages"):
            setattr(scan, key, state[key])
        scan.found_first_user = state["found_first_user"]
        scan.first_title = state["first_title"]
        position = state["position"]
        scan.position = None if position is None else (position[0], int(position[1]))
        model = state["last_model"]
        scan.last_model = None if model is None else ModelRef(model[0], model[1])
        self.line = state["line"]
        self.secrets = Counter(state["secrets"])
        self.last_timestamp = state["last_timestamp"]
        header = state["header"]
        summary = self.summary
        summary.id, summary.cwd, summary.created = header["id"], header["cwd"], header["created"]
        summary.is_child = header["is_child"]
        summary.parent_session = header["parent"]
        summary.explicit_model = state["explicit_model"]
        model = header["model"]
        summary.model = None if model is None else ModelRef(model[0], model[1])
        for entry in resume.entries:
            node = ScanNode(entry.type, entry.parent_id, entry.line, entry.offset, role=entry.role)
            node.usage, node.name = entry.usage, entry.name
            scan.nodes[entry.id] = node
            self.turns[entry.id] = entry.turn
            if entry.role == "assistant":
                self.tokens[entry.id] = (entry.tokens_in, entry.tokens_out)

    def state(self, header_model: ModelRef | None) -> dict[str, Any]:
        scan, summary = self.scan, self.summary
        model = scan.last_model
        return {
            "seq": scan.seq,
            "line": self.line,
            "last_entry_seq": scan.last_entry_seq,
            "last_content_id": scan.last_content_id,
            "has_messages": scan.has_messages,
            "found_first_user": scan.found_first_user,
            "first_title": scan.first_title,
            "position": None if scan.position is None else list(scan.position),
            "last_model": None if model is None else [model.provider, model.model_id],
            "explicit_model": summary.explicit_model,
            "last_timestamp": self.last_timestamp,
            "secrets": dict(self.secrets),
            "header": {
                "id": summary.id,
                "cwd": summary.cwd,
                "created": summary.created,
                "is_child": summary.is_child,
                "parent": summary.parent_session,
                "model": None
                if header_model is None
                else [header_model.provider, header_model.model_id],
            },
        }

    def masked(self, record: Any) -> Any:
        """``record`` with its secrets masked, each one counted."""

        def mask(secret: Secret) -> str:
            self.secrets[secret.kind] += 1
            return redaction(secret)

        return mask_value(record, mask)[0]

    def add(self, raw: RawLine, *, last: bool, gated: bool) -> None:
        """One non-blank line after the header (``last``: the file's final one, maybe torn),
        read in full and checked as ``open()`` checks it; ``gated``: the line may hold a
        secret."""
        self.line += 1
        parsed = self.scan.add(raw, self.line, last=last, whole=True)
        if parsed is None:
            return
        shown = self.masked(parsed[0]) if gated else parsed[0]
        if parsed[1] is LineKind.ENTRY:
            self._entry(parsed[0], raw, self.line, shown)
        else:
            seq = self.scan.seq - 1
            self.markers.append(
                MarkerRow(seq, parsed[1].value, raw.offset, len(raw.data), self.line)
            )

    def _safe(self, text: str | None) -> str | None:
        """``text`` as SQLite takes it; an id changed so cannot be resumed from (see scan_file)."""
        if text is None or text.isascii():
            return text
        safe = db_text(text)
        if safe is not text:
            self.lossy = True
        return safe

    def _entry(self, record: dict[str, Any], raw: RawLine, line: int, shown: Any) -> None:
        """One tree entry; ``shown`` is the record with its secrets masked (its text's source)."""
        entry_id = str(record["id"])
        parent = record["parentId"]
        node = self.scan.nodes[entry_id]
        kind = node.kind
        is_prompt = kind == "message" and node.role == "user"
        turn = self.turns.get(parent, 0) + (1 if is_prompt else 0) if parent else int(is_prompt)
        self.turns[entry_id] = turn
        timestamp = record.get("timestamp")
        timestamp = self._safe(timestamp) if isinstance(timestamp, str) else None
        if timestamp is not None:
            self.last_timestamp = timestamp
        spent = (0, 0)
        if node.role == "assistant":
            spent = _usage_tokens(record.get("message"))
            self.tokens[entry_id] = spent
        self.entries.append(
            EntryRow(
                self.scan.seq - 1,
                str(self._safe(entry_id)),
                self._safe(parent),
                kind,
                self._safe(node.role),
                raw.offset,
                len(raw.data),
                line,
                turn,
                timestamp,
                node.usage,
                self._safe(node.name),
                spent[0],
                spent[1],
            )
        )
        text = record_text(kind, shown)
        if text:
            role = str(self._safe(record_role(kind, record)))
            self.texts.append(
                TextRow(self.scan.seq - 1, raw.offset, role, timestamp, text, cjk_grams(text))
            )

    def branch_tokens(self) -> tuple[int, int]:
        """Tokens spent by the assistant messages of the current branch."""
        spent_in = spent_out = 0
        seen: set[str] = set()
        current = self.summary.leaf_id
        while current is not None and current not in seen:
            seen.add(current)
            used = self.tokens.get(current)
            if used is not None:
                spent_in, spent_out = spent_in + used[0], spent_out + used[1]
            node = self.scan.nodes.get(current)
            current = None if node is None else node.parent
        return spent_in, spent_out


def _gated_lines(stream: BinaryIO, start: int) -> Iterator[tuple[RawLine, bool]]:
    """Each line from ``start``, and whether it may hold a secret (the gate, a chunk at a time:
    called per line, its setup would cost more than the look itself)."""
    for batch in gated_batches(stream, start, _CHUNK):
        offset = batch.offset
        for index, part in enumerate(batch.lines):
            yield RawLine(part, offset, batch.terminated), index in batch.wanted
            offset += len(part) + 1


def scan_file(
    path: Path, stream: BinaryIO, summary: SessionSummary, resume: Resume | None
) -> FileScan:
    """Read ``stream`` from the start, or from ``resume.offset``; never raises SessionError."""
    reader = _FileReader(path, summary)
    start = 0
    header_model: ModelRef | None = None
    if resume is not None:
        reader.resume(resume)
        start = resume.offset
        header_model = summary.model
    pending: tuple[RawLine, bool] | None = None
    kept_state: dict[str, Any] | None = None
    indexed_to = start
    header_seen = resume is not None
    try:
        for raw, gated in _gated_lines(stream, start):
            if is_blank(raw.data):
                continue
            if not header_seen:
                header_seen = True
                read_header_into(path, raw, summary)
                if gated:  # read_header_into has checked that it is JSON
                    reader.masked(decode_line(raw.data))
                header_model = summary.model
                indexed_to = raw.end
                continue
            if pending is not None:
                reader.add(pending[0], last=False, gated=pending[1])
            pending = (raw, gated)
        if not header_seen:
            raise SessionError(f"empty session file: {path}", path=path)
        if pending is not None:
            indexed_to = pending[0].offset
            kept_state = reader.state(header_model)
            reader.add(pending[0], last=True, gated=pending[1])
        else:
            kept_state = reader.state(header_model)
        set_title(reader.scan, summary)
        summary.last_activity = reader.last_timestamp
        finish_summary(reader.scan, stream, path, summary)
        summary.tokens_in, summary.tokens_out = reader.branch_tokens()
        if reader.lossy:
            kept_state = None  # the stored ids differ from the file's: read it all next time
    except SessionError as exc:
        if summary.id is not None and not summary.title:
            set_title(reader.scan, summary)
        summary.hidden_reason = f"{exc.kind}: {exc.message}"
        kept_state = None
    summary.listed_by_ink = summary.hidden_reason is None
    summary.secrets = dict(reader.secrets)  # of what was read, when Ink cannot open it too
    stored_to = indexed_to if kept_state is not None else 0
    return FileScan(
        summary=summary,
        start=start,
        indexed_to=stored_to,
        fingerprint=fingerprint(stream, stored_to),
        state=kept_state,
        entries=reader.entries,
        markers=reader.markers,
        texts=reader.texts,
    )


def new_summary(path: Path, info: os.stat_result) -> SessionSummary:
    """An empty row for ``path`` with its stat."""
    return SessionSummary(
        path=path,
        file_name=path.name,
        project_folder=path.parent.name,
        mtime=info.st_mtime,
        size=info.st_size,
    )
