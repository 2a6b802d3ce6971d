"""Fuzz: any session file gives a view or one clear error, in the core and every command.

Sessions come from :mod:`fuzzshapes` (every record shape Ink writes, bent by replacing values,
cutting lines and flipping bytes). For each, everything that reads a session runs: ``open()``,
the listing, the index scan, the tail read, the context and its text, the pairing scan, the
check and the repair plan, the view's rows (every branch), the search text, and the command
line's ``context``, ``context --json``, ``check``, ``check --json`` and ``repair --dry-run``.
Only :class:`SessionError` (Ink's reasons, said in one line) may come out; the command line
never says "internal error". Oracle-free invariants: a record re-encodes to its bytes,
``context --json`` parses, the view's turns hold the branch's entries.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from fuzzshapes import FUZZ_EXAMPLES, session_bytes, session_records
from hypothesis import HealthCheck, given, settings
from sharding import shard_examples, shard_ids

from ink_tui.catalog.index.filescan import new_summary, scan_file
from ink_tui.catalog.summary import summarize_file
from ink_tui.catalog.textpieces import record_text
from ink_tui.cli import main
from ink_tui.cli.commands.verdicts import check_lines, would_repair
from ink_tui.session import SessionError, SessionFile, build_context, open_session
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.context import unframe_summary
from ink_tui.session.conversation.contexttext import transcript
from ink_tui.session.conversation.lastturns import read_last_turns
from ink_tui.session.reading.jsoncodec import decode_line, encode_json
from ink_tui.session.writing.repair import plan_continuation
from ink_tui.session.writing.report import report_session

pytestmark = pytest.mark.slow  # FUZZ_EXAMPLES sessions per test (4-15 s each)

FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _leaves(session: SessionFile) -> list[str | None]:
    parents = {entry.parent_id for entry in session.entries}
    tips = [e.id for e in session.entries if e.id not in parents and e.type != "label"]
    return [session.leaf_id, *tips[:3]]


def _exercise_session(session: SessionFile) -> None:
    with contextlib.suppress(SessionError):  # a broken chain, a context Ink cannot build
        check_lines(report_session(session))
    try:
        plan = plan_continuation(session)
    except SessionError:
        plan = None
    if plan is not None and plan.ok:
        would_repair(plan)
    for leaf in _leaves(session):
        try:
            context = build_context(session, leaf)
        except SessionError:
            continue
        transcript(context)
        decode_line(encode_json(context.to_json()))  # parses back, however deep
        loaded = load_branch(session, leaf, models=True)
        shown = {item.entry.id for turn in loaded.turns for item in turn.items}
        shown |= {turn.user.id for turn in loaded.turns if turn.user is not None}
        assert shown <= {entry.id for entry in loaded.entries}
        prompts = [
            message
            for message in context.messages[context.compaction_boundary :]
            if isinstance(message, dict)
            and message.get("role") == "user"
            and unframe_summary(message) is None
        ]
        turns = [turn for turn in loaded.turns if turn.user is not None]
        assert len(turns) >= len(prompts)  # every prompt the context sends is a turn of the view
    for entry in session.entries:
        record_text(entry.type, entry.record)


def exercise_core(path: Path) -> None:
    """Everything a session file goes through outside the app; only SessionError may leave."""
    summarize_file(path)
    with path.open("rb") as stream:
        scan_file(path, stream, new_summary(path, path.stat()), None)
    with contextlib.suppress(SessionError):
        read_last_turns(path, 12)
    try:
        session = open_session(path, warn=None)
    except SessionError:
        return
    _exercise_session(session)


@FUZZ
@given(data=session_bytes())
def test_the_core_reads_any_session_to_a_view_or_one_clear_error(
    tmp_path_factory: pytest.TempPathFactory, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "session.jsonl"
    path.write_bytes(data)
    exercise_core(path)


@FUZZ
@given(records=session_records())
def test_a_record_as_ink_writes_it_reads_back_and_re_encodes_to_its_bytes(
    records: list[dict[str, Any]],
) -> None:
    for record in records:
        line = encode_json(record)  # JSON.stringify's bytes
        assert encode_json(decode_line(line)) == line


def _command(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    from contextlib import redirect_stderr, redirect_stdout

    with redirect_stdout(out), redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


COMMANDS: list[list[str]] = [
    ["context"],
    ["context", "--json"],
    ["check"],
    ["check", "--json"],
    ["repair", "--dry-run"],
]


COMMAND_SHARDS = 3  # five commands per session: its examples run as three cases


@pytest.mark.parametrize("shard", shard_ids(COMMAND_SHARDS))
@settings(FUZZ, max_examples=shard_examples(FUZZ_EXAMPLES, COMMAND_SHARDS))
@given(data=session_bytes())
def test_every_command_answers_any_session_without_an_internal_error(
    tmp_path_factory: pytest.TempPathFactory, shard: str, data: bytes
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "session.jsonl"
    path.write_bytes(data)
    for argv in COMMANDS:
        code, out, err = _command([*argv, str(path)])
        assert "internal error" not in err, f"{argv}: {err}"
        assert code in (0, 1, 2), argv
        if argv == ["context", "--json"]:
            parsed: Any = json.loads(out) if out.strip() else None
            assert parsed is None or isinstance(parsed, dict)
    assert path.read_bytes() == data  # a dry run writes nothing
