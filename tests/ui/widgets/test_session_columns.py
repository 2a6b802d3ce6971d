"""The picker's column rules alone (ui/widgets/session_columns.py): which columns a width keeps,
and the fuzzy ranking of the rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from ink_tui.catalog import SessionSummary
from ink_tui.ui.widgets.session_columns import fit_columns, fuzzy_ranked


@pytest.mark.parametrize(
    ("width", "dropped"),
    [
        (200, {"state", "machine", "secrets"}),
        (110, {"state", "machine", "secrets", "size"}),
        (90, {"state", "machine", "secrets", "size", "model"}),
        (60, {"state", "machine", "secrets", "size", "model", "branches", "project"}),
    ],
)
def test_narrower_lists_leave_out_size_model_branches_then_project(
    width: int, dropped: set[str]
) -> None:
    title, left_out = fit_columns(width, show_project=True, needs_state=False)
    assert left_out == dropped
    assert title >= 28 or left_out >= {"size", "model", "branches", "project"}


@pytest.mark.parametrize(
    ("width", "dropped"),
    [
        (200, {"state", "secrets"}),
        (90, {"state", "secrets", "size", "model", "branches"}),
        (70, {"state", "secrets", "size", "model", "branches", "project"}),
        (40, {"state", "secrets", "size", "model", "branches", "project", "machine"}),
    ],
)
def test_every_machine_adds_a_machine_column_kept_longer_than_the_project(
    width: int, dropped: set[str]
) -> None:
    _, left_out = fit_columns(width, show_project=True, needs_state=False, show_machine=True)
    assert left_out == dropped


@pytest.mark.parametrize(
    ("width", "dropped"),
    [
        (200, {"state"}),
        (100, {"state", "size"}),
        (80, {"state", "size", "model"}),
        (60, {"state", "size", "model", "branches"}),
        (55, {"state", "size", "model", "branches", "secrets"}),
    ],
)
def test_a_row_holding_secrets_adds_their_column_kept_past_the_branches(
    width: int, dropped: set[str]
) -> None:
    _, left_out = fit_columns(width, show_project=False, needs_state=False, show_secrets=True)
    assert left_out == dropped | {"project", "machine"}


def test_a_list_too_narrow_for_anything_still_gives_the_title_a_few_cells() -> None:
    title, left_out = fit_columns(20, show_project=False, needs_state=True)
    assert title == 6 and "state" not in left_out


def _summary(name: str, title: str, project: str = "proj") -> SessionSummary:
    return SessionSummary(  # type: ignore[call-arg]
        path=Path(f"/s/{project}/{name}.jsonl"),
        file_name=f"{name}.jsonl",
        project_folder=project,
        mtime=0.0,
        size=1,
        id=f"{name}-id",
        title=title,
        message_count=1,
        leaf_count=1,
        model=None,
        listed_by_ink=True,
    )


def test_the_fuzzy_ranking_keeps_matches_only_best_first_ties_in_order() -> None:
    rows = [
        _summary("a", "write the docs"),
        _summary("b", "fix the parser"),
        _summary("c", "docs for the api", project="docs-site"),
        _summary("d", "nothing here"),
    ]
    ranked = fuzzy_ranked(rows, "docs")
    assert {row.file_name for row in ranked} == {"a.jsonl", "c.jsonl"}
    twins = [_summary("x", "write the docs"), _summary("y", "write the docs")]
    assert fuzzy_ranked(twins, "docs") == twins  # a tie keeps the rows' order
    assert fuzzy_ranked(list(reversed(twins)), "docs") == list(reversed(twins))
    assert fuzzy_ranked(rows, "zzz") == []
