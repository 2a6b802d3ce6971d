"""Ink's ``/sessions`` listings of the shared fixture folders, row for row.

The fixtures' ``listings`` give, per cwd folder, every ``*.jsonl`` file newest mtime first, with
Ink's verdict. Their ``mtime`` values are the mtimes the reference saw; a checkout or copy of the
fixtures does not keep them (the files on disk may all carry the copy time). So the exact test
pins those mtimes through the listing's stat seam; a second test lists the folders in place with
the real mtimes and checks everything except the mtime value against the fixture.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from shared_fixtures import require_shared_fixtures

import ink_tui.catalog.scan as scan_module
from ink_tui.catalog import list_sessions, summarize_file
from ink_tui.catalog.row import iso_mtime
from ink_tui.paths import cwd_folder_name
from ink_tui.session import SessionError, branch, open_session

FIXTURES = require_shared_fixtures()


def _listings(fixtures: Path) -> list[tuple[str, Path, list[dict[str, Any]]]]:
    """Every folder case's listings (sessions-tree, child-session, listing-titles, …)."""
    found = []
    for case in sorted(fixtures.glob("*.expected.json")):
        expected = json.loads(case.read_text(encoding="utf-8"))
        for folder, rows in expected.get("listings", {}).items():
            found.append((folder, fixtures / folder, rows))
    return found


def _folder_cwd(folder: Path) -> str:
    """The cwd of the sessions in ``folder`` (from a header), checked against the folder name."""
    for path in sorted(folder.glob("*.jsonl")):
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        if cwd_folder_name(header["cwd"]) == folder.name:
            return str(header["cwd"])
    raise AssertionError(f"no header cwd in {folder} encodes to its name")


def test_every_listing_is_checked() -> None:
    folders = {folder for folder, _, _ in _listings(FIXTURES)}
    assert len(folders) >= 7
    assert "listing-titles/home-ada-code-calc--kit" in folders


def test_listings_match_exactly_with_the_fixture_mtimes(monkeypatch: pytest.MonkeyPatch) -> None:
    listings = _listings(FIXTURES)
    pinned: dict[Path, float] = {}
    for _, folder, rows in listings:
        for row in rows:
            pinned[folder / row["file"]] = datetime.fromisoformat(row["mtime"]).timestamp()
    real = scan_module._file_times

    def fixture_times(entry: os.DirEntry[str]) -> tuple[float, int]:
        mtime, size = real(entry)
        return pinned.get(Path(entry.path), mtime), size

    monkeypatch.setattr(scan_module, "_file_times", fixture_times)
    for name, folder, rows in listings:
        got = [row.to_json() for row in list_sessions(folder.parent, _folder_cwd(folder))]
        assert got == rows, name
        by_all = [row for row in list_sessions(folder.parent, None) if row.path.parent == folder]
        assert [row.to_json() for row in by_all] == rows, name
        shown = list_sessions(folder.parent, _folder_cwd(folder), include_hidden=False)
        assert [row.to_json() for row in shown] == [row for row in rows if row["listed"]], name


def test_listings_in_place_with_real_mtimes() -> None:
    for name, folder, rows in _listings(FIXTURES):
        got = list_sessions(folder.parent, _folder_cwd(folder))
        expected = {row["file"]: row for row in rows}
        assert sorted(row.file_name for row in got) == sorted(expected), name
        order = sorted(got, key=lambda row: (os.stat(row.path).st_mtime, row.file_name))
        assert [row.file_name for row in got] == [row.file_name for row in reversed(order)]
        for row in got:
            data = row.to_json()
            assert data.pop("mtime") == iso_mtime(os.stat(row.path).st_mtime)
            assert data == {k: v for k, v in expected[row.file_name].items() if k != "mtime"}


def test_children_folder_is_never_listed() -> None:
    folder = FIXTURES / "child-session" / "home-ada-code-calc--kit"
    assert (folder / "children").is_dir()
    rows = list_sessions(folder.parent, None)
    assert [row.path.parent for row in rows] == [folder]


def test_fast_scan_agrees_with_open_on_every_single_file_fixture() -> None:
    """Leaf, branch counts and Ink's verdict from the cheap scan equal the strict reader's."""
    for path in sorted(FIXTURES.glob("*.jsonl")):
        summary = summarize_file(path)
        try:
            session = open_session(path, warn=None)
            walked = branch(session)
        except SessionError as exc:
            assert summary.hidden_reason == f"{exc.kind}: {exc.message}", path.name
            continue
        roles = [e.record["message"]["role"] for e in walked if e.type == "message"]
        assert summary.leaf_id == session.leaf_id, path.name
        assert summary.message_count == len(roles), path.name
        assert summary.turn_count == roles.count("assistant"), path.name
        assert summary.id == session.session_id, path.name
        if summary.hidden_reason is not None:
            assert path.name in ("old-format.jsonl", "seed-example.jsonl", "torn-header-only.jsonl")
