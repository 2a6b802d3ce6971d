"""``one_line`` (issue 19): a name printed inside a line cannot fake a line or a column."""

from __future__ import annotations

from ink_tui.safetext import one_line, visible


def test_a_newline_and_a_tab_in_a_name_are_shown_not_obeyed() -> None:
    name = "q\nink-tui: all good\tx"
    assert one_line(name) == "q␊ink-tui: all good␉x"
    assert "\n" not in one_line(name) and "\t" not in one_line(name)


def test_everything_else_is_shown_as_visible_shows_it() -> None:
    hostile = "a\x1b]0;pwned\x07b\r\x85\u202e\ud83d c.py ✓ 数据"
    assert one_line(hostile) == visible(hostile)
    assert one_line(hostile).encode("utf-8")  # lone surrogates shown: always encodable
