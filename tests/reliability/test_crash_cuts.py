"""A crash can cut a session file at any byte: reading and repairing never lose a record."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ink_tui.session import (
    EngineError,
    SessionError,
    SessionWriter,
    build_context,
    open_session,
    repair_session,
    report_session,
)

PROPERTY = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _cut_file(folder: Path, data: bytes, cut: int) -> Path:
    path = folder / f"cut-{cut}.jsonl"
    path.write_bytes(data[:cut])
    return path


def _check_open(base: Any, is_present: Callable[..., bool], folder: Path, cut: int) -> None:
    path = _cut_file(folder, base.data, cut)
    if cut < base.header_length:
        with pytest.raises(SessionError) as caught:
            open_session(path, warn=None)
        assert not isinstance(caught.value, EngineError)
        assert caught.value.message in (
            f"empty session file: {path}",
            f"session file {path}: first line is not valid JSON",
        )
        return
    session = open_session(path, warn=None)
    loadable = base.loadable_before(cut)
    # every record whose text is entirely before the cut is there, none lost
    missing = [line.record for line in loadable if not is_present(session, line)]
    assert missing == []
    # and nothing else: a partial record never loads
    markers = len(session.positions) + len(session.session_models)
    assert len(session.entries) + markers == len(loadable)
    assert session.torn_final_line == (not base.data[:cut].endswith(b"\n"))
    partial = cut > base.header_length and cut not in {line.content_end for line in base.lines} | {
        line.content_end + 1 for line in base.lines
    } | {base.header_length + 1}
    assert (session.dropped_final_line is not None) == partial
    build_context(session)  # every prefix is a walkable branch


@PROPERTY
@given(cut=st.data())
def test_any_cut_opens_without_losing_a_complete_record(
    base_session: Any, is_present: Callable[..., bool], tmp_path: Path, cut: Any
) -> None:
    offset = cut.draw(st.integers(min_value=0, max_value=len(base_session.data)))
    _check_open(base_session, is_present, tmp_path, offset)


def test_cuts_around_every_line_boundary(
    base_session: Any, is_present: Callable[..., bool], tmp_path: Path
) -> None:
    boundaries = {0, 1, base_session.header_length, len(base_session.data)}
    for line in base_session.lines:
        boundaries.update(range(line.start - 1, line.start + 3))
        boundaries.update(range(line.content_end - 2, line.content_end + 2))
    for cut in sorted(b for b in boundaries if 0 <= b <= len(base_session.data)):
        _check_open(base_session, is_present, tmp_path, cut)


def _repair_and_continue(base: Any, is_present: Callable[..., bool], cut: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = _cut_file(Path(folder), base.data, cut)
        repaired, plan = repair_session(path)
        assert plan.ok, plan.problem
        assert not repaired.torn_final_line
        writer = SessionWriter.for_session(open_session(path, warn=None))
        appended = writer.append_message({"role": "user", "content": "after the crash ✓"})
        session = open_session(path, warn=None)
        assert not session.torn_final_line
        assert session.dropped_final_line is None
        assert session.leaf_id == appended["id"]
        assert build_context(session).messages[-1] == {
            "role": "user",
            "content": "after the crash ✓",
        }
        # complete lines survive byte for byte, at their place
        kept = base.data[
            : max((line.content_end + 1 for line in base.complete_before(cut)), default=0)
        ]
        assert path.read_bytes().startswith(kept or base.data[: base.header_length])
        missing = [
            line.record for line in base.complete_before(cut) if not is_present(session, line)
        ]
        assert missing == []
        report = report_session(session).to_json()
        assert report["continuation"] == {
            "ok": True,
            "compactionBoundary": report["continuation"]["compactionBoundary"],
            "repairs": [],
            "appended": [],
        }


@PROPERTY
@given(cut=st.data())
def test_repair_then_append_after_any_cut_is_clean(
    base_session: Any, is_present: Callable[..., bool], cut: Any
) -> None:
    offset = cut.draw(
        st.integers(min_value=base_session.header_length, max_value=len(base_session.data))
    )
    _repair_and_continue(base_session, is_present, offset)


def test_repair_then_append_at_every_line_boundary(
    base_session: Any, is_present: Callable[..., bool]
) -> None:
    cuts = {base_session.header_length, base_session.header_length + 1}
    for line in base_session.lines:
        cuts.update({line.start + 1, line.content_end, line.content_end + 1})
    for cut in sorted(c for c in cuts if c <= len(base_session.data)):
        _repair_and_continue(base_session, is_present, cut)
