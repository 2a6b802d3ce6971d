"""The key grammar (``ink_tui/ui/keymap.py``): every screen's and widget's keys agree with the one
table, no key means two things, docs/keys.md is the table; then Pilot tests of each key whose
meaning changed (issue 19, "Keys"): ``y`` opens the copy menu in the session view as in the
picker, ``/`` and ``n`` go to the match after the cursor, ``j``/``k`` scroll the help, ``{``/``}``
go by turn, the search screen's help lists no key that types, the palette names keys as people
do, and the footer shows the keys of the part that has the focus."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widgets import Static
from waiting import wait_for, workers_finished

import ink_tui.ui
from ink_tui.paths import project_dir
from ink_tui.ui.keymap import EXCEPTIONS, VERB, VERBS, markdown_table
from ink_tui.ui.modals.keeping import CopyScreen
from ink_tui.ui.screens.help import HelpScreen, help_rows
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.search import SearchScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.widgets.footer import InkFooter

ROOT = Path(__file__).resolve().parents[2]
CWD = "/home/ada/code/keys"
SIZE = (120, 36)


def _bound_classes() -> list[type[DOMNode]]:
    """Every screen, dialog, widget and the app of ink-tui that declares keys."""
    found: dict[str, type[DOMNode]] = {}
    for info in pkgutil.walk_packages(ink_tui.ui.__path__, "ink_tui.ui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ == module.__name__
                and issubclass(cls, DOMNode)
                and "BINDINGS" in cls.__dict__
            ):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[name] for name in sorted(found)]


BOUND = _bound_classes()


def _bindings(cls: type[DOMNode]) -> list[Binding]:
    return list(Binding.make_bindings(cls.__dict__["BINDINGS"]))


# -- the grammar ---------------------------------------------------------------------------------


def test_the_bound_classes_include_every_screen() -> None:
    names = {cls.__name__ for cls in BOUND}
    for name in ("InkApp", "PickerScreen", "SessionScreen", "TimelineScreen", "SearchScreen"):
        assert name in names
    for name in ("StatsScreen", "ChangesScreen", "BranchesScreen", "HelpScreen", "ChatScreen"):
        assert name in names
    assert {"InkTreeScreen", "InkTreeList"} <= names
    assert {"CursorList", "CopyScreen", "ErrorScreen", "ExportScreen"} <= names


@pytest.mark.parametrize("cls", BOUND, ids=lambda cls: cls.__name__)
def test_each_binding_is_a_verb_of_the_table_with_its_keys(cls: type[DOMNode]) -> None:
    for binding in _bindings(cls):
        assert binding.id in VERB, f"{cls.__name__}: {binding.key} → {binding.action}: no verb"
        verb = VERB[binding.id]
        assert binding.key in verb.all_keys, f"{cls.__name__}: {binding.key} is not {verb.name}"
        if verb.name == "answer":  # a question's letters, only in a dialog
            assert issubclass(cls, ModalScreen), f"{cls.__name__}: {binding.key} answers nothing"
        if verb.name == "type":  # text: listed nowhere
            assert not binding.description
        if verb.name == "ink":  # Ink's own keys: only on the screen that is Ink's
            assert cls.__name__ == "InkTreeScreen", f"{cls.__name__}: {binding.key} is not Ink's"


def test_no_key_of_the_table_means_two_verbs() -> None:
    owners: defaultdict[str, set[str]] = defaultdict(set)
    for verb in VERBS:
        if verb.name not in EXCEPTIONS:
            for key in verb.all_keys:
                owners[key].add(verb.name)
    assert {key: names for key, names in owners.items() if len(names) > 1} == {}


def test_across_screens_a_key_means_one_verb() -> None:
    verbs_of: defaultdict[str, set[str]] = defaultdict(set)
    where: defaultdict[str, set[str]] = defaultdict(set)
    for cls in BOUND:
        for binding in _bindings(cls):
            assert binding.id is not None
            where[binding.id].add(cls.__name__)
            if binding.id not in EXCEPTIONS:
                verbs_of[binding.key].add(binding.id)
    assert {key: ids for key, ids in verbs_of.items() if len(ids) > 1} == {}
    # the keys the issue found at odds: one meaning each
    assert verbs_of["s"] == {"search"} and verbs_of["y"] == {"copy"}
    assert {"PickerScreen", "SessionScreen"} <= where["copy"]
    assert verbs_of["n"] == {"match_next"} and verbs_of["O"] == {"order"}
    # every row of the table is a key that works somewhere (docs/keys.md promises no more)
    assert set(where) == set(VERB)


def test_docs_keys_md_is_the_table() -> None:
    assert markdown_table() in (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")


# -- Pilot tests -----------------------------------------------------------------------------------


def _session(tmp_path: Path, prompts: list[str]) -> Path:
    from ink_tui.session import ModelRef
    from ink_tui.session.writing.writer import SessionWriter

    folder = project_dir(tmp_path / "sessions", CWD)
    writer = SessionWriter.new(folder, CWD, model=ModelRef("anthropic", "claude-sonnet-4-5"))
    for prompt in prompts:
        writer.append_message({"role": "user", "content": prompt})
        writer.append_message(
            {
                "role": "assistant",
                "blocks": [{"type": "text", "text": "done"}],
                "usage": {"inputTokens": 10, "outputTokens": 5},
                "stopReason": "end_turn",
            }
        )
    return writer.path


async def _session_view(pilot: Pilot[Any]) -> SessionScreen:
    def loaded() -> SessionScreen | None:
        screen = pilot.app.screen
        return screen if isinstance(screen, SessionScreen) and screen.loaded is not None else None

    screen = await wait_for(pilot, loaded, "the session view")
    tree = screen.query_one(SessionTree)
    await wait_for(pilot, lambda: tree.at_last_row, "the rows")
    return screen


def _turn(screen: SessionScreen) -> int:
    """The index of the turn the tree's cursor is in."""
    tree = screen.query_one(SessionTree)
    node = tree.cursor
    assert node is not None
    while node.parent is not None and node.parent is not None:
        node = node.parent
    return list(tree.top_rows).index(node)


