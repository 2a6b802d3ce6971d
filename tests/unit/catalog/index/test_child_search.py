"""Search finds text said inside subagent sessions (``children/``), naming the parent session;
the listings never show a subagent session on its own (issue 13, item 1: a part)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from subagent_family import CHILD_PROMPT, CWD, NOW, PARENT_PROMPT, write_child, write_family

from ink_tui.catalog.index import CatalogIndex, load_rows, update_index
from ink_tui.catalog.index.listing import indexed_rows, refreshed_rows
from ink_tui.catalog.scan import list_sessions
from ink_tui.catalog.search import GONE_PARENT, search_index
from ink_tui.paths import cwd_folder_name, project_dir
from ink_tui.session.reading.reader import open_session
from ink_tui.session.writing.writer import SessionWriter

WORD = "zanzibarquux"
PARENT_CUT = "ask a reviewer about the ledg…"  # the parent's title in a breadcrumb: 30 characters
OTHER_CWD = "/home/bo/elsewhere"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[CatalogIndex]:
    with CatalogIndex.open(tmp_path / "index.sqlite3") as opened:
        yield opened


def _search(index: CatalogIndex, query: str, **options: Any) -> list[Any]:
    return search_index(index, query, now=NOW.timestamp(), **options)


def test_a_word_said_only_inside_a_subagent_session_is_found_under_its_parent(
    tmp_path: Path, index: CatalogIndex
) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    report = update_index(index, base, CWD)
    assert (report.files, report.children, report.added, report.sessions_changed) == (2, 1, 2, 1)
    assert "(1 of them subagent sessions)" in report.sentence()
    [hit] = _search(index, WORD)
    assert hit.file == family.child and hit.child
    assert hit.session_id == family.child_id and hit.role == "assistant"
    assert hit.parent_file == family.parent and hit.parent_title == PARENT_PROMPT
    assert hit.project == cwd_folder_name(CWD)  # the project's, not "children"
    assert hit.heading() == f"{PARENT_CUT} ▸ task ▸ {CHILD_PROMPT}"
    assert hit.to_json()["parentFile"] == str(family.parent)
    [top] = _search(index, "problem")  # the parent's own text: a top-level hit
    assert top.file == family.parent and not top.child and top.parent_file is None
    assert top.heading() == PARENT_PROMPT and top.to_json()["parentFile"] is None


def test_the_listings_never_show_a_subagent_session(tmp_path: Path, index: CatalogIndex) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    write_family(base, cwd=OTHER_CWD)
    cache = tmp_path / "cache.sqlite3"
    update_index(index, base, None)
    tops = {path for path in base.glob("*/*.jsonl")}
    assert len(tops) == 2 and family.child not in tops
    assert {row.path for row in load_rows(index, None)} == tops
    assert [row.path for row in load_rows(index, [cwd_folder_name(CWD)])] == [family.parent]
    assert {row.path for row in list_sessions(base, None)} == tops  # the scan, unchanged
    for scope in (CWD, None):
        fresh = refreshed_rows(base, scope, index_path=cache)
        at_once = indexed_rows(base, scope, cache)
        expected = {row.path for row in list_sessions(base, scope)}
        assert fresh.rows is not None and {row.path for row in fresh.rows} == expected
        assert at_once.rows is not None and {row.path for row in at_once.rows} == expected
        assert fresh.report is not None and fresh.report.children == (1 if scope else 2)


def test_stats_check_and_list_say_the_same_once_children_are_indexed(
    tmp_path: Path, cli: Any
) -> None:
    base = tmp_path / "sessions"
    write_family(base)
    write_family(base, cwd=OTHER_CWD)
    commands = [
        ("list", "--all", "--json"),
        ("check", "--all", "--json"),
        ("stats", "--all", "--json", "--by", "project"),
        ("stats", "--json", "--cwd", CWD),
    ]
    before = [cli.run(*command, "--sessions-dir", str(base)) for command in commands]
    code, out, err = cli.run("index", "--all", "--sessions-dir", str(base))
    assert code == 0, err
    assert "4 session files (2 of them subagent sessions)" in out
    after = [cli.run(*command, "--sessions-dir", str(base)) for command in commands]
    assert after == before
    listed = json.loads(before[0][1])
    assert len(listed) == 2 and not any(row["isChild"] for row in listed)


def test_an_appended_child_is_found_after_the_next_update(
    tmp_path: Path, index: CatalogIndex
) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    update_index(index, base, CWD)
    assert _search(index, "quokkaphrase") == []
    writer = SessionWriter.for_session(open_session(family.child))
    writer.append_message({"role": "user", "content": "and the quokkaphrase in totals?"})
    report = update_index(index, base, CWD)
    assert (report.appended, report.unchanged) == (1, 1)
    assert report.sessions_changed == 0  # what the picker lists did not change
    [hit] = _search(index, "quokkaphrase")
    assert hit.file == family.child and hit.parent_file == family.parent and hit.role == "user"


def test_a_new_child_is_found_and_a_deleted_one_is_dropped(
    tmp_path: Path, index: CatalogIndex
) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    update_index(index, base, CWD)
    later = write_child(
        project_dir(base, CWD),
        family.parent_id,
        cwd=CWD,
        said="a second opinion on mooncalfery",
        start=NOW - timedelta(minutes=5),
        prompt="second look",
    )
    assert update_index(index, base, CWD).added == 1
    [hit] = _search(index, "mooncalfery")
    assert hit.file == later.path and hit.parent_file == family.parent
    family.child.unlink()
    report = update_index(index, base, CWD)
    assert report.dropped == 1 and report.children == 1 and report.sessions_changed == 0
    assert _search(index, WORD) == []
    known = index.connection.execute("SELECT count(*) FROM files").fetchone()[0]
    assert known == 2  # the parent and the second child; the first one's rows are gone


def test_a_child_whose_parent_is_gone_is_found_alone(tmp_path: Path, index: CatalogIndex) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    update_index(index, base, CWD)
    family.parent.unlink()
    assert update_index(index, base, CWD).sessions_changed == 1  # the listing lost a row
    [hit] = _search(index, WORD)
    assert hit.file == family.child and hit.child
    assert hit.parent_file is None and hit.parent_title == ""
    assert hit.heading() == f"{GONE_PARENT} ▸ task ▸ {CHILD_PROMPT}"
    assert hit.to_json()["parentFile"] is None


def test_a_project_filter_covers_that_projects_children(
    tmp_path: Path, index: CatalogIndex
) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    other = write_family(base, cwd=OTHER_CWD)
    update_index(index, base, None)
    assert {hit.file for hit in _search(index, WORD)} == {family.child, other.child}
    here = _search(index, WORD, projects=[cwd_folder_name(CWD)])
    assert [hit.file for hit in here] == [family.child]
    assert [hit.file for hit in _search(index, f"{WORD} project:elsewhere")] == [other.child]
    assert [hit.parent_file for hit in _search(index, f"project:kids {WORD}")] == [family.parent]


def test_a_childs_own_child_names_that_child_as_its_parent(
    tmp_path: Path, index: CatalogIndex
) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    grandchild = write_child(
        project_dir(base, CWD),
        family.child_id,
        cwd=CWD,
        said="the deepest wombatry",
        start=NOW - timedelta(minutes=1),
        prompt="look deeper",
    )
    update_index(index, base, CWD)
    [hit] = _search(index, "wombatry")
    assert hit.file == grandchild.path and hit.parent_file == family.child
    assert hit.heading() == f"{CHILD_PROMPT} ▸ task ▸ look deeper"


def test_cli_search_shows_the_breadcrumb_and_json_the_parent_file(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    where = ("--sessions-dir", str(base), "--cwd", CWD)
    code, out, err = cli.run("search", WORD, *where)
    assert code == 0, err
    heading = out.splitlines()[0]
    assert heading.startswith(f"{PARENT_CUT} ▸ task ▸ {CHILD_PROMPT}  [")
    assert heading.endswith(str(family.child))
    assert WORD in out.splitlines()[1]
    code, out, err = cli.run("search", WORD, "--json", *where)
    assert code == 0, err
    [hit] = json.loads(out)["hits"]
    assert hit["file"] == str(family.child) and hit["parentFile"] == str(family.parent)
    code, out, _ = cli.run("search", "problem", "--json", *where)
    assert code == 0 and [hit["parentFile"] for hit in json.loads(out)["hits"]] == [None]


def test_the_breadcrumb_never_carries_an_escape_sequence(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    write_family(
        base, parent_prompt="boss \x1b]0;pwned\x07 here", child_prompt="kid \x1b[2J\x9b31m"
    )
    code, out, err = cli.run("search", WORD, "--sessions-dir", str(base), "--cwd", CWD)
    assert code == 0, err
    heading = out.splitlines()[0]
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert heading.startswith("boss ") and " ▸ task ▸ kid " in heading


def test_an_index_of_the_schema_before_children_is_rebuilt(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    family = write_family(base)
    where = tmp_path / "old" / "index.sqlite3"
    CatalogIndex.open(where).close()
    connection = sqlite3.connect(where)
    connection.execute("PRAGMA user_version=3")  # an index that never read children/
    connection.close()
    with CatalogIndex.open(where) as index:
        assert index.notice is not None and "had schema 3: rebuilt" in index.notice
        assert update_index(index, base, CWD).added == 2
        assert [hit.parent_file for hit in _search(index, WORD)] == [family.parent]
