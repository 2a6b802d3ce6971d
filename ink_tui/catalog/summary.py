"""One listing row: what Ink's ``/sessions`` would show for a session file, read cheaply.

Ink's ``inspectSessionFile`` opens the whole file (``open()`` + ``stats()``). A row here reads
only what it needs, so a 100 MB session costs one streaming pass and almost no JSON parsing:

- Every line is split and counted (``iter_lines``), but an entry written in Ink's canonical key
  order (``{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{"role":…``, or a
  ``compaction``/``branchSummary`` with ``"summary":"``) is read from its PREFIX with a bytes
  regex: ``type``, ``id``, ``parentId`` and the role. Its payload is never parsed.
- Fully parsed: the header, the small records (``session_info``, ``label``,
  ``thinkingLevelChange``, ``position``, ``session_model``), the first user message in file order
  (the title), the LAST non-blank line (it may be torn while Ink writes: Ink drops it then), and
  any line whose prefix is not canonical (hand-made or odd lines), with ``open()``'s checks.
- Assistant messages: Ink's ``stats()`` throws when one on the current branch has no ``usage``.
  The line's tail (last 512 bytes) is matched against Ink's canonical ending
  ``"usage":{…},"stopReason":…[,"usageMissing":true][,"model":…][,"modelReference":…]}}``;
  when it does not match (old files without usage, odd key orders) the line is parsed in full,
  lazily, and only if it is on the current branch.
- The leaf and the branch are computed over ``(id, parentId, type)`` exactly as Ink
  (:attr:`ink_tui.session.reading.reader.SessionFile.leaf_id`,
  :func:`ink_tui.session.conversation.tree.branch`).

What the listing does NOT do: validate every line. A line whose canonical prefix matched is not
checked further, so interior corruption after a valid prefix is only found when the session is
opened (``open_session`` validates every line). A line that fails both the prefix regex and a
full parse hides the row with the ``SessionError`` Ink would give
(``session line N: invalid JSON (…)``, ``session line N: unknown entry type "x"``, …).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, BinaryIO, Final

from ink_tui.catalog.problems import row_problem, torn_problem
from ink_tui.catalog.row import EMPTY_REASON, SessionSummary
from ink_tui.catalog.scannode import (
    USAGE_NULL,
    USAGE_OK,
    USAGE_UNDEFINED,
    USAGE_UNKNOWN,
    ScanNode,
)
from ink_tui.catalog.titles import (
    EMPTY_TITLE,
    first_line_title,
    js_trim,
    masked_name,
    model_title,
)
from ink_tui.session.reading.errors import EngineError, RecordError, SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import RawLine, is_blank, iter_lines
from ink_tui.session.reading.reader import read_header
from ink_tui.session.reading.records import LineKind, classify_record, is_valid_model
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "ListingScan",
    "ScanNode",
    "finish_summary",
    "read_header_into",
    "set_title",
    "summarize_file",
]

_PREFIX_BYTES: Final = 512
_TAIL_BYTES: Final = 512
_CHUNK: Final = 1024 * 1024


def _entry_prefix(types: bytes, payload: bytes) -> re.Pattern[bytes]:
    """``{"type":T,"id":…,"parentId":null|…,"timestamp":…,`` then ``payload``, as Ink writes."""
    return re.compile(
        rb'\{"type":"(?P<type>' + types + rb')","id":"(?P<id>[^"\\]+)",'
        rb'"parentId":(?:null|"(?P<parent>[^"\\]*)"),"timestamp":"[^"\\]*",' + payload
    )


_MESSAGE_PREFIX: Final = _entry_prefix(b"message", rb'"message":\{"role":"(?P<role>[^"\\]*)"')
_SUMMARY_PREFIX: Final = _entry_prefix(b"compaction|branchSummary", rb'"summary":"')
_STRING = rb'"[^"\\]*"'
_USAGE_TAIL: Final = re.compile(
    rb'"usage":\{(?:"[A-Za-z]+":[-+.0-9eE]+,?)*\},"stopReason":(?:null|' + _STRING + rb")"
    rb'(?:,"usageMissing":true)?(?:,"model":' + _STRING + rb")?"
    rb'(?:,"modelReference":' + _STRING + rb")?"
    rb'(?:,"usageMissing":true)?\}\}[ \t\r]*\Z'
)


class ListingScan:
    """The per-line state of one file's scan (``open()``'s bookkeeping, without payloads)."""

    def __init__(self, path: Path, summary: SessionSummary) -> None:
        self.path = path
        self.summary = summary
        self.nodes: dict[str, ScanNode] = {}
        self.has_messages = False
        self.first_title: str | None = None  # the first user message's title, in file order
        self.found_first_user = False
        self.seq = 0
        self.last_entry_seq = -1
        self.last_content_id: str | None = None
        self.position: tuple[Any, int] | None = None  # (leafId, seq) of the last valid marker
        self.last_model: ModelRef | None = None
        self.torn: str | None = None  # the final line dropped, or without its newline

    def add(
        self, raw: RawLine, line: int, *, last: bool, whole: bool = False
    ) -> tuple[Any, LineKind] | None:
        """One non-blank line after the header; ``last`` when it is the final one.

        A canonical line is read from its prefix only, unless ``whole`` (the index reads every
        line in full); returns the record and its kind when it was decoded (None: read from
        its prefix, or a torn final line dropped)."""
        seq = self.seq
        self.seq += 1
        if not last and not whole and self._add_fast(raw, line, seq):
            return None
        try:
            try:
                record = decode_line(raw.data)
            except JsonDecodeError as exc:
                raise RecordError(f"invalid JSON ({exc.reason})") from None
            if record is None:
                raise EngineError(
                    "Cannot read properties of null (reading 'type')", path=self.path, line=line
                )
            kind = classify_record(record)
        except RecordError as exc:
            if last:
                self.torn = torn_problem(line, str(exc))
                return None  # Ink drops a torn final line
            raise SessionError(f"session line {line}: {exc}", path=self.path, line=line) from None
        self._add_record(record, kind, raw, line, seq)
        if last and not raw.terminated:
            self.torn = torn_problem(line, None)
        return record, kind

    def _add_fast(self, raw: RawLine, line: int, seq: int) -> bool:
        data = raw.data
        match = _MESSAGE_PREFIX.match(data, 0, _PREFIX_BYTES)
        if match is not None:
            role = match["role"].decode("utf-8", "replace")
            if role == "user" and not self.found_first_user:
                return False  # parse it: the title comes from it
            usage = USAGE_OK
            if role == "assistant" and not _USAGE_TAIL.search(
                data, max(0, len(data) - _TAIL_BYTES)
            ):
                usage = USAGE_UNKNOWN
            node = ScanNode("message", None, line, raw.offset, role=role, usage=usage)
        else:
            match = _SUMMARY_PREFIX.match(data, 0, _PREFIX_BYTES)
            if match is None:
                return False
            node = ScanNode(match["type"].decode("ascii"), None, line, raw.offset)
        parent = match["parent"]
        node.parent = None if parent is None else parent.decode("utf-8", "replace")
        self._add_node(match["id"].decode("utf-8", "replace"), node, seq)
        return True

    def _add_node(self, entry_id: str, node: ScanNode, seq: int) -> None:
        self.nodes[entry_id] = node  # duplicate ids: the later one wins, as in Ink's id map
        self.last_entry_seq = seq
        if node.kind != "label":
            self.last_content_id = entry_id
        if node.kind == "message":
            self.has_messages = True

    def _add_record(self, record: Any, kind: LineKind, raw: RawLine, line: int, seq: int) -> None:
        if kind is LineKind.POSITION:
            self.position = (record.get("leafId"), seq)
        elif kind is LineKind.SESSION_MODEL:
            self.last_model = ModelRef(str(record["provider"]), str(record["modelId"]))
            if record["explicit"] is True:
                self.summary.explicit_model = True
        elif kind is LineKind.ENTRY:
            parent = record["parentId"]
            node = ScanNode(str(record["type"]), parent, line, raw.offset)
            if node.kind == "message":
                message = record["message"]
                node.role = str(message["role"])
                if node.role == "user" and not self.found_first_user:
                    self.found_first_user = True
                    self.first_title = first_line_title(message.get("content"))
                elif node.role == "assistant":
                    node.usage = _usage_state(message)
            elif node.kind == "session_info":
                node.name = masked_name(str(record["name"]))
            self._add_node(str(record["id"]), node, seq)

    def leaf(self) -> str | None:
        """``SessionFile.leaf_id``: a position marker wins only after the last entry line."""
        if self.position is not None:
            target, seq = self.position
            if seq > self.last_entry_seq and (target is None or target in self.nodes):
                return None if target is None else str(target)
        return self.last_content_id

    def branch(self, leaf_id: str | None) -> list[ScanNode]:
        """``getBranch``: root to leaf, with Ink's errors on a cycle or a broken chain."""
        if leaf_id is None:
            return []
        current = self.nodes.get(leaf_id)
        if current is None:
            raise SessionError(f"entry {leaf_id} not found", path=self.path)
        walked: list[ScanNode] = []
        seen: set[str] = set()
        current_id = leaf_id
        while True:
            if current_id in seen:
                raise SessionError(f"parentId cycle at entry {current_id}", path=self.path)
            seen.add(current_id)
            walked.append(current)
            if current.parent is None:
                break
            parent = self.nodes.get(current.parent)
            if parent is None:
                raise SessionError(f"broken parentId chain at entry {leaf_id}", path=self.path)
            current_id, current = current.parent, parent
        walked.reverse()
        return walked

    def leaf_count(self) -> int:
        parents = {node.parent for node in self.nodes.values() if node.kind != "label"}
        return sum(
            1 for key, node in self.nodes.items() if node.kind != "label" and key not in parents
        )


