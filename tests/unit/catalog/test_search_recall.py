"""Search is honest (issue 19): every hit reachable with a big enough --limit, sessions ranked over
all their matches (old ones included), a cut always said, every query word marked, and an
impossible date a query error."""

from __future__ import annotations

import io
import json
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from searchtree import NOW, SPREAD_CWDS, spread_tree, write_session

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.query import QueryError, parse_query
from ink_tui.catalog.search import search, search_index
from ink_tui.catalog.snippets import snippet_of

WORD = "formatDuration"
SESSIONS = 120
MATCHES = SESSIONS * 8  # each spread session holds the word in 4 prompts and 4 answers


@pytest.fixture(scope="module")
def spread(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("recall") / "sessions"
    spread_tree(base, sessions=SESSIONS, word=WORD)
    return base


def _run(cli: Any, base: Path, *args: str) -> tuple[int, str, str]:
    return cli.run("search", "--sessions-dir", str(base), "--all", *args)


def _holding(base: Path, word: str) -> set[tuple[str, str]]:
    """Every (file, entry id) whose text holds ``word``, read straight from the files."""
    found = set()
    for path in base.glob("*/*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines()[1:]:
            record = json.loads(line)
            message = record["message"]
            text = message.get("content") or message["blocks"][0]["text"]
            if re.search(rf"\b{word}\b", text):
                found.add((str(path), record["id"]))
    return found


def test_every_hit_is_reachable_with_a_big_limit(cli: Any, spread: Path) -> None:
    code, out, err = _run(cli, spread, WORD, "--json", "--limit", "1000000")
    assert code == 0, err
    answer = json.loads(out)
    found = {(hit["file"], hit["entryId"]) for hit in answer["hits"]}
    assert len(answer["hits"]) == MATCHES
    assert found == _holding(spread, WORD)
    assert {Path(hit["file"]) for hit in answer["hits"]} == set(spread.glob("*/*.jsonl"))
    assert answer["truncated"] is False
    assert (answer["totalHits"], answer["totalSessions"]) == (MATCHES, SESSIONS)
    assert all(hit["sessionHits"] == 8 for hit in answer["hits"])
    code, out, _ = _run(cli, spread, WORD, "--limit", "1000000")
    assert code == 0 and "not shown" not in out  # nothing was cut: nothing said


def test_the_index_gives_every_hit_old_and_new(spread: Path, tmp_path: Path) -> None:
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        update_index(index, spread, None)
        hits = search_index(index, WORD, limit=1_000_000, now=NOW.timestamp())
    assert len(hits) == MATCHES
    assert {(str(hit.file), hit.entry_id) for hit in hits} == _holding(spread, WORD)


def test_a_small_limit_shows_the_best_sessions_one_hit_each(cli: Any, spread: Path) -> None:
    code, out, err = _run(cli, spread, WORD, "--json", "--limit", "10")
    assert code == 0, err
    hits = json.loads(out)["hits"]
    assert len(hits) == 10 and len({hit["file"] for hit in hits}) == 10
    code, out, _ = _run(cli, spread, WORD, "--json", "--limit", f"{SESSIONS + 5}")
    hits = json.loads(out)["hits"]
    per_session: dict[str, int] = {}
    for hit in hits:
        per_session[hit["file"]] = per_session.get(hit["file"], 0) + 1
    assert len(per_session) == SESSIONS and sorted(set(per_session.values())) == [1, 2]
    files = [hit["file"] for hit in hits]
    assert files == sorted(files, key=files.index)  # each session's hits together


def test_a_cut_is_said_in_text_and_json(cli: Any, spread: Path) -> None:
    code, out, err = _run(cli, spread, WORD, "--limit", "5")
    assert code == 0, err
    last = out.splitlines()[-1]
    assert last == (
        f"… {MATCHES - 5:,} more hits in {SESSIONS} sessions not shown "
        f"(--limit {MATCHES} shows every hit)"
    )
    code, out, _ = _run(cli, spread, WORD, "--limit", "5", "--json")
    answer = json.loads(out)
    assert answer["truncated"] is True and len(answer["hits"]) == 5
    assert (answer["totalHits"], answer["totalSessions"]) == (MATCHES, SESSIONS)
    assert (answer["hiddenHits"], answer["hiddenSessions"]) == (MATCHES - 5, SESSIONS - 5)


def test_an_old_session_about_the_word_ranks_above_hundreds_of_newer_passing_mentions(
    cli: Any, tmp_path: Path
) -> None:
    base = tmp_path / "sessions"
    long_answer = "This part of the code has nothing special to say. " * 40
    for number in range(80):  # 640 recent records that mention the word in passing
        write_session(
            base,
            SPREAD_CWDS[0],
            f"new{number:03d}",
            when=NOW - timedelta(hours=number),
            exchanges=[(f"{long_answer} {WORD} {long_answer}", f"{long_answer} {WORD}")] * 4,
        )
    old = write_session(
        base,
        SPREAD_CWDS[1],
        "old",
        when=NOW - timedelta(days=300),
        exchanges=[(f"{WORD} returns NaN", f"Fixed {WORD}: it divided by zero.")] * 3,
    )
    code, out, err = _run(cli, base, WORD, "--json", "--limit", "3")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["hits"][0]["file"] == str(old)
    assert answer["totalHits"] == 80 * 8 + 6 and answer["totalSessions"] == 81


def test_sessions_rank_by_all_their_matches(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    same = "the retry helper"
    once = write_session(
        base, SPREAD_CWDS[0], "a-once", when=NOW, exchanges=[(same, "ok"), ("other", "ok")]
    )
    often = write_session(
        base, SPREAD_CWDS[0], "b-often", when=NOW, exchanges=[(same, "ok"), (same, same)] * 3
    )
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        update_index(index, base, None)
        result = search(index, "retry", limit=50, now=NOW.timestamp())
    assert result.hits[0].file == often
    assert {hit.file for hit in result.hits} == {once, often}
    assert [hit.session_hits for hit in result.hits] == [9] * 9 + [1]


# -- every query word marked ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "text", "marked"),
    [
        ("retry loop", "fix the retry loop in the client", ["retry", "loop"]),
        ("loop retry", "the retry helper and the event loop", ["retry", "loop"]),
        # a phrase as the index matches it: any spaces or punctuation between its words (the
        # snippet shows a run of whitespace as one space)
        (
            '"retry loop"',
            "a retry  loop, a retry-loop, Retry\nLoop",
            ["retry loop", "retry-loop", "Retry Loop"],
        ),
        (
            "fix* src/retry.ts",
            "fixing src/retry.ts now, fixed",
            ["fixing", "src/retry.ts", "fixed"],
        ),
        ("报表 清洗", "先清洗数据再出报表", ["清洗", "报表"]),
        ("retry -loop", "retry without a loop", ["retry"]),
        ("RETRY", "Retry, retry, retrying", ["Retry", "retry"]),
    ],
)
def test_every_wanted_term_and_phrase_is_marked(query: str, text: str, marked: list[str]) -> None:
    snippet, marks = snippet_of(text, parse_query(query))
    assert [snippet[start:end] for start, end in marks] == marked


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_command_line_marks_every_word_on_a_terminal(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    prompt = "the retry loop \u202espins"  # a bidi override: shown, never obeyed
    write_session(base, SPREAD_CWDS[0], "one", when=NOW, exchanges=[(prompt, "ok")])
    terminal = _Terminal()
    monkeypatch.setattr("sys.stdout", terminal)
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, _, err = _run(cli, base, "retry loop")
    assert code == 0, err
    shown = terminal.getvalue()
    on, off = "\x1b[1;31m", "\x1b[0m"  # our own marks, around each word; the text's controls shown
    assert f"the {on}retry{off} {on}loop{off} <U+202E>spins\n" in shown
    monkeypatch.setenv("NO_COLOR", "1")
    terminal.seek(0)
    terminal.truncate()
    _run(cli, base, "retry loop")
    assert "\x1b" not in terminal.getvalue()


# -- dates ----------------------------------------------------------------------------------


def _exists(year: int, month: int, day: int | None = None) -> bool:
    try:
        date(year, month, 1 if day is None else day)
    except ValueError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["after", "before"]),
    st.integers(0, 9999),
    st.integers(0, 99),
    st.one_of(st.none(), st.integers(0, 99)),
)
def test_a_date_is_taken_only_if_it_exists(
    key: str, year: int, month: int, day: int | None
) -> None:
    value = f"{year:04d}-{month:02d}" + ("" if day is None else f"-{day:02d}")
    try:
        query = parse_query(f"{key}:{value} word")
    except QueryError as error:
        said = str(error)
        assert not _exists(year, month, day), f"{value} exists, yet: {said}"
        assert "\n" not in said and said.startswith(f"{key}:{value} is not a date: ")
        if year == 0:
            assert "year 0000" in said
        elif not 1 <= month <= 12:
            assert f"month {month:02d}" in said
        else:
            assert f"no day {day:02d}" in said
        return
    assert _exists(year, month, day), f"{value} does not exist, yet it was taken"
    assert getattr(query, key) == value


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 99), st.integers(0, 99), st.one_of(st.none(), st.integers(0, 99)))
def test_a_time_is_taken_only_if_it_exists(hour: int, minute: int, second: int | None) -> None:
    value = f"2026-10-05T{hour:02d}:{minute:02d}" + ("" if second is None else f":{second:02d}")
    valid = hour <= 23 and minute <= 59 and (second is None or second <= 59)
    try:
        query = parse_query(f"after:{value}Z word")
    except QueryError as error:
        assert not valid and "\n" not in str(error) and "is not a date: there is no" in str(error)
        return
    assert valid and query.after == f"{value}Z"


