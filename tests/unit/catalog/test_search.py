"""Search across sessions: the index against a brute-force scan, the query language, the CLI."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testdata import TREE_HOME, copy_tree

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.query import QueryError, parse_query
from ink_tui.catalog.search import search_index, snippet_of
from ink_tui.catalog.textpieces import (
    COMPRESS_FROM,
    cjk_runs,
    pack_text,
    record_role,
    record_text,
    unpack_text,
)
from ink_tui.demo import generate_demo
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.records import RecordError, classify_record

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
_TOKEN = re.compile(r"[^\W_]+")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo sessions (English, Chinese, hostile text) and the test tree, side by side."""
    base = tmp_path_factory.mktemp("search") / "sessions"
    generate_demo(base, seed=7, sessions=12, now=NOW)
    copy_tree(base.parent / "tree")
    for folder in (base.parent / "tree").iterdir():
        target = base / folder.name
        target.mkdir(exist_ok=True)
        for path in folder.glob("*.jsonl"):
            (target / path.name).write_bytes(path.read_bytes())
    return base


@pytest.fixture(scope="module")
def index(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    opened = CatalogIndex.open(tmp_path_factory.mktemp("index") / "index.sqlite3")
    update_index(opened, corpus, None)
    yield opened
    opened.close()


def _records(corpus: Path) -> list[tuple[str, str, str, str]]:
    """(file, entry id, role, text) of every record with text, read straight from the files."""
    found = []
    for path in sorted([*corpus.glob("*/*.jsonl"), *corpus.glob("*/children/*.jsonl")]):
        lines = [line for line in path.read_bytes().split(b"\n") if line.strip()]
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = decode_line(line)
                kind = classify_record(record)
            except (JsonDecodeError, RecordError):
                if number == len(lines):
                    continue  # a torn final line, dropped as Ink drops it
                break  # Ink cannot open the rest
            if kind.name != "ENTRY":
                continue
            text = record_text(record["type"], record)
            if text:
                found.append((str(path), record["id"], record_role(record["type"], record), text))
    return found


def _tokens(text: str) -> list[str]:
    return [token.casefold() for token in _TOKEN.findall(text)]


def _holds(text: str, term: str, prefix: bool = False) -> bool:
    """The query language's meaning, written plainly: words in order, CJK runs as substrings."""
    for run in cjk_runs(term):
        if len(run) >= 2 and run not in text:
            return False
    wanted = _tokens(re.sub(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+", " ", term))
    if not wanted:
        return True
    words = _tokens(text)
    for start in range(len(words) - len(wanted) + 1):
        window = words[start : start + len(wanted)]
        if window[:-1] == wanted[:-1] and (
            window[-1].startswith(wanted[-1]) if prefix else window[-1] == wanted[-1]
        ):
            return True
    return False


def _brute(corpus: Path, query: str) -> set[tuple[str, str]]:
    parsed = parse_query(query)
    hits = set()
    for path, entry_id, role, text in _records(corpus):
        if parsed.roles and role not in parsed.roles:
            continue
        if all(_holds(text, term.text, term.prefix) != term.negated for term in parsed.terms):
            hits.add((path, entry_id))
    return hits


QUERIES = [
    "retry",
    "the retry",
    '"retry helper"',
    "ZeroDivisionError",
    "src/calc/retry.py",
    "test -flaky",
    "stat*",
    "数据",
    "销售数据",
    "月度汇总",
    "日期 统一",
    "role:user test",
    "role:tool error",
    "报表 -三月份",
]


@pytest.mark.parametrize("query", QUERIES)
def test_search_finds_exactly_what_a_brute_force_scan_finds(
    corpus: Path, index: Any, query: str
) -> None:
    found = {(str(hit.file), hit.entry_id) for hit in search_index(index, query, limit=100_000)}
    expected = _brute(corpus, query)
    assert found == expected
    if query in ("retry", "数据", "role:user test", "src/calc/retry.py"):
        assert expected, f"the corpus should hold {query!r}"


def test_hits_are_grouped_by_session_with_snippets_around_the_match(index: Any) -> None:
    hits = search_index(index, "retry", limit=40)
    files = [hit.file for hit in hits]
    assert files == sorted(files, key=files.index)  # each session's hits together
    for hit in hits:
        assert "retry" in hit.snippet.casefold() and "\n" not in hit.snippet
        assert hit.snippet[hit.match_start : hit.match_end].casefold() == "retry"


def test_a_project_is_searched_alone_unless_asked(index: Any) -> None:
    only = search_index(index, "test", projects=[TREE_HOME], limit=1000)
    assert only and {hit.file.parent.name for hit in only} == {TREE_HOME}
    everywhere = search_index(index, "test project:calc", projects=[TREE_HOME], limit=1000)
    assert {hit.file.parent.name for hit in everywhere} >= {TREE_HOME}


def test_dates_filter_on_the_record_time(index: Any) -> None:
    hits = search_index(index, "the after:2026-11-01", limit=1000)
    assert hits and all((hit.timestamp or "") >= "2026-11-01" for hit in hits)
    early = search_index(index, "the before:2026-11-01", limit=1000)
    assert early and all((hit.timestamp or "") < "2026-11-01" for hit in early)


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("-flaky", "give a word"),
        ("role:bot x", "role: is one of user, assistant, tool"),
        ("after:yesterday x", "after: takes a date"),
        ("after:2026-10 before:2026-09 x", "is not before"),
        ("project: x", "project: needs a value"),
        ("字", "two or more"),
    ],
)
def test_a_bad_query_is_one_clear_line(query: str, says: str) -> None:
    with pytest.raises(QueryError, match=says):
        parse_query(query)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_any_query_text_is_a_search_or_a_query_error(index: Any, text: str) -> None:
    try:
        parsed = parse_query(text)
    except QueryError as error:
        assert "\n" not in str(error)
        return
    search_index(index, parsed, limit=5)  # never an FTS syntax error


def test_snippet_is_one_line_around_the_match() -> None:
    text = "line one\n" * 20 + "here the needle sits\n" + "tail " * 50
    snippet, marks = snippet_of(text, parse_query("needle"))
    assert snippet.startswith("…") and snippet.endswith("…") and "\n" not in snippet
    assert [snippet[start:end] for start, end in marks] == ["needle"]


def _cli_search(cli: Any, base: Path, *args: str) -> tuple[int, str, str]:
    return cli.run("search", "--sessions-dir", str(base), *args)


def test_cli_search_json_shape_and_exit_codes(cli: Any, corpus: Path) -> None:
    code, out, err = _cli_search(cli, corpus, "--all", "--json", "--limit", "3", "retry")
    assert code == 0, err
    answer = json.loads(out)
    hits = answer["hits"]
    assert len(hits) == 3 and answer["truncated"] is True and answer["totalHits"] > 3
    for hit in hits:
        assert {"sessionId", "file", "entryId", "role", "timestamp", "snippet"} <= set(hit)
        assert Path(hit["file"]).is_file()
    code, out, err = _cli_search(cli, corpus, "--all", "nothing-has-this-word-xyzzy")
    assert code == 1 and out == ""
    assert cli.one_error_line(err, naming="matches")
    code, out, err = _cli_search(cli, corpus, "--all", "role:robot")
    assert code == 2 and cli.one_error_line(err, naming="role:")


def test_cli_search_defaults_to_this_project(cli: Any, corpus: Path) -> None:
    cwd = "/home/ada/code/calc-kit"
    code, out, _ = _cli_search(cli, corpus, "--cwd", cwd, "--json", "the", "--limit", "500")
    assert code == 0
    assert {Path(hit["file"]).parent.name for hit in json.loads(out)["hits"]} == {TREE_HOME}


def test_cli_index_says_what_it_did(cli: Any, corpus: Path) -> None:
    code, out, err = cli.run("index", "--all", "--sessions-dir", str(corpus))
    assert code == 0, err
    assert re.search(r"indexed: \d+ session files \(1 of them subagent sessions\), \d+ new", out)
    code, out, _ = cli.run("index", "--all", "--sessions-dir", str(corpus))
    assert "unchanged" in out and " new" not in out
    code, out, _ = cli.run("index", "--all", "--rebuild", "--sessions-dir", str(corpus))
    assert " new" in out


def test_cli_snippets_never_carry_escape_sequences(cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "s" / "home-ada-p"
    folder.mkdir(parents=True)
    header = {"type": "session", "version": 1, "id": "h1", "timestamp": "2026-11-20T10:00:00Z"}
    header["cwd"] = "/home/ada/p"
    prompt = {
        "type": "message",
        "id": "u1",
        "parentId": None,
        "timestamp": "2026-11-20T10:00:01Z",
        "message": {"role": "user", "content": "needle \u001b]2;PWNED\u0007 and \u009b31m red"},
    }
    path = folder / "2026-11-20T10-00-00-000Z-x.jsonl"
    path.write_text(json.dumps(header) + "\n" + json.dumps(prompt) + "\n")
    for extra in ((), ("--json",)):
        code, out, _ = _cli_search(cli, tmp_path / "s", "--all", *extra, "needle")
        assert code == 0 and "needle" in out
        assert "\u001b" not in out and "\u009b" not in out and "\u0007" not in out


@given(
    st.one_of(
        st.text(max_size=COMPRESS_FROM // 4),
        st.text(min_size=COMPRESS_FROM, max_size=4 * COMPRESS_FROM),
    ),
    st.integers(min_value=0, max_value=3 * COMPRESS_FROM),
)
@settings(max_examples=200, deadline=None)
def test_stored_text_reads_back_whole_or_as_a_prefix(text: str, limit: int) -> None:
    packed = pack_text(text)
    assert unpack_text(packed) == text  # lone surrogates included
    head = unpack_text(packed, limit)
    if limit:  # the first ``limit`` bytes, less a character they cut
        assert text.startswith(head)
        assert len(text.encode()) - len(head.encode()) in range(
            max(0, len(text.encode()) - limit), max(0, len(text.encode()) - limit) + 4
        )
    else:
        assert head == text
