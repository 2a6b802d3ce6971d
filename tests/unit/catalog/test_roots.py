"""One index over several sessions dirs: this machine's and each mirrored machine's.

A mirror is a folder of ``<data dir>/machines`` named as a machine may be; each dir's files are
listed, searched and counted with their machine, and an update of one dir never drops another's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inksessions import ink_session

from ink_tui.catalog import usagecache as usage_module
from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.index.listing import indexed_rows, refreshed_rows
from ink_tui.catalog.prices import load_price_table
from ink_tui.catalog.query import QueryError
from ink_tui.catalog.roots import Root, archive_roots, machine_of, mirror_roots
from ink_tui.catalog.search import search
from ink_tui.catalog.stats import build_report
from ink_tui.catalog.usagecache import collect_usage
from ink_tui.paths import machines_dir, mirrored_machine

CWD = "/home/ada/code/retry"


def _write(base: Path, name: str, words: str, cwd: str = CWD) -> Path:
    return ink_session(base, cwd, name, [words], reply="done")


@pytest.fixture
def here(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    _write(base, "here", "the flaky retry test, fixed here")
    return base


@pytest.fixture
def devbox() -> Path:
    mirror = machines_dir() / "devbox"
    _write(mirror, "dev", "the flaky retry test, fixed on the dev box")
    return mirror


def test_mirrors_are_the_machine_named_folders_of_the_data_dir(tmp_path: Path) -> None:
    folder = machines_dir()
    for name in ("ci", "devbox", "-bad", "a.b"):
        (folder / name).mkdir(parents=True)
    (folder / "stray.txt").write_text("")
    (folder / "linked").symlink_to(tmp_path)
    assert [root.machine for root in mirror_roots()] == ["ci", "devbox"]
    assert archive_roots(tmp_path / "s")[0] == Root(tmp_path / "s")


def test_a_root_holds_exactly_the_files_under_its_folder(tmp_path: Path) -> None:
    root = Root(tmp_path / "machines" / "dev", "dev")
    inside = bytes(tmp_path / "machines" / "dev" / "p" / "s.jsonl")
    assert root.holds(inside)
    assert not root.holds(bytes(tmp_path / "machines" / "dev2" / "p" / "s.jsonl"))
    assert not root.holds(bytes(tmp_path / "machines" / "dev"))
    assert machine_of(inside, [Root(tmp_path), root]) == "dev"
    assert machine_of(bytes(tmp_path / "x.jsonl"), [Root(tmp_path), root]) is None


def test_updating_one_dir_keeps_every_other_dir_indexed(here: Path, devbox: Path) -> None:
    with CatalogIndex.open() as index:
        assert update_index(index, devbox, None).added == 1
        report = update_index(index, here, None)
        assert report.added == 1 and report.dropped == 0
        assert update_index(index, devbox, None).unchanged == 1  # not read again


def test_the_rows_of_every_machine_carry_their_machine(here: Path, devbox: Path) -> None:
    mirrors = mirror_roots()
    rows = refreshed_rows(here, None, mirrors=mirrors).rows
    assert rows is not None
    assert sorted((row.id, row.machine) for row in rows) == [("dev", "devbox"), ("here", None)]
    only_here = indexed_rows(here, CWD).rows
    assert only_here is not None and [row.id for row in only_here] == ["here"]
    again = indexed_rows(here, None, mirrors=mirrors).rows
    assert again is not None and {row.machine for row in again} == {None, "devbox"}
    assert {row.to_dict()["machine"] for row in again} == {None, "devbox"}


def test_a_deleted_mirror_and_another_sessions_dir_leave_the_index(
    tmp_path: Path, here: Path, devbox: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    _write(elsewhere, "old", "another dir")
    with CatalogIndex.open() as index:
        for base in (elsewhere, devbox):
            update_index(index, base, None)
        assert update_index(index, here, None).dropped == 1  # the other dir's file
        for path in devbox.rglob("*.jsonl"):
            path.unlink()
        for folder in sorted(devbox.rglob("*"), reverse=True):
            folder.rmdir()
        devbox.rmdir()
        assert update_index(index, here, None).dropped == 1  # the deleted mirror's
        (count,) = index.connection.execute("SELECT count(*) FROM files").fetchone()
        assert count == 1


def test_search_finds_every_machine_only_when_asked_and_names_each(
    here: Path, devbox: Path
) -> None:
    roots = archive_roots(here)
    with CatalogIndex.open() as index:
        for root in roots:
            update_index(index, root.path, None)
        local = search(index, "flaky", roots=[Root(here)])
        assert [(hit.session_id, hit.machine) for hit in local.hits] == [("here", None)]
        every = search(index, "flaky", roots=roots)
        assert sorted((hit.session_id, hit.machine) for hit in every.hits) == [
            ("dev", "devbox"),
            ("here", None),
        ]
        assert {hit.to_json()["machine"] for hit in every.hits} == {None, "devbox"}
        named = search(index, "flaky machine:DevBox", roots=roots)
        assert [hit.session_id for hit in named.hits] == ["dev"]
        with pytest.raises(QueryError, match=r"machine:laptop: no such machine .*devbox"):
            search(index, "flaky machine:laptop", roots=roots)


def test_usage_is_counted_per_machine(
    here: Path, devbox: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = collect_usage(here, None, mirrors=mirror_roots())
    report = build_report(files, load_price_table(), "machine")
    assert sorted((row.key, row.sessions) for row in report.rows) == [
        ("(this machine)", 1),
        ("devbox", 1),
    ]
    assert report.total.sessions == 2
    # counting this machine alone keeps the mirror's cached counts
    collect_usage(here, None)

    def refuse(*args: object) -> None:
        raise AssertionError("a file was read again")

    monkeypatch.setattr(usage_module, "scan_usage", refuse)
    cached = collect_usage(here, None, mirrors=mirror_roots())
    assert {usage.machine for usage in cached} == {None, "devbox"}


def test_a_mirrored_session_is_known_by_its_path_alone(tmp_path: Path) -> None:
    inside = machines_dir() / "devbox" / "home-me-api" / "s.jsonl"
    assert mirrored_machine(inside) == "devbox"
    assert mirrored_machine(machines_dir() / "devbox") == "devbox"
    assert mirrored_machine(tmp_path / "sessions" / "p" / "s.jsonl") is None
    assert mirrored_machine(machines_dir().parent / "machinesX" / "a" / "s.jsonl") is None


def test_this_projects_search_reaches_the_same_project_on_every_machine(here: Path) -> None:
    mirror = machines_dir() / "devbox"
    _write(mirror, "mapped", "the flaky retry test, under another path", "/srv/ada/retry")
    _write(mirror, "other", "a flaky sidebar, another project", "/srv/ada/web")
    devbox = Root(mirror, "devbox", (("/srv/ada", "/home/ada/code"),))
    roots = [Root(here), devbox]
    within = [folder for root in roots for folder in root.project_folders(CWD)]
    with CatalogIndex.open() as index:
        for root in roots:
            update_index(index, root.path, None)
        found = search(index, "flaky", roots=roots, within=within)
    assert sorted((hit.session_id, hit.machine) for hit in found.hits) == [
        ("here", None),
        ("mapped", "devbox"),
    ]


def test_the_first_rows_of_many_machines_are_the_newest_and_the_rest_follows_in_order(
    tmp_path: Path,
) -> None:
    import os

    here = tmp_path / "sessions"
    mirror = machines_dir() / "devbox"
    for n in range(6):  # this machine's and devbox's sessions, their times interleaved
        for base, name, when in ((here, f"h{n}", 2 * n), (mirror, f"m{n}", 2 * n + 1)):
            path = _write(base, name, f"words {name}")
            os.utime(path, (1_700_000_000 + when, 1_700_000_000 + when))
    mirrors = mirror_roots()
    with CatalogIndex.open() as index:
        for root in [Root(here), *mirrors]:
            update_index(index, root.path, None)
    everything = indexed_rows(here, None, mirrors=mirrors).rows
    assert everything is not None
    newest_first = [row.id for row in everything]
    assert newest_first == ["m5", "h5", "m4", "h4", "m3", "h3", "m2", "h2", "m1", "h1", "m0", "h0"]
    first = indexed_rows(here, None, first=2, mirrors=mirrors)
    assert first.rows is not None
    shown = [row.id for row in first.rows]
    assert shown == newest_first[: len(shown)] and len(shown) >= 2
    assert shown + [row.id for row in first.rest()] == newest_first