async def _on_turn(pilot: Pilot[Any], screen: SessionScreen, index: int) -> None:
    await pilot.press("g", *["right_square_bracket"] * index)
    await wait_for(pilot, lambda: _turn(screen) == index, f"the cursor on turn {index + 1}")


async def test_y_in_the_session_view_opens_the_pickers_copy_menu_with_the_message(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path, ["first prompt", "copy this prompt"])
    app = make_app(cwd=CWD, open_path=path)
    copied: list[str] = []
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        screen = await _session_view(pilot)
        await _on_turn(pilot, screen, 1)
        await pilot.press("y")
        menu = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, CopyScreen) else None, "the menu"
        )
        assert [(key, what) for key, what, _ in menu.choices] == [
            ("m", "the message as shown"),
            ("a", "the last agent message"),
            ("i", "the session id"),
            ("p", "the file path"),
            ("r", "the command resuming it in Ink"),
        ]
        await pilot.press("m")
        await wait_for(pilot, lambda: copied == ["copy this prompt"], "the message copied")
        await pilot.press("escape")  # back to the picker: y there is the same menu, less m
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        await pilot.press("y")
        picker_menu = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, CopyScreen) else None, "the menu"
        )
        assert [key for key, _, _ in picker_menu.choices] == ["a", "i", "p", "r"]
        await pilot.press("m")  # no message here: nothing happens
        assert app.screen is picker_menu
        await pilot.press("p")
        await wait_for(pilot, lambda: copied[-1] == str(path), "the path copied")


