"""The one way a label is cut to a width: by terminal cells, never half a wide character, no
space left before the ``…``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ink_tui.humanize import breadcrumb, cell_width, char_cells, cut, cut_length


@pytest.mark.parametrize(
    ("text", "width", "shown"),
    [
        ("修复解析器中的错误", 9, "修复解析…"),  # 4 wide characters and the ellipsis
        ("修复解析器中的错误", 8, "修复解…"),  # never half a character, never "修复解 …"
        ("修复解析器中的错误", 18, "修复解析器中的错误"),  # exactly the width: whole
        ("fix the parser bug", 8, "fix the…"),
        ("fix the parser bug", 5, "fix…"),  # "fix t…" would be 6; "fix …" leaves a space
        ("为什么 CI 在主分支上失败", 8, "为什么…"),  # the space before the cut goes
        ("为什么 CI 在主分支上失败", 10, "为什么 CI…"),
        ("ok", 2, "ok"),
        ("abc", 1, "…"),
        ("abc", 0, ""),
    ],
)
def test_cut_counts_cells_and_leaves_no_space_before_the_ellipsis(
    text: str, width: int, shown: str
) -> None:
    assert cut(text, width) == shown
    assert cell_width(shown) <= width


def test_cell_width_counts_wide_characters_twice_and_marks_not_at_all() -> None:
    assert cell_width("中文") == 4
    assert cell_width("ｶﾀｶﾅ") == 4  # halfwidth katakana: one cell each
    assert cell_width("e\u0301") == 1  # a combining accent takes no cell
    assert cell_width("\uff21") == 2  # a fullwidth A


def test_a_breadcrumb_cuts_a_chinese_parent_by_cells() -> None:
    crumb = breadcrumb("把结构化日志加到所有的请求处理函数里面然后更新文档", "child")
    parent = crumb.split(" ▸ ")[0]
    assert parent.endswith("…") and cell_width(parent) <= 30 and " …" not in parent


@given(st.text(st.characters(max_codepoint=0x7F), max_size=20), st.integers(-2, 22))
def test_plain_ascii_is_cut_exactly_where_measuring_each_character_cuts_it(
    text: str, width: int
) -> None:
    """ASCII text is one cell a character (the quick path); the cut is the measured one."""
    measured = cut_length(text, width, cells=lambda char: char_cells(char))
    assert cut_length(text, width) == measured
