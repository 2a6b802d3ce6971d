"""The footer alone (ui/widgets/footer.py, footer_line.py), in a small app: it shows the keys of
the focused part as Textual's footer lays them out, follows a key turned off or on and a focus
move to a part with other keys, leaves its line as it is when a focus move changes no shown
key, and answers the pointer: a click presses the key under it (a bell when the key is off),
the key under it shows its tooltip, and the wheel brings keys that do not fit into sight."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widget import Widget
from waiting import wait_for

from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.footer_line import Part, footer_line


class Pane(Widget, can_focus=True):
    """A focusable part with the keys its class binds; ``copying`` turns ``y`` off."""

    DEFAULT_CSS = "Pane { height: 3; }"
    BINDINGS = [Binding("y", "copy", "copy", tooltip="Copy the row"), Binding("j", "down", "down")]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.copying = True
        self.pressed: list[str] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "copy" and not self.copying else True

    def action_copy(self) -> None:
        self.pressed.append("copy")

    def action_down(self) -> None:
        self.pressed.append("down")


class Other(Pane):
    BINDINGS = [Binding("x", "remove", "remove")]

    def action_remove(self) -> None:
        self.pressed.append("remove")


class FooterApp(App[None]):
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def compose(self) -> ComposeResult:
        yield Pane(id="first")
        yield Pane(id="second")
        yield Other(id="other")
        yield InkFooter()

    def bell(self) -> None:
        self.bells += 1


def shown(app: App[None]) -> list[str]:
    """The footer's keys as shown: ``key description`` (``(off)`` when disabled)."""
    keys = app.query_one(InkFooter).keys
    return [f"{key.display} {key.description}" + ("" if key.enabled else " (off)") for key in keys]


async def focus_first(app: App[None], pilot: Pilot[None]) -> Pane:
    """The first part focused, once the footer shows its keys."""
    first = app.query_one("#first", Pane)
    first.focus()
    await wait_for(pilot, lambda: shown(app) == ["y copy", "j down"], "the first part's keys")
    return first


def line(app: App[None]) -> str:
    """The footer's line as it is drawn."""
    footer = app.query_one(InkFooter)
    return footer.render_line(0).text


async def test_the_footer_shows_the_focused_parts_keys_and_follows_focus() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        await focus_first(app, pilot)
        assert line(app) == " y copy  j down ".ljust(60)
        app.query_one("#other").focus()
        await wait_for(
            pilot, lambda: shown(app) == ["y copy", "j down", "x remove"], "the other part's keys"
        )
        assert line(app).rstrip() == " y copy  j down  x remove"


async def test_a_key_turned_off_and_on_again_is_shown_so() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        first = await focus_first(app, pilot)
        first.copying = False
        first.refresh_bindings()
        await wait_for(pilot, lambda: shown(app) == ["y copy (off)", "j down"], "y off")
        segments = list(app.query_one(InkFooter).render_line(0))
        dim = {
            segment.text.strip(): bool(segment.style and segment.style.dim) for segment in segments
        }
        assert dim["y"] and dim["copy"] and not dim["j"]  # an off key is drawn dim
        first.copying = True
        first.refresh_bindings()
        await wait_for(pilot, lambda: shown(app) == ["y copy", "j down"], "y on again")


async def test_a_focus_move_that_changes_no_shown_key_lays_out_nothing_again() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        await focus_first(app, pilot)
        footer = app.query_one(InkFooter)
        before = footer.line
        for _ in range(3):  # the same keys on the second part: the footer is left as it is
            app.query_one("#second").focus()
            await pilot.pause()
            app.query_one("#first").focus()
            await pilot.pause()
        assert footer.line is before


async def test_a_click_presses_the_key_under_the_pointer_and_an_off_key_rings_the_bell() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        first = await focus_first(app, pilot)
        await pilot.click(InkFooter, offset=(10, 0))  # on "down" of " y copy  j down "
        await wait_for(pilot, lambda: first.pressed == ["down"], "j pressed")
        await pilot.click(InkFooter, offset=(40, 0))  # past the keys: nothing
        await pilot.pause()
        assert first.pressed == ["down"] and app.bells == 0
        first.copying = False
        first.refresh_bindings()
        await wait_for(pilot, lambda: shown(app)[0] == "y copy (off)", "y off")
        await pilot.click(InkFooter, offset=(1, 0))
        await wait_for(pilot, lambda: app.bells == 1, "the bell")
        assert first.pressed == ["down"]