def _usage_state(message: dict[str, Any]) -> int:
    if "usage" not in message:
        return USAGE_UNDEFINED
    return USAGE_NULL if message["usage"] is None else USAGE_OK


def _read_line(stream: BinaryIO, node: ScanNode, path: Path) -> int:
    """Parse one assistant line in full (its tail was not canonical); its usage state."""
    raw = next(iter_lines(stream, node.offset, chunk_size=256 * 1024))
    try:
        try:
            record = decode_line(raw.data)
        except JsonDecodeError as exc:
            raise RecordError(f"invalid JSON ({exc.reason})") from None
        if record is None:
            raise EngineError("Cannot read properties of null (reading 'type')", line=node.line)
        classify_record(record)
    except RecordError as exc:
        message = f"session line {node.line}: {exc}"
        raise SessionError(message, path=path, line=node.line) from None
    message_record = record.get("message")
    return _usage_state(message_record) if isinstance(message_record, dict) else USAGE_UNDEFINED


def _stats(
    scan: ListingScan, stream: BinaryIO, path: Path, summary: SessionSummary
) -> list[ScanNode]:
    """Ink's ``stats()`` over the current branch, plus the branch's name; the branch."""
    walked = scan.branch(summary.leaf_id)
    for node in walked:
        if node.kind == "session_info" and node.name is not None:
            summary.name = js_trim(node.name) or None
    if summary.name is not None:
        summary.title = summary.name
    failure = USAGE_OK
    for node in walked:
        if node.kind != "message":
            continue
        summary.message_count += 1
        if node.role != "assistant":
            continue
        summary.turn_count += 1
        if failure == USAGE_OK:  # once Ink would throw, the rest is only counted for display
            failure = _read_line(stream, node, path) if node.usage == USAGE_UNKNOWN else node.usage
    if failure != USAGE_OK:
        which = "undefined" if failure == USAGE_UNDEFINED else "null"
        raise EngineError(f"Cannot read properties of {which} (reading 'inputTokens')")
    return walked