@pytest.mark.parametrize(
    ("query", "naming"),
    [("after:2026-13-45 x", "month 13"), ("before:2026-99 x", "month 99")],
)
def test_a_bad_date_is_one_line_and_exit_2(
    cli: Any, tmp_path: Path, query: str, naming: str
) -> None:
    base = tmp_path / "sessions"
    write_session(base, SPREAD_CWDS[0], "one", when=NOW, exchanges=[("x", "x")])
    code, out, err = _run(cli, base, query)
    assert code == 2 and out == ""
    assert cli.one_error_line(err, naming=naming)


def test_counts_and_texts_stay_whole_through_appends_rewrites_and_deletions(
    tmp_path: Path,
) -> None:
    base = tmp_path / "sessions"
    paths = spread_tree(base, sessions=4, word=WORD)

    def check(index: CatalogIndex) -> None:
        update_index(index, base, None)
        connection = index.connection
        texts = connection.execute("SELECT count(*) FROM texts").fetchone()[0]
        assert connection.execute("SELECT count(*) FROM bodies").fetchone()[0] == texts
        stale = connection.execute(
            "SELECT count(*) FROM files f WHERE f.texts != "
            "(SELECT count(*) FROM texts t WHERE t.file_id = f.id)"
        ).fetchone()[0]
        assert stale == 0
        result = search(index, WORD, limit=10_000, now=NOW.timestamp())
        assert result.total_hits == len(result.hits) == len(_holding(base, WORD))

    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        check(index)
        with paths[0].open("a", encoding="utf-8") as stream:  # grown: read from where it was
            last = json.loads(paths[0].read_text(encoding="utf-8").splitlines()[-1])
            record = {**last, "id": "more", "parentId": last["id"]}
            record["message"] = {"role": "user", "content": f"one more {WORD}"}
            stream.write(json.dumps(record) + "\n")
        check(index)
        lines = paths[1].read_text(encoding="utf-8").splitlines()
        paths[1].write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")  # rewritten shorter
        check(index)
        paths[2].unlink()
        check(index)