async def test_the_key_under_the_pointer_is_lit_and_shows_its_tooltip() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        await focus_first(app, pilot)
        footer = app.query_one(InkFooter)
        plain = {segment.style for segment in footer.render_line(0) if segment.text == "copy "}
        await pilot.hover(InkFooter, offset=(2, 0))
        await wait_for(pilot, lambda: footer.hovered == 0, "y under the pointer")
        assert footer.tooltip == "Copy the row"
        lit = {segment.style for segment in footer.render_line(0) if segment.text == "copy "}
        assert lit != plain  # drawn in the hover colours
        await pilot.hover(InkFooter, offset=(50, 0))
        await wait_for(pilot, lambda: footer.hovered is None, "no key under the pointer")
        assert footer.tooltip is None


async def test_keys_that_change_under_the_pointer_are_lit_as_they_now_are() -> None:
    """The pointer rests past the first part's keys; focus moves to a part with one more key,
    which lands under the pointer: that key is lit (and a key gone takes its tooltip along)."""
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        await focus_first(app, pilot)
        footer = app.query_one(InkFooter)
        await pilot.hover(InkFooter, offset=(2, 0))
        await wait_for(pilot, lambda: footer.tooltip == "Copy the row", "y's tooltip")
        await pilot.hover(InkFooter, offset=(19, 0))  # " y copy  j down " ends at 16
        await wait_for(pilot, lambda: footer.hovered is None, "nothing under the pointer")
        assert footer.tooltip is None
        app.query_one("#other").focus()
        await wait_for(pilot, lambda: len(shown(app)) == 3, "the other part's keys")
        await wait_for(pilot, lambda: footer.hovered == 2, "x remove lit under the pointer")
        assert footer.tooltip is None  # x has none


async def test_the_wheel_brings_keys_that_do_not_fit_into_sight() -> None:
    app = FooterApp()
    async with app.run_test(size=(20, 12)) as pilot:
        app.query_one("#other").focus()
        await wait_for(pilot, lambda: len(shown(app)) == 3, "the other part's keys")
        assert line(app) == " y copy  j down  x r"  # cut at the edge
        footer = app.query_one(InkFooter)
        for _ in range(3):  # 4 cells a turn, up to the last key
            footer.post_message(wheel(events.MouseScrollDown, footer))
        await wait_for(pilot, lambda: footer.scrolled == 6, "scrolled to the end")
        assert line(app) == "y  j down  x remove "
        footer.post_message(wheel(events.MouseScrollUp, footer))
        await wait_for(pilot, lambda: footer.scrolled == 2, "scrolled back")
        footer.post_message(wheel(events.MouseScrollRight, footer))  # a sideways wheel too
        await wait_for(pilot, lambda: footer.scrolled == 6, "scrolled sideways")
        await pilot.resize_terminal(60, 12)  # every key fits now: none is left cut
        await wait_for(pilot, lambda: line(app).startswith(" y copy  j down  x remove"), "all")
        assert footer.scrolled == 0


def wheel(kind: type[events.MouseEvent], widget: Widget) -> events.MouseEvent:
    """One turn of the wheel over the start of ``widget``."""
    return kind(widget, 1, 0, 0, 1, 0, False, False, False)


def test_the_line_is_laid_out_as_textuals_footer_lays_out_its_keys() -> None:
    """Keys ``" k what "``; one action's second key not shown; a group of keys sharing one
    label ``" j k Move "``; a key without a description alone; the palette's key at the right,
    compact, after a rule."""
    move = Binding.Group("Move")
    shown_bindings = (
        (Binding("enter", "open", "Open"), True, ""),
        (Binding("o", "open", "Open"), True, ""),  # the same action: the first key only
        (Binding("j", "down", "Down", group=move), True, ""),
        (Binding("k", "up", "Up", group=move), False, ""),
        (Binding("z", "zoom", ""), True, ""),
    )
    palette = ((Binding("ctrl+p", "command_palette", "Commands"), True, ""),)
    laid = footer_line(shown_bindings, palette, lambda binding: binding.key)
    assert "".join(piece.text for piece in laid.left) == " enter Open  j k Move z"
    assert "".join(piece.text for piece in laid.right) == "▏ctrl+p Commands "
    assert [(key.key, key.enabled, key.tooltip) for key in laid.keys] == [
        ("enter", True, ""),
        ("j", True, "Down"),  # a grouped key's tooltip: what it does
        ("k", False, "Up"),
        ("z", True, ""),
        ("ctrl+p", True, "Commands"),
    ]
    assert [piece.part for piece in laid.right] == [
        Part.BORDER,
        Part.KEY,
        Part.DESCRIPTION,
        Part.PAD,
    ]
    assert (laid.left_width, laid.right_width) == (23, 17)