def _scan_stream(stream: BinaryIO, path: Path, summary: SessionSummary) -> None:
    """Fill ``summary`` from the file; raises :class:`SessionError` where Ink would."""
    scan: ListingScan | None = None
    pending: RawLine | None = None
    line = 1
    try:
        for raw in iter_lines(stream, chunk_size=_CHUNK):
            if is_blank(raw.data):
                continue
            if scan is None:
                scan = ListingScan(path, summary)
                _read_header(path, raw, summary)
                continue
            if pending is not None:
                scan.add(pending, line, last=False)
            pending = raw
            line += 1
        if scan is None:
            raise SessionError(f"empty session file: {path}", path=path)
        if pending is not None:
            scan.add(pending, line, last=True)
    finally:
        if scan is not None and summary.id is not None:
            set_title(scan, summary)  # a hidden row still shows what was read
    finish_summary(scan, stream, path, summary)


def finish_summary(
    scan: ListingScan, stream: BinaryIO, path: Path, summary: SessionSummary
) -> None:
    """After the last line: the leaf, the branches and Ink's ``stats()`` (raises as Ink would).

    The title must already be set (:func:`set_title`); the branch's name replaces it.
    """
    summary.leaf_id = scan.leaf()
    summary.leaf_count = scan.leaf_count()
    summary.problem = scan.torn  # kept when stats() throws: the row is hidden, and torn
    summary.problem = row_problem(scan.torn, _stats(scan, stream, path, summary), stream)
    if not scan.has_messages and not summary.explicit_model:
        summary.hidden_reason = EMPTY_REASON


