"""Pilot tests of the session view as a new user meets it (issue 9 §5): turn keys, search while
loading and inside hidden thinking, copying tool output, labels, model and thinking rows, the
header, tree titles, narrow terminals.

Waits are ``waiting.wait_for``; apps come from the ``make_app`` fixture.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bigload import big_session, hold_the_full_load
from textual.geometry import Region
from viewtext import without_time
from waiting import wait_for

from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript

CWD = "/home/ada/code/calc-kit"
ESCAPES = "\x1b[32m3 passed\x1b[0m in 0.2s \x1b]0;pwned\x07 done"


async def _loaded(pilot: Any) -> SessionScreen:
    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, SessionScreen) and screen.loaded is not None

    await wait_for(pilot, ready, "the session view")
    screen = pilot.app.screen
    assert isinstance(screen, SessionScreen)
    return screen


def _assistant(blocks: list[dict[str, Any]], stop: str = "end_turn") -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 10, "outputTokens": 5},
        "stopReason": stop,
        "model": "claude-sonnet-4-5",
        "modelReference": "anthropic/claude-sonnet-4-5",
    }


def _bash(call_id: str, command: str) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": command}}


def _result(call_id: str, output: str) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "results": [
            {"toolCallId": call_id, "toolName": "bash", "content": output, "isError": False}
        ],
    }


def _three_turns(folder: Path) -> tuple[SessionWriter, dict[str, str]]:
    """Three turns; the first thinks (hidden by default) and runs bash with coloured output."""
    writer = SessionWriter.new(folder, CWD, model=ModelRef("anthropic", "claude-sonnet-4-5"))
    ids: dict[str, str] = {}
    ids["prompt1"] = writer.append_message({"role": "user", "content": "run the tests please"})[
        "id"
    ]
    ids["call"] = writer.append_message(
        _assistant(
            [
                {"type": "thinking", "thinking": "The zebra-crossing fixture matters most."},
                _bash("call_1", "pytest -q"),
            ],
            "tool_use",
        )
    )["id"]
    ids["result"] = writer.append_message(_result("call_1", ESCAPES))["id"]
    ids["answer1"] = writer.append_message(_assistant([{"type": "text", "text": "All green."}]))[
        "id"
    ]
    ids["prompt2"] = writer.append_message({"role": "user", "content": "now fix sum_list"})["id"]
    writer.append_message(_assistant([{"type": "text", "text": "Fixed."}]))
    ids["prompt3"] = writer.append_message({"role": "user", "content": "and the docs"})["id"]
    writer.append_message(_assistant([{"type": "text", "text": "First, the README."}]))
    writer.append_message(_assistant([{"type": "text", "text": "Then the changelog."}]))
    return writer, ids


def _tree_text(tree: SessionTree) -> list[str]:
    """Every line the tree paints (its titled top border included)."""
    region = Region(0, 0, tree.outer_size.width, tree.outer_size.height)
    return [strip.text.rstrip() for strip in tree.render_lines(region)]


def _replay_text(transcript: Transcript) -> str:
    return "\n".join(
        strip.text
        for index in range(len(transcript.keys))
        for strip in transcript.block_strips(index)
    )


def _screen_lines(app: Any) -> list[str]:
    """The screen as the compositor paints it, line by line."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def _label(node: Any) -> str:
    return node.text


# -- [ and ] -------------------------------------------------------------------------------------


async def test_left_bracket_goes_to_the_start_of_the_current_turn_first(
    tmp_path: Path, make_app: Any
) -> None:
    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        await pilot.press("G")  # the last row: inside turn 3
        assert tree.cursor is not None and tree.cursor.parent is not None
        await pilot.press("left_square_bracket")
        assert without_time(_label(tree.cursor)).endswith("and the docs")  # the start of turn 3
        await pilot.press("left_square_bracket")
        assert without_time(_label(tree.cursor)).endswith("now fix sum_list")  # at a start: turn 2
        await pilot.press("right_square_bracket")
        assert without_time(_label(tree.cursor)).endswith("and the docs")
        await pilot.press("right_square_bracket")  # in the last turn: its last row
        assert tree.at_last_row
        assert "Then the changelog." in _label(tree.cursor)


