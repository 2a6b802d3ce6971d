"""The footer alone (ui/widgets/footer.py), in a small app: it shows the keys of the focused
part, follows a key turned off or on and a focus move to a part with other keys, and a focus
move that changes no shown key leaves its keys as they are (nothing rebuilt)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from waiting import wait_for

from ink_tui.ui.widgets.footer import InkFooter


class Pane(Widget, can_focus=True):
    """A focusable part with the keys its class binds; ``copying`` turns ``y`` off."""

    DEFAULT_CSS = "Pane { height: 3; }"
    BINDINGS = [Binding("y", "copy", "copy"), Binding("j", "down", "down")]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id)
        self.copying = True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "copy" and not self.copying else True

    def action_copy(self) -> None:
        pass

    def action_down(self) -> None:
        pass


class Other(Pane):
    BINDINGS = [Binding("x", "remove", "remove")]

    def action_remove(self) -> None:
        pass


class FooterApp(App[None]):
    ENABLE_COMMAND_PALETTE = False

    def compose(self) -> ComposeResult:
        yield Pane(id="first")
        yield Pane(id="second")
        yield Other(id="other")
        yield InkFooter()


def shown(app: FooterApp) -> list[str]:
    """The footer's keys as shown: ``key description`` (``(off)`` when disabled)."""
    keys = app.query_one(InkFooter).query("FooterKey")
    return [
        f"{key.key} {key.description}" + (" (off)" if key.has_class("-disabled") else "")
        for key in keys
    ]


async def test_the_footer_shows_the_focused_parts_keys_and_follows_focus() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        app.query_one("#first").focus()
        await wait_for(pilot, lambda: shown(app) == ["y copy", "j down"], "the first part's keys")
        app.query_one("#other").focus()
        await wait_for(
            pilot, lambda: shown(app) == ["y copy", "j down", "x remove"], "the other part's keys"
        )


async def test_a_key_turned_off_and_on_again_is_shown_so() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        first = app.query_one("#first", Pane)
        first.focus()
        await wait_for(pilot, lambda: shown(app) == ["y copy", "j down"], "the keys")
        first.copying = False
        first.refresh_bindings()
        await wait_for(pilot, lambda: shown(app) == ["y copy (off)", "j down"], "y off")
        first.copying = True
        first.refresh_bindings()
        await wait_for(pilot, lambda: shown(app) == ["y copy", "j down"], "y on again")


async def test_a_focus_move_that_changes_no_shown_key_rebuilds_nothing() -> None:
    app = FooterApp()
    async with app.run_test(size=(60, 12)) as pilot:
        app.query_one("#first").focus()
        await wait_for(pilot, lambda: shown(app) == ["y copy", "j down"], "the keys")
        before = list(app.query_one(InkFooter).query("FooterKey"))
        for _ in range(3):  # the same keys on the second part: the footer is left as it is
            app.query_one("#second").focus()
            await pilot.pause()
            app.query_one("#first").focus()
            await pilot.pause()
        assert list(app.query_one(InkFooter).query("FooterKey")) == before
        assert shown(app) == ["y copy", "j down"]
