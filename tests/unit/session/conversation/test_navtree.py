"""Ink's ``/tree`` as data (spec §7; ``store.ts`` ``getTree``, ``tree-selector.ts``
``buildTreeRows``): roots, sibling order by ``Date.parse``, the five filters, the rows and their
connectors, and ``ink-tui tree`` printing them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ink_tui.session import open_session
from ink_tui.session.conversation.navtree import FILTERS, ink_tree, row_line, tree_rows
from ink_tui.session.reading.jsvalues import date_parse


def _at(second: int) -> str:
    return f"2026-10-05T12:00:{second:02d}.000Z"


def _user(sf: Any, entry_id: str, parent: str | None, second: int, text: str = "") -> Any:
    record = sf.user(entry_id, parent, text or f"prompt {entry_id}")
    record["timestamp"] = _at(second)
    return record


def _reply(
    sf: Any, entry_id: str, parent: str | None, second: int, text: str = "", **extra: Any
) -> Any:
    record = sf.assistant(entry_id, parent, text or f"reply {entry_id}", **extra)
    record["timestamp"] = _at(second)
    return record


def _meta(sf: Any, kind: str, entry_id: str, parent: str, second: int, **fields: Any) -> Any:
    record = sf.entry(kind, entry_id, parent, **fields)
    record["timestamp"] = _at(second)
    return record


def _lines(path: Path, mode: Any = "default") -> list[str]:
    session = open_session(path, warn=None)
    return [row_line(row) for row in tree_rows(ink_tree(session), session.leaf_id, mode)]


def test_roots_are_null_self_parented_or_orphaned_entries_in_file_order(sf: Any) -> None:
    path = sf.write(
        _user(sf, "u1", None, 1),
        _user(sf, "self", "self", 2),
        _user(sf, "lost", "nowhere", 3),
        _meta(sf, "label", "l1", "u1", 4, targetId="lost", label="found it"),
        _reply(sf, "a1", "u1", 5),
    )
    session = open_session(path, warn=None)
    roots = ink_tree(session)
    assert [root.entry.id for root in roots] == ["u1", "self", "lost"]  # the label is no node
    assert [child.entry.id for child in roots[0].children] == ["a1"]
    assert roots[2].label == "found it"
    assert _lines(path) == [
        "├─ • user: prompt u1",
        "│     • assistant: reply a1  ◂",
        "├─ user: prompt self",
        "└─ [found it] user: prompt lost",
    ]


def test_siblings_are_ordered_by_their_timestamps_stably(sf: Any) -> None:
    path = sf.write(
        _user(sf, "u1", None, 1),
        _reply(sf, "late", "u1", 30),
        _reply(sf, "early", "u1", 10),
        _reply(sf, "tie", "u1", 10),  # same time as "early": file order kept
        {**_reply(sf, "zoned", "u1", 0), "timestamp": "2026-10-05T14:00:20.000+02:00"},
    )
    roots = ink_tree(open_session(path, warn=None))
    assert [child.entry.id for child in roots[0].children] == ["early", "tie", "zoned", "late"]


@pytest.mark.parametrize(
    ("stamps", "order"),
    [
        # an unparsable timestamp compares equal to every other: V8's sort keeps this run as is
        ([_at(3), "not a date", _at(1)], [0, 1, 2]),
        # a strictly descending start is reversed, then the rest inserted by binary search
        ([_at(2), _at(1), "not a date"], [1, 0, 2]),
        ([_at(5), _at(4), _at(3), _at(9)], [2, 1, 0, 3]),
    ],
)
def test_an_unparsable_timestamp_sorts_as_v8_sorts_it(
    sf: Any, stamps: list[str], order: list[int]
) -> None:
    replies = [
        {**_reply(sf, f"r{n}", "u1", 0), "timestamp": stamp} for n, stamp in enumerate(stamps)
    ]
    path = sf.write(_user(sf, "u1", None, 1), *replies)
    roots = ink_tree(open_session(path, warn=None))
    assert [child.entry.id for child in roots[0].children] == [f"r{n}" for n in order]


def test_date_parse_reads_the_iso_format_as_javascript_does() -> None:
    assert date_parse("2026-10-05T12:34:56.789Z") == 1791203696789
    assert date_parse("2026-10-05") == 1791158400000  # a date alone is UTC
    assert date_parse("2026-10-05T14:34:56.789+02:00") == 1791203696789
    assert date_parse("2026-02-30T00:00:00Z") == date_parse("2026-03-02T00:00:00Z")
    assert date_parse("2026-10-05T24:00:00Z") == date_parse("2026-10-06T00:00:00Z")
    for bad in ("", "yesterday", "2026-13-01T00:00:00Z", "2026-10-05T24:00:01Z", "-000000"):
        assert date_parse(bad) != date_parse(bad)  # NaN


def _filtered_session(sf: Any) -> Path:
    """user, a tool-only reply, its result, a reply cut at max_tokens, a thinking change, a
    name, a labelled reply, the leaf: a thinking change."""
    calls = (("c1", "bash"),)
    tool_only = _reply(sf, "a1", "u1", 2, calls=calls)
    tool_only["message"]["blocks"] = tool_only["message"]["blocks"][1:]  # no text block
    cut = _reply(sf, "a2", "r1", 4, calls=(("c2", "read"),))
    cut["message"]["blocks"] = cut["message"]["blocks"][1:]
    cut["message"]["stopReason"] = "max_tokens"
    results = sf.results("r1", "a1", ("c1", "bash"))
    results["timestamp"] = _at(3)
    return sf.write(
        _user(sf, "u1", None, 1, "fix it"),
        tool_only,
        results,
        cut,
        _meta(sf, "thinkingLevelChange", "k1", "a2", 5, thinkingLevel="high"),
        _meta(sf, "session_info", "n1", "k1", 6, name="the fix"),
        _reply(sf, "a3", "n1", 7, "Fixed."),
        _meta(sf, "label", "l1", "a3", 8, targetId="a3", label="done"),
        _meta(sf, "thinkingLevelChange", "k2", "a3", 9, thinkingLevel="low"),
    )


def test_the_five_filters_and_the_leaf_that_survives_them(sf: Any) -> None:
    path = _filtered_session(sf)
    leaf = "• thinking: low  ◂"
    assert _lines(path, "all") == [
        "• user: fix it",
        "• assistant: [bash]",
        "• ⎿ bash",
        "• assistant: [read]",
        "• thinking: high",
        "• title: the fix",
        "• [done] assistant: Fixed.",
        leaf,
    ]
    assert _lines(path, "default") == [
        "• user: fix it",
        "• ⎿ bash",
        "• assistant: [read]",  # cut at max_tokens: kept, though it has no text
        "• [done] assistant: Fixed.",
        leaf,
    ]
    assert _lines(path, "no-tools") == [
        "• user: fix it",
        "• assistant: [read]",
        "• [done] assistant: Fixed.",
        leaf,
    ]
    assert _lines(path, "user-only") == ["• user: fix it", leaf]
    assert _lines(path, "labeled-only") == ["• [done] assistant: Fixed.", leaf]
    assert FILTERS == ("default", "no-tools", "user-only", "labeled-only", "all")


def test_a_branch_point_indents_and_the_current_branch_comes_first(sf: Any) -> None:
    path = sf.write(
        _user(sf, "u1", None, 1, "start"),
        _reply(sf, "a1", "u1", 2, "first answer"),
        _user(sf, "u2", "a1", 3, "old road"),
        _reply(sf, "a2", "u2", 4, "old answer"),
        _user(sf, "u3", "a1", 5, "new road"),
        _reply(sf, "a3", "u3", 6, "new answer"),
        _user(sf, "u4", "a3", 7, "deeper"),
        sf.position("u3"),  # /tree moved the leaf back to "new road"
    )
    assert _lines(path) == [
        "• user: start",
        "• assistant: first answer",
        "├─ • user: new road  ◂",
        "│     assistant: new answer",
        "│     user: deeper",
        "└─ user: old road",
        "      assistant: old answer",
    ]


def test_ink_tui_tree_prints_the_rows(sf: Any, cli: Any) -> None:
    path = _filtered_session(sf)
    code, out, _ = cli.run("tree", str(path), "--filter", "user-only")
    assert code == 0 and out == "• user: fix it\n• thinking: low  ◂\n"
    code, out, _ = cli.run("tree", str(path), "--filter", "labeled-only", "--ids")
    assert out == "a3  • [done] assistant: Fixed.\nk2  • thinking: low  ◂\n"
    code, _, err = cli.run("tree", str(path), "--filter", "tools")
    assert code == 2 and "invalid choice: 'tools'" in cli.one_error_line(err)


def test_ink_tui_tree_keeps_one_line_per_row_and_shows_controls(sf: Any, cli: Any) -> None:
    path = sf.write(
        _user(sf, "u1", None, 1, "hi"),
        _meta(sf, "session_info", "n1", "u1", 2, name="two\nlines \x1b]0;x\x07"),
    )
    code, out, _ = cli.run("tree", str(path), "--filter", "all")
    assert code == 0 and len(out.splitlines()) == 2
    assert "\x1b" not in out and "\x07" not in out
    assert out.splitlines()[1].startswith("• title: two lines ")


def test_duplicate_ids_that_tie_a_node_under_itself_end(sf: Any) -> None:
    """Ink's getTree would loop forever here (the later "a" is both the root and B's child);
    the rows stop where the walk would come back to a node on its own path."""
    path = sf.write(
        _user(sf, "a", None, 1, "first a"),
        _reply(sf, "b", "a", 2),
        _user(sf, "a", "b", 3, "second a"),
    )
    assert _lines(path, "all") == [
        "• user: second a  ◂",  # a root (the first "a" had no parent)
        "assistant: reply b",
        "• user: second a  ◂",  # and b's child: shown once more, not walked again
    ]