async def test_slash_goes_to_the_match_after_the_cursor_and_n_N_go_round(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path, [f"needle number {n}" for n in range(1, 6)])
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _session_view(pilot)
        await _on_turn(pilot, screen, 2)  # the third of five turns, each holding "needle"
        await pilot.press("slash", *"needle", "enter")
        await wait_for(pilot, lambda: _turn(screen) == 3, "the match after the cursor")
        await pilot.press("n")
        await wait_for(pilot, lambda: _turn(screen) == 4, "the next match")
        await pilot.press("n")  # round to the first
        await wait_for(pilot, lambda: _turn(screen) == 0, "the first match")
        await pilot.press("N")  # round back to the last
        await wait_for(pilot, lambda: _turn(screen) == 4, "the last match")
        await _on_turn(pilot, screen, 1)  # moved away: n goes on from the cursor, not the match
        await pilot.press("n")
        await wait_for(pilot, lambda: _turn(screen) == 2, "the match after the cursor")
        await pilot.press("N")
        await wait_for(pilot, lambda: _turn(screen) == 1, "the match before it")


async def test_braces_go_by_turn_as_brackets_do(tmp_path: Path, make_app: Any) -> None:
    path = _session(tmp_path, ["one", "two", "three"])
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _session_view(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: _turn(screen) == 0, "the first turn")
        await pilot.press("right_curly_bracket")
        await wait_for(pilot, lambda: _turn(screen) == 1, "the next turn")
        await pilot.press("right_curly_bracket")
        await wait_for(pilot, lambda: _turn(screen) == 2, "the last turn")
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: _turn(screen) == 1, "the turn before")


class _HelpHost(App[None]):
    """A bare app with the help over an unopened session view (its keys need no session)."""

    def on_mount(self) -> None:
        self.push_screen(HelpScreen(SessionScreen(Path("unused.jsonl"))))


@pytest.fixture
def help_app() -> App[None]:
    return _HelpHost()


async def _help(pilot: Pilot[Any]) -> HelpScreen:
    app = pilot.app
    found = await wait_for(
        pilot, lambda: app.screen if isinstance(app.screen, HelpScreen) else None, "the help"
    )
    assert isinstance(found, HelpScreen)
    return found


async def test_the_help_scrolls_with_j_k_g_G_pages_and_goes_by_group(help_app: App[None]) -> None:
    app = help_app
    async with app.run_test(size=(80, 16)) as pilot:
        help_screen = await _help(pilot)
        scroller = help_screen.scroller
        await wait_for(pilot, lambda: scroller.max_scroll_y > 10, "a help longer than the screen")
        await pilot.press("j", "j")
        await wait_for(pilot, lambda: scroller.scroll_y == 2, "two lines down")
        await pilot.press("k")
        await wait_for(pilot, lambda: scroller.scroll_y == 1, "one line up")
        await pilot.press("G")
        await wait_for(pilot, lambda: scroller.scroll_y == scroller.max_scroll_y, "the end")
        await pilot.press("g")
        await wait_for(pilot, lambda: scroller.scroll_y == 0, "the top")
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: scroller.scroll_y > 2, "a page down")
        await pilot.press("g", "right_square_bracket")
        second = min(help_screen.group_lines[1], scroller.max_scroll_y)
        await wait_for(pilot, lambda: scroller.scroll_y == second, "the second group")
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: scroller.scroll_y == 0, "the first group")
        assert isinstance(app.screen, HelpScreen)  # none of them closed it
        await pilot.press("q")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "q closes it")
        assert app.is_running


async def test_the_session_help_lists_space_as_what_it_does_now(help_app: App[None]) -> None:
    async with help_app.run_test(size=SIZE) as pilot:
        help_screen = await _help(pilot)
        rows = {row.description: row.keys for row in help_screen.rows}
        assert rows["Open / close the row"] == "Space"
        assert "Pause / play" not in rows  # not playing back: Space does not pause anything
        assert rows["Copy…"] == "y"  # Y, its old key, works and is listed nowhere
        assert rows["Bottom"] == "G, End"