# -- search ----------------------------------------------------------------------------------------


async def test_a_search_during_a_big_load_runs_again_when_the_load_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any
) -> None:
    from ink_tui.session.conversation.rows import search_turns

    release = hold_the_full_load(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p", entries=400)
    async with make_app(open_path=path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        assert screen.loaded is not None and screen.loaded.earlier > 0  # only the tail so far
        await pilot.press("slash", *"the", "enter")
        status = screen.query_one("#search-status")
        await wait_for(pilot, lambda: "match 1 of" in str(status.render()), "the first match")
        assert "still loading" in str(status.render())
        release.set()
        await wait_for(
            pilot, lambda: screen.loaded is not None and not screen.loaded.earlier, "all"
        )
        expected = len(search_turns(screen.loaded.turns, "the", screen.loaded.row_labels()))
        await wait_for(
            pilot, lambda: f"of {expected:,}" in str(status.render()), f"{expected} matches"
        )
        shown = str(status.render())
        assert "loading" not in shown and "match 1 of" not in shown  # the same match, renumbered


async def test_a_match_in_hidden_thinking_is_shown_highlighted_and_marked(
    tmp_path: Path, make_app: Any
) -> None:
    writer, ids = _three_turns(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        transcript = screen.query_one(Transcript)
        tree = screen.query_one(SessionTree)
        assert "zebra-crossing" not in _replay_text(transcript)  # thinking is hidden
        await pilot.press("slash", *"ZEBRA-crossing", "enter")
        await wait_for(pilot, lambda: "thinking" in _label(tree.cursor), "the thinking row")
        assert "zebra-crossing" in _replay_text(transcript)  # that thinking is shown
        index = transcript.keys.index(f"{ids['call']}:0")
        match_style = transcript.get_component_rich_style("transcript--match")
        marked = [
            segment.text
            for strip in transcript.block_strips(index)
            for segment in strip
            if segment.style is not None and segment.style.bgcolor == match_style.bgcolor
        ]
        assert "".join(marked) == "zebra-crossing"  # exactly the matched words, as written
        assert _label(tree.cursor).startswith("◆")  # the tree row is marked


async def test_a_match_past_the_cut_of_a_tool_output_shows_the_whole_output(
    tmp_path: Path, make_app: Any
) -> None:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", CWD)
    writer.append_message({"role": "user", "content": "list them"})
    writer.append_message(_assistant([_bash("c1", "ls")], "tool_use"))
    writer.append_message(_result("c1", "\n".join(f"file-{n}.txt" for n in range(40))))
    writer.append_message(_assistant([{"type": "text", "text": "Forty files."}]))
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        transcript = screen.query_one(Transcript)
        assert "file-39.txt" not in _replay_text(transcript)  # past the cut
        await pilot.press("slash", *"file-39", "enter")
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: "bash" in _label(tree.cursor), "the call")
        assert "file-39.txt" in _replay_text(transcript)


async def test_keys_typed_in_the_search_line_are_text(tmp_path: Path, make_app: Any) -> None:
    """g, G, Home and End move the view, but not while the search line is typed in."""
    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        await pilot.press("slash", *"big G", "home", "end", "enter")
        status = str(screen.query_one("#search-status").render())
        assert "no match for 'big G'" in status


# -- copying ---------------------------------------------------------------------------------------


async def test_y_on_a_bash_call_copies_the_output_as_shown(tmp_path: Path, make_app: Any) -> None:
    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        await pilot.press("g", "l", "j", "j")  # turn 1, opened: its thinking, then the call
        assert "bash" in _label(screen.query_one(SessionTree).cursor)
        await pilot.press("y", "m")  # the copy menu: the message
        await wait_for(pilot, lambda: "bash pytest" in pilot.app.clipboard, "the copy")
        copied = pilot.app.clipboard
        assert copied.startswith("bash pytest -q\n")
        assert "\x1b" not in copied and "\x07" not in copied
        assert "3 passed in 0.2s" in copied  # the colour codes are gone, the text stays
        assert "␛]0;pwned␇" in copied  # a non-colour escape, shown as the replay shows it


# -- labels ----------------------------------------------------------------------------------------


def _labelled(folder: Path) -> tuple[SessionWriter, dict[str, str]]:
    writer, ids = _three_turns(folder)
    label = writer.append_entry
    label("label", {"targetId": ids["prompt2"], "label": "old name"})
    label("label", {"targetId": ids["prompt2"], "label": "fix-point"})  # the last write wins
    label("label", {"targetId": ids["result"], "label": "green run"})  # a tool result entry
    label("label", {"targetId": ids["answer1"], "label": "gone"})
    label("label", {"targetId": ids["answer1"], "label": ""})  # an empty label removes it
    return writer, ids


async def test_labels_show_in_the_tree_and_the_replay_and_search_finds_them(
    tmp_path: Path, make_app: Any
) -> None:
    writer, _ids = _labelled(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        transcript = screen.query_one(Transcript)
        turn2 = tree.top_rows[1]
        assert "# fix-point" in _label(turn2) and "old name" not in _label(turn2)
        assert any("# fix-point" in line for line in _tree_text(tree))  # on screen, not cut
        replay = _replay_text(transcript)
        assert "# fix-point" in replay and "# green run" in replay
        assert "# gone" not in replay and "old name" not in replay
        await pilot.press("slash", *"green run", "enter")
        await wait_for(pilot, lambda: "bash" in _label(tree.cursor), "the labelled call")
        assert "# green run" in _label(tree.cursor)
        assert "match 1 of 1" in str(screen.query_one("#search-status").render())


# -- model and thinking ------------------------------------------------------------------------


async def test_model_switches_and_thinking_changes_are_rows_and_the_header_follows_ink(
    tmp_path: Path, make_app: Any
) -> None:
    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    writer.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})
    writer.append_session_model(ModelRef("zai", "glm-5.3"))
    writer.append_message({"role": "user", "content": "after the switch"})
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        header = str(screen.query_one("#session-header").render())
        assert "zai/glm-5.3" in header and "thinking high" in header
        replay = _replay_text(screen.query_one(Transcript))
        assert "· thinking → high" in replay and "· model → zai/glm-5.3" in replay
        assert replay.index("Then the changelog.") < replay.index("· thinking → high")
        assert replay.index("· thinking → high") < replay.index("· model → zai/glm-5.3")
        assert replay.index("· model → zai/glm-5.3") < replay.index("after the switch")


async def test_without_a_thinking_change_the_header_says_medium_as_the_chat_does(
    tmp_path: Path, make_app: Any
) -> None:
    from ink_tui.agent.start import load_chat

    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        header = str(screen.query_one("#session-header").render())
        assert f"thinking {load_chat(writer.path).thinking}" in header
        assert "thinking medium" in header


# -- the header and the tree's titles --------------------------------------------------------


LONG_PROMPT = (
    "Please refactor the ledger reconciliation module so that every adapter reports its "
    "rounding differences separately, then update the tests"
)


async def test_the_header_is_one_line_each_at_120_and_titles_as_the_picker(
    tmp_path: Path, make_app: Any
) -> None:
    from ink_tui.catalog.summary import summarize_file

    cwd = "/home/ada/code/a-project-with-a-rather-long-folder-name/services/ledger-reconciliation"
    writer = SessionWriter.new(tmp_path / "sessions" / "p", cwd, model=ModelRef("zai", "glm-5.3"))
    writer.append_message({"role": "user", "content": LONG_PROMPT})
    writer.append_message(_assistant([{"type": "text", "text": "On it."}]))
    title = summarize_file(writer.path).title
    async with make_app(open_path=writer.path).run_test(size=(120, 36)) as pilot:
        screen = await _loaded(pilot)
        header = screen.query_one("#session-header")
        first, second = header.render().plain.split("\n")
        width = header.content_region.width
        assert len(first) <= width and len(second) <= width  # nothing wraps
        assert header.content_region.height == 2
        assert first.startswith(title[:20]) and writer.path.name not in first
        assert "…" in first and "zai/glm-5.3" in first and "thinking medium" in first


async def test_every_cut_tree_title_ends_with_an_ellipsis(tmp_path: Path, make_app: Any) -> None:
    writer = SessionWriter.new(tmp_path / "sessions" / "p", CWD)
    writer.append_message({"role": "user", "content": LONG_PROMPT})
    writer.append_message(
        _assistant(
            [_bash("c1", "python -m pytest tests/test_ledger.py -q -k rounding")], "tool_use"
        )
    )
    writer.append_message(_result("c1", "ok"))
    async with make_app(open_path=writer.path).run_test(size=(120, 36)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        await pilot.press("G")
        lines = [line for line in _tree_text(tree) if line.strip()]
        assert lines and all(len(line) <= tree.size.width for line in lines)
        title = next(line for line in lines if "Please refactor" in line)
        assert without_time(title).endswith("…")
        call = next(line for line in lines if "bash" in line)
        assert call.endswith("✓ ok") and "…" in call  # the argument is cut, the status kept


# -- narrow terminals ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
async def test_a_narrow_terminal_gives_the_replay_the_width_and_v_shows_the_tree(
    tmp_path: Path, size: tuple[int, int], make_app: Any
) -> None:
    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    columns, rows = size
    async with make_app(open_path=writer.path).run_test(size=size) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        transcript = screen.query_one(Transcript)
        assert not tree.display or tree.region.width == 0
        assert transcript.region.width >= columns - 2
        region = Region(0, 0, transcript.size.width, transcript.size.height)
        shown = "\n".join(strip.text for strip in transcript.render_lines(region))
        assert "Then the changelog." in shown  # the last answer is on screen, whole

        def painted() -> list[str] | None:  # the screen once it shows the last answer
            lines = _screen_lines(pilot.app)
            return lines if any("Then the changelog." in line for line in lines) else None

        lines = await wait_for(pilot, painted, "the last answer painted")
        assert len(lines) == rows and all(len(line) <= columns for line in lines)
        await wait_for(pilot, lambda: "v Tree" in _screen_lines(pilot.app)[-1], "v in the footer")
        header = screen.query_one("#session-header")
        assert header.content_region.height == 2
        assert all(
            len(line) <= header.content_region.width for line in header.render().plain.split("\n")
        )
        await wait_for(pilot, lambda: tree.at_last_row and tree.cursor_row > 0, "the last row")
        await pilot.press("k")  # the keys still move through the rows
        assert "First, the README." in _label(tree.cursor)
        await pilot.press("v")
        await wait_for(pilot, lambda: tree.region.height > 0, "the tree")
        assert tree.region.width >= columns - 2 and tree.region.y < transcript.region.y
        assert tree.has_focus
        assert any("First, the README." in line for line in _tree_text(tree))  # cursor in sight
        await pilot.press("v")
        await wait_for(pilot, lambda: tree.region.height == 0, "the tree hidden again")


async def test_a_wide_terminal_keeps_the_tree_beside_the_replay(
    tmp_path: Path, make_app: Any
) -> None:
    writer, _ = _three_turns(tmp_path / "sessions" / "p")
    async with make_app(open_path=writer.path).run_test(size=(120, 36)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        transcript = screen.query_one(Transcript)
        assert tree.region.width >= 30 and transcript.region.x >= tree.region.right
        await pilot.press("v")  # nothing to toggle here
        assert tree.region.width >= 30


def test_a_cut_output_one_line_over_says_one_more_line() -> None:
    import io

    from rich.console import Console

    from ink_tui.session.conversation.view import Item, ToolExchange
    from ink_tui.session.reading.reader import Entry
    from ink_tui.ui.render.blocks import CUT_LINES, RenderOptions, item_block

    output = "\n".join(f"row {n}" for n in range(CUT_LINES + 1))
    call = Entry({"type": "message", "id": "a1", "parentId": None}, 2, 0, 1)
    exchange = ToolExchange("c1", "bash", {"command": "ls"}, _result("c1", output)["results"][0])
    block = item_block(Item("tool", call, 0, "", exchange), RenderOptions())
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(block)
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "… 1 more line (o: show all)" in shown
