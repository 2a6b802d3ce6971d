"""A streamed reply rendered part by part looks exactly like the whole reply rendered at once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console, RenderableType
from sharding import shard_examples, shard_ids

from ink_tui.ui.render import streamed_markdown
from ink_tui.ui.render.safe import markdown
from ink_tui.ui.render.streamed_markdown import StreamedMarkdown, split_parts

BLOCKS = [
    "A paragraph with **bold**, `code` and words enough to wrap over the width. " * 2,
    "# Heading",
    "## Second heading",
    "Setext heading\n==============",
    "- a\n- b\n  - nested",
    "1. one\n2. two",
    "1. one\n\n2. two, a loose list",
    "- item\n\n  its second paragraph\n- next item",
    "```python\ndef f():\n\n    return 1\n```",
    "~~~\nblank lines\n\ninside a tilde fence\n~~~",
    "````\n```\nfence inside a longer fence\n```\n````",
    "> quoted\n> more",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "    indented code\n\n    more indented code",
    "---",
    "* * *",
    "soft\nline\nbreaks",
    "<div>html</div>",
    "![an image](http://example.com/x.png)",
    "```\na fence left open",
    "  a paragraph indented by two",
    "\x1b]0;title\x07 escape [bold]markup[/bold]",
    "See [the docs][d] for more.",
    "[d]: https://example.com/docs",
    "```markdown\n    ```\nstill code: four spaces do not close a fence\n\nmore\n```",
    "<div>\n\nhtml with a blank line\n\n</div>",
]

documents = st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=7).flatmap(
    lambda blocks: st.sampled_from(["\n\n", "\n", "\n\n\n"]).map(lambda sep: sep.join(blocks))
)


def lines(renderable: RenderableType, width: int = 70) -> list[str]:
    console = Console(width=width, file=None, force_terminal=False)
    return ["".join(s.text for s in line) for line in console.render_lines(renderable)]


@pytest.mark.parametrize("shard", shard_ids(3))  # 300 examples as three cases
@settings(max_examples=shard_examples(300, 3), deadline=None)
@given(documents, st.lists(st.integers(1, 40), min_size=1, max_size=20))
@example(  # an HTML block runs to the next blank line and swallows the fence opener after it
    "<div>\n\nhtml with a blank line\n\n</div>\n```python\ndef f():\n\n    return 1\n```\n"
    "<div>\n\nhtml with a blank line\n\n</div>",
    [1],
)
def test_a_reply_fed_in_any_pieces_renders_as_the_whole_text(
    shard: str, text: str, cuts: list[int]
) -> None:
    reply = StreamedMarkdown()
    start = 0
    for size in cuts * (len(text) // sum(cuts) + 1):
        if start >= len(text):
            break
        reply.feed(text[start : start + size])
        lines(reply)  # a repaint mid-stream caches the parts finished so far
        start += size
    whole = lines(markdown(text))
    assert reply.text == text
    assert lines(reply) == whole
    assert lines(StreamedMarkdown(text, finished=True)) == whole


@given(st.text(alphabet=st.sampled_from("ab -*_1.)`~ \t\n>#|<"), max_size=200))
def test_the_parts_and_the_rest_are_the_text(text: str) -> None:
    parts, rest, _ = split_parts(text)
    assert "".join(parts) + rest == text
    assert all(part.strip() for part in parts)


def test_parts_end_at_blank_lines_outside_fences_only() -> None:
    text = "intro\n\n```\ncode\n\nstill code\n```\n\nafter\n\n- a\n\n- b\n\n  more b\n\nend"
    parts, rest, html = split_parts(text)
    assert not html
    assert parts == [
        "intro\n\n",
        "```\ncode\n\nstill code\n```\n\n",
        "after\n\n- a\n\n- b\n\n  more b\n\n",  # a list item may go on a loose list
    ]
    assert rest == "end"


def test_nothing_after_a_line_that_may_open_an_html_block_is_cut() -> None:
    text = "intro\n\n<div>\n\n```\nnot a fence\n\nafter\n\nend"
    parts, rest, html = split_parts(text)
    assert (parts, rest, html) == (["intro\n\n"], text.removeprefix("intro\n\n"), True)
    reply = StreamedMarkdown()
    for char in text:
        reply.feed(char)
    assert reply.part_count == 1  # and no more, however much text follows
    reply.feed("\n\nmore\n\nand more\n\n")
    assert reply.part_count == 1
    assert split_parts("```\n<div>\n\ncode\n```\n\nafter")[2] is False  # `<` in code is code


def test_a_repaint_renders_only_the_unfinished_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    rendered: list[str] = []
    real = streamed_markdown._render

    def counting(console: Any, options: Any, part: str, first: bool, theme: str) -> Any:
        rendered.append(part)
        return real(console, options, part, first, theme)

    monkeypatch.setattr(streamed_markdown, "_render", counting)
    reply = StreamedMarkdown()
    for index in range(30):
        reply.feed(f"Paragraph number {index} of a long reply.\n\n")
        lines(reply)
    reply.feed("The last paragraph")
    lines(reply)
    rendered.clear()
    reply.feed(", still arriving")
    lines(reply)
    assert rendered == ["The last paragraph, still arriving"]


def test_controls_in_a_reply_are_made_visible() -> None:
    shown = "\n".join(lines(StreamedMarkdown("one\n\ntwo \x1b[2J three", finished=True)))
    assert "\x1b" not in shown and "␛" in shown