async def test_the_search_screens_help_lists_no_key_that_types(
    tmp_path: Path, make_app: Any
) -> None:
    _session(tmp_path, ["a prompt"])
    app = make_app(cwd=CWD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, workers_finished(app), "the picker's rows")
        await pilot.press("s")
        search = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, SearchScreen) else None, "search"
        )
        await pilot.press("q", "question_mark")  # text in the query, not quit and help
        assert search.query_one("#search-query").value == "q?"  # type: ignore[attr-defined]
        await pilot.press("f1")
        help_screen = await wait_for(
            pilot, lambda: app.screen if isinstance(app.screen, HelpScreen) else None, "the help"
        )
        keys = [key for row in help_screen.rows for key in row.keys.split(", ")]
        assert "q" not in keys and "?" not in keys
        assert {"F1", "ctrl+q", "Esc", "Tab", "Enter", "↓"} <= set(keys)
        note = help_screen.query_one("#help-palette", Static).content
        assert "letters, q and ? type into it" in str(note)
        await pilot.press("question_mark")  # the help's own ? closes it
        await wait_for(pilot, lambda: app.screen is search, "back on the search")


async def test_the_palette_names_keys_as_people_do(tmp_path: Path, make_app: Any) -> None:
    path = _session(tmp_path, ["a prompt"])
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _session_view(pilot)
        commands = {c.title: c.help for c in app.get_system_commands(screen)}
        assert commands["Bottom"] == "key: G, End"
        assert commands["Top"] == "key: g, Home"
        assert commands["Search"] == "key: /"
        assert commands["Help"] == "key: ?, F1"
        assert commands["Copy…"] == "key: y"
        for title, help_text in commands.items():
            if help_text.startswith("key: "):  # never a binding's raw name
                for raw in (",end", "slash", "question_mark", "_bracket", "escape", "full_stop"):
                    assert raw not in help_text, (title, help_text)


def _footer(screen: Screen[Any]) -> list[tuple[str, str]]:
    """(key, what) of each key the footer shows, left to right."""
    return [(key.display, key.description) for key in screen.query_one(InkFooter).keys]


async def test_the_footer_shows_the_keys_of_the_part_with_the_focus(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path, ["a prompt", "another"])
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _session_view(pilot)
        await wait_for(pilot, lambda: ("b", "Branches") in _footer(screen), "the view's keys")
        assert ("/", "Search") in _footer(screen)
        await pilot.press("slash")  # the search line has the focus: its Esc first, no letters
        await wait_for(
            pilot, lambda: _footer(screen)[:1] == [("Esc", "Close the search")], "its keys"
        )
        shown = _footer(screen)
        assert ("b", "Branches") not in shown and ("/", "Search") not in shown  # they type
        assert ("F1", "Help") in shown  # ? types: F1 is help
        await pilot.press("escape", "T")  # the timeline: its list's keys come first
        await wait_for(pilot, lambda: screen is not app.screen, "the timeline")
        timeline = app.screen
        await wait_for(
            pilot, lambda: _footer(timeline)[:1] == [("Enter", "Show the turn")], "the list's"
        )
        shown = _footer(timeline)
        assert ("j", "") in shown and ("k", "") in shown  # grouped: "j k Move"
        assert ("O", "Slowest first / in order") in shown
        assert all(key != "s" for key, _ in shown)


async def test_the_playback_keys_work_and_are_listed_only_while_playing_back(
    tmp_path: Path, make_app: Any
) -> None:
    path = _session(tmp_path, ["one", "two"])
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _session_view(pilot)
        rows = {row.description: row.keys for row in help_rows(screen)}
        assert rows["Open / close the row"] == "Space" and "Step one record" not in rows
        await pilot.press("g", "p")
        await wait_for(pilot, lambda: screen.playback.player is not None, "playing back")
        rows = {row.description: row.keys for row in help_rows(screen)}
        assert rows["Pause / play"] == "Space"  # the priority one: it pauses
        assert "Open / close the row" not in rows
        assert rows["Step one record"] == "." and rows["Play faster"] == "+"
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.playback.player.paused, "paused by Space")
        await pilot.press("p")  # stop
        await wait_for(pilot, lambda: screen.playback.player is None, "stopped")
        rows = {row.description: row.keys for row in help_rows(screen)}
        assert rows["Open / close the row"] == "Space" and "Pause / play" not in rows
