"""Pilot tests of the session view: every key, the tree/replay sync, and safety."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bigload import big_session, tail_first
from testdata import all_session_files, copy_session
from textual.widgets import Static
from viewtext import without_time
from waiting import wait_for

from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.modals.keeping import CopyScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.transcript import Transcript

HOSTILE = "before \x1b]0;pwned\x07 \x1b]52;c;aGk=\x07 \x1b[2J [bold red]x[/] \u202eevil after"


def _assistant(blocks: list[dict[str, Any]], stop: str = "tool_use") -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 10, "outputTokens": 5},
        "stopReason": stop,
        "model": "claude-sonnet-4-5",
        "modelReference": "anthropic/claude-sonnet-4-5",
    }


def _write_session(folder: Path) -> Path:
    """Three turns: a bash call with hostile colourful output, a thinking block, an edit."""
    writer = SessionWriter.new(folder, "/home/ada/code/calc-kit")
    writer.append_message({"role": "user", "content": "run the tests please"})
    writer.append_message(
        _assistant(
            [
                {"type": "thinking", "thinking": "I should run pytest first."},
                {
                    "type": "toolCall",
                    "id": "call_1",
                    "name": "bash",
                    "arguments": {"command": "pytest -q"},
                },
            ]
        )
    )
    output = (
        "\x1b[32m3 passed\x1b[0m\n" + HOSTILE + "\n" + "\n".join(f"line {n}" for n in range(40))
    )
    writer.append_message(
        {
            "role": "toolResult",
            "results": [
                {"toolCallId": "call_1", "toolName": "bash", "content": output, "isError": False}
            ],
        }
    )
    writer.append_message(_assistant([{"type": "text", "text": "All **green**."}], "end_turn"))
    writer.append_message({"role": "user", "content": "now fix sum_list"})
    writer.append_message(
        _assistant(
            [
                {
                    "type": "toolCall",
                    "id": "call_2",
                    "name": "edit",
                    "arguments": {
                        "path": "calc/stats.py",
                        "edits": [{"oldText": "return 5", "newText": "return sum(xs)"}],
                    },
                }
            ]
        )
    )
    writer.append_message(
        {
            "role": "toolResult",
            "results": [
                {"toolCallId": "call_2", "toolName": "edit", "content": "boom", "isError": True}
            ],
        }
    )
    writer.append_message({"role": "user", "content": "unique-needle in the last prompt"})
    writer.append_message(_assistant([{"type": "text", "text": "Done."}], "end_turn"))
    return writer.path


def _shown(pilot: Any) -> SessionScreen | None:
    """The session view on top, once its session is loaded."""
    screen = pilot.app.screen
    return screen if isinstance(screen, SessionScreen) and screen.loaded is not None else None


async def _loaded(pilot: Any) -> SessionScreen:
    """The session view, loaded, with the cursor placed on its last row (after a refresh)."""
    screen = await wait_for(pilot, lambda: _shown(pilot), "the session view to load")
    assert screen is not None
    tree = screen.query_one(SessionTree)
    await wait_for(
        pilot,
        lambda: tree.at_last_row,
        "the cursor on the last row",
    )
    return screen


@pytest.fixture
def session_file(tmp_path: Path) -> Path:
    return _write_session(tmp_path / "sessions" / "home-ada-code-calc--kit")


def _rendered_text(transcript: Transcript) -> str:
    """Every line the transcript shows, rendering all blocks."""
    lines = []
    for index in range(len(transcript.keys)):
        for strip in transcript.block_strips(index):
            lines.append("".join(segment.text for segment in strip))
    return "\n".join(lines)


async def test_opens_on_the_last_turn_with_header(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        assert without_time([node.text for node in tree.top_rows][-1]).endswith(
            "unique-needle in the last prompt"
        )
        header = str(screen.query_one("#session-header").render())
        assert "anthropic/claude-sonnet-4-5" in header
        assert "/home/ada/code/calc-kit" in header
        assert "3 turns" in header and "2 tool calls, 1 failed" in header


async def test_j_k_g_G_move_the_cursor(tmp_path: Path, session_file: Path, make_app: Any) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        await pilot.press("g")
        assert tree.cursor_row == 0
        await pilot.press("j")
        assert tree.cursor_row == 1
        await pilot.press("k")
        assert tree.cursor_row == 0
        await pilot.press("G")
        assert tree.at_last_row


async def test_brackets_jump_between_turns_and_transcript_follows(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        transcript = screen.query_one(Transcript)
        await pilot.press("g")
        await pilot.press("right_square_bracket")
        await wait_for(
            pilot,
            lambda: transcript.selected_key == tree.cursor_key,
            "the transcript to follow",
        )
        node = tree.cursor
        assert node is not None and node.parent is None
        assert without_time(node.text).endswith("now fix sum_list")
        assert transcript.selected_key == node.key
        await pilot.press("left_square_bracket")
        assert without_time(tree.cursor.text).endswith("run the tests please")


async def test_enter_l_h_expand_and_collapse(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        await pilot.press("g")
        first = tree.cursor
        assert first is not None and not first.expanded
        await pilot.press("l")
        assert first.expanded and len(first.children) >= 2
        await pilot.press("h")
        assert not first.expanded
        await pilot.press("enter")
        assert first.expanded
        await pilot.press("enter")
        assert not first.expanded


async def test_search_n_and_N(tmp_path: Path, session_file: Path, make_app: Any) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        await pilot.press("g", "slash")
        await pilot.press(*"line 3")
        await pilot.press("enter")
        search_status = screen.query_one("#search-status")
        await wait_for(
            pilot, lambda: "match 1 of" in str(search_status.render()), "the first search's matches"
        )
        status = str(search_status.render())
        assert "match 1 of" in status
        # the match is inside the bash output: the cursor is on the bash call
        assert "bash" in tree.cursor.text
        await pilot.press("slash")
        await pilot.press(*"unique-needle")
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: "match 1 of 1" in str(search_status.render()), "the needle's one match"
        )
        status = str(search_status.render())
        assert without_time(tree.cursor.text).endswith("unique-needle in the last prompt"), (
            status,
            tree.cursor.text,
        )
        await pilot.press("n")
        assert "match 1 of 1" in str(screen.query_one("#search-status").render())
        await pilot.press("N")
        assert "match 1 of 1" in str(screen.query_one("#search-status").render())


async def test_t_toggles_thinking_and_o_cycles_output(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        transcript = screen.query_one(Transcript)
        text = _rendered_text(transcript)
        assert "▸ thinking" in text and "I should run pytest first." not in text
        await pilot.press("t")
        text = _rendered_text(transcript)
        assert "I should run pytest first." in text
        assert "more lines (o: show all)" in text
        await pilot.press("o")  # full
        text = _rendered_text(transcript)
        assert "line 39" in text and "more lines" not in text
        await pilot.press("o")  # hidden
        text = _rendered_text(transcript)
        assert "3 passed" not in text
        await pilot.press("o")  # cut again
        assert "3 passed" in _rendered_text(transcript)


async def test_y_copies_the_selected_row(tmp_path: Path, session_file: Path, make_app: Any) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        await _loaded(pilot)
        await pilot.press("G", "k")
        await pilot.press("y")  # the copy menu, the message first
        await wait_for(pilot, lambda: isinstance(app.screen, CopyScreen), "the copy menu")
        await pilot.press("m")
        await wait_for(pilot, lambda: not isinstance(app.screen, CopyScreen), "the copy")
        assert app.clipboard == "unique-needle in the last prompt"


async def test_b_opens_the_branches_and_escape_goes_back(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    from ink_tui.ui.screens.branches import BranchesScreen

    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, BranchesScreen), "the branches")
        assert isinstance(app.screen, BranchesScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "the session view again")
        await pilot.press("escape")
        await wait_for(
            pilot, lambda: not isinstance(app.screen, SessionScreen), "the session view to close"
        )


async def test_hostile_output_never_reaches_the_terminal(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        await pilot.press("o")  # full output
        text = _rendered_text(screen.query_one(Transcript))
        assert "\x1b" not in text and "\x07" not in text
        assert "␛]0;pwned␇" in text and "␛]52;c;aGk=␇" in text and "␛[2J" in text
        assert "[bold red]x[/]" in text and "<U+202E>" in text
        assert "3 passed" in text  # the SGR colour was kept as a style, its text shown


async def test_torn_tail_is_a_notice_and_opening_writes_nothing(
    tmp_path: Path, make_app: Any
) -> None:
    source = copy_session(tmp_path / "data", "torn-half")
    before = source.read_bytes()
    app = make_app(cwd="/nowhere", open_path=source)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        messages = [notification.message for notification in app._notifications]
        assert any("torn final line 9 ignored" in message for message in messages)
        tree = screen.query_one(SessionTree)
        assert without_time([node.text for node in tree.top_rows][-1]).endswith("Yes, do that.")
    assert source.read_bytes() == before


async def test_corrupt_session_opens_the_error_view(tmp_path: Path, make_app: Any) -> None:
    from ink_tui.ui.screens.error import ErrorScreen

    app = make_app(cwd="/nowhere", open_path=copy_session(tmp_path / "data", "interior-corrupt"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error view")
        banner = app.screen.query_one("#error-banner", Static).content
        assert "session line 6: invalid JSON" in str(banner)


# the data sessions Ink cannot open: the error view shows them
UNREADABLE = {"interior-corrupt", "unknown-type-mid", "broken-chain", "parent-cycle", "bad-header"}
UNREADABLE |= {"empty-file"}


@pytest.mark.parametrize("source", all_session_files(), ids=lambda path: path.name)
async def test_replaying_every_data_session_runs_no_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any, source: Path
) -> None:
    """Replay reads records only: process creation is patched to fail, and nothing fails."""
    import asyncio
    import os
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"replay tried to run a process: {args!r}")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(os, "system", refuse)
    monkeypatch.setattr(os, "posix_spawn", refuse)
    monkeypatch.setattr(asyncio, "create_subprocess_exec", refuse)
    monkeypatch.setattr(asyncio, "create_subprocess_shell", refuse)
    from ink_tui.ui.screens.error import ErrorScreen

    path = copy_session(tmp_path / "data", source.name)
    before = path.read_bytes()
    app = make_app(cwd="/nowhere", open_path=path)
    expected = ErrorScreen if path.stem in UNREADABLE else SessionScreen
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ErrorScreen) or _shown(pilot),
            f"{path.name} to open",
        )
        assert isinstance(app.screen, expected), path.name
        if isinstance(app.screen, SessionScreen):
            text = _rendered_text(app.screen.query_one(Transcript))
            assert "\x1b" not in text
            assert text.strip(), path.name
    assert path.read_bytes() == before, path


async def test_scrolling_the_transcript_moves_the_selection(
    tmp_path: Path, session_file: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=session_file)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        tree = screen.query_one(SessionTree)
        transcript = screen.query_one(Transcript)
        transcript.focus()
        await pilot.press("home")
        await wait_for(
            pilot,
            lambda: without_time(tree.cursor.text).endswith("run the tests please"),
            "the selection to follow the scroll to the top",
        )
        await pilot.click(Transcript, offset=(10, 3))
        await wait_for(pilot, lambda: tree.cursor_key == transcript.selected_key, "the clicked row")


async def test_compaction_shows_summary_tokens_and_the_retained_tail(
    tmp_path: Path, make_app: Any
) -> None:
    app = make_app(cwd="/nowhere", open_path=copy_session(tmp_path / "data", "compaction"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _loaded(pilot)
        text = " ".join(_rendered_text(screen.query_one(Transcript)).split())
        assert "⟳ compaction" in text and "⟳ compaction · 5120 tokens before" in text
        assert "kept 2 messages as the retained tail" in text
        assert "retained tail (sent after the summary):" in text
        assert "mean([]) divided by zero" in text  # the summary itself


async def test_a_big_session_paints_its_last_turns_first_then_the_whole_branch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Any
) -> None:
    tail_first(monkeypatch)
    path = big_session(tmp_path / "sessions" / "p")
    shown: list[int] = []
    original = SessionScreen._show_loaded

    def spy(self: SessionScreen, loaded: Any) -> None:
        shown.append(loaded.earlier)
        original(self, loaded)

    monkeypatch.setattr(SessionScreen, "_show_loaded", spy)
    app = make_app(cwd="/nowhere", open_path=path)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: len(shown) == 2, "the tail, then the whole branch, shown")
        assert shown[0] > 0 and shown[1] == 0  # first the tail, then everything
        screen = app.screen
        assert isinstance(screen, SessionScreen)
        tree = screen.query_one(SessionTree)
        first = tree.top_rows[0].text
        assert first.strip().startswith("1 ")  # whole branch: numbered from the first prompt
        last = tree.top_rows[-1].children[-1]
        # the cursor lands after the tree is refreshed, so wait for it rather than racing it
        await wait_for(pilot, lambda: tree.cursor is last, "the cursor on the last row")