def read_header_into(path: Path, raw: RawLine, summary: SessionSummary) -> None:
    """Check the header line as Ink's ``open()`` does and copy what a row shows from it."""
    _read_header(path, raw, summary)


def _read_header(path: Path, raw: RawLine, summary: SessionSummary) -> None:
    header = read_header(path, raw)
    summary.id = str(header["id"])
    cwd = header.get("cwd")
    summary.cwd = cwd if isinstance(cwd, str) else None
    created = header.get("timestamp")
    summary.created = created if isinstance(created, str) else None
    parent = header.get("parent")
    summary.is_child = isinstance(parent, str)
    summary.parent_session = parent if isinstance(parent, str) else None
    model = header.get("model")
    if isinstance(model, dict) and is_valid_model(model):
        summary.model = ModelRef(str(model["provider"]), str(model["modelId"]))


def set_title(scan: ListingScan, summary: SessionSummary) -> None:
    """The title before the branch name is known (the name, when there is one, replaces it)."""
    if scan.last_model is not None:
        summary.model = scan.last_model
    if scan.found_first_user:
        summary.title = scan.first_title or ""
    elif not scan.has_messages and summary.explicit_model and summary.model is not None:
        summary.title = model_title(summary.model)
    else:
        summary.title = EMPTY_TITLE


def summarize_file(
    path: Path, *, mtime: float | None = None, size: int | None = None
) -> SessionSummary:
    """The listing row of one session file. Never raises for a bad or vanished file.

    ``mtime``/``size`` come from the caller's ``stat`` when it listed the folder.
    """
    summary = SessionSummary(
        path=path,
        file_name=path.name,
        project_folder=path.parent.name,
        mtime=0.0 if mtime is None else mtime,
        size=0 if size is None else size,
    )
    try:
        with open_regular(path) as stream:
            if mtime is None or size is None:
                info = os.fstat(stream.fileno())
                summary.mtime = info.st_mtime if mtime is None else mtime
                summary.size = info.st_size if size is None else size
            _scan_stream(stream, path, summary)
    except SessionError as exc:
        summary.hidden_reason = f"{exc.kind}: {exc.message}"
    except OSError as exc:
        summary.hidden_reason = f"OSError: {exc}"
    summary.listed_by_ink = summary.hidden_reason is None
    return summary
