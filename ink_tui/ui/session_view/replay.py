"""The session view's replay: the branch's turns and rows as one transcript.

A :class:`~ink_tui.ui.widgets.transcript.Transcript` that knows the view rows: it makes one block
per prompt and per row, renders them with the display options (thinking, tool output, running
calls, thinking opened by a search) and the rows' labels, and renders again exactly the blocks a
change touches. It owns the display options: ``t`` (thinking), ``o`` (tool output: cut, full,
hidden), Enter on a call (its whole output or cut), and what ``y`` copies of a row
(:func:`shown_text`: the row as it is shown).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Final

from rich.console import RenderableType
from rich.text import Text

from ink_tui.session.conversation.rows import find_item, row_text
from ink_tui.session.conversation.view import Item, Turn, TurnChanges
from ink_tui.ui.render.blocks import (
    OutputMode,
    RenderOptions,
    item_block,
    item_is_huge,
    turn_block,
    turn_is_huge,
)
from ink_tui.ui.render.pieces import Pieces
from ink_tui.ui.render.safe import ansi_text, plain
from ink_tui.ui.session_view.edges import EDGE_EARLIER, EDGE_LATER, edge_text
from ink_tui.ui.widgets.transcript import BlockSpec, Transcript

__all__ = ["OUTPUT_CYCLE", "SessionReplay", "shown_text"]

OUTPUT_CYCLE: Final[dict[OutputMode, OutputMode]] = {
    "cut": "full",
    "full": "hidden",
    "hidden": "cut",
}


def shown_text(turns: list[Turn], key: str) -> str:
    """What ``y`` copies: the row's text as the replay shows it (tool output without its
    escape sequences: colours dropped, other controls made visible)."""
    item = find_item(turns, key)
    if item is not None and item.tool is not None:
        head = plain(f"{item.tool.name} {item.tool.key_argument}").plain
        return f"{head}\n{ansi_text(item.tool.output).plain}"
    if item is not None and item.kind == "orphan_result":
        return ansi_text(item.text).plain
    return plain(row_text(turns, key)).plain


def _estimate(text: str) -> int:
    """A cheap guess of a block's height (the real one replaces it once it is rendered)."""
    return min(text.count("\n", 0, 8000), 200) + 2


class SessionReplay(Transcript):
    """The replay of a branch (block keys are the rows' keys, as in the tree)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.options = RenderOptions()
        self._row_labels: dict[str, str] = {}
        self._number: Callable[[Turn], int] = lambda turn: 0
        self._edges = {EDGE_EARLIER: 0, EDGE_LATER: 0}

    def show(
        self,
        turns: list[Turn],
        row_labels: dict[str, str],
        number: Callable[[Turn], int],
        *,
        edges: tuple[int, int] = (0, 0),
    ) -> None:
        """Show these turns (``number`` gives a turn's number), at the end. ``edges``: how many
        turns of the branch come before and after these (a window over a long branch): a block
        at each end that has some says so."""
        self._row_labels, self._number = row_labels, number
        self._edges = {EDGE_EARLIER: edges[0], EDGE_LATER: edges[1]}
        specs = self._blocks(turns)
        if edges[0]:
            specs.insert(0, BlockSpec(EDGE_EARLIER, partial(self._render_edge, EDGE_EARLIER), 1))
        if edges[1]:
            specs.append(BlockSpec(EDGE_LATER, partial(self._render_edge, EDGE_LATER), 1))
        self.set_blocks(specs)
        self.scroll_to_end_of_transcript()

    def set_edges(self, earlier: int, later: int) -> None:
        """The counts of turns before and after the window changed (turns arrived)."""
        self._edges = {EDGE_EARLIER: earlier, EDGE_LATER: later}
        self.refresh_block(EDGE_EARLIER)
        self.refresh_block(EDGE_LATER)

    def _render_edge(self, edge: str) -> Text:
        return Text(edge_text(edge, self._edges[edge]), "dim italic")

    def grow(self, changes: list[TurnChanges]) -> None:
        """Turns and rows that arrived while following; calls that got their result."""
        specs: list[BlockSpec] = []
        for change in changes:
            for item in change.answered:
                self.refresh_block(item.key)
            for turn in change.new_turns:
                specs.extend(self._blocks([Turn(turn.user)]))
            specs.extend(self._item_spec(item) for _turn, item in change.new_items)
        self.append_blocks(specs)

    def set_options(self, options: RenderOptions) -> None:
        """The display options changed: render every block again."""
        self.options = options
        self.invalidate()

    def toggle_thinking(self) -> None:
        """``t``: show or hide thinking (the thinking a search opened closes again)."""
        shown = not self.options.show_thinking
        self.set_options(replace(self.options, show_thinking=shown, thinking_open=frozenset()))
        self.notify("thinking shown" if shown else "thinking hidden", timeout=2)

    def cycle_output(self) -> None:
        """``o``: tool output cut, full, hidden (the calls opened one by one close again)."""
        mode = OUTPUT_CYCLE[self.options.output]
        self.set_options(replace(self.options, output=mode, expanded=frozenset()))
        self.notify(f"tool output: {mode}", timeout=2)

    def toggle_full_output(self, item: Item) -> None:
        """Enter on a tool call: its whole output, or cut again."""
        if item.tool is not None:
            expanded = frozenset(self.options.expanded ^ {item.key})
            self.set_options(replace(self.options, expanded=expanded))

    def set_row_labels(self, row_labels: dict[str, str], changed: set[str]) -> None:
        self._row_labels = row_labels
        for key in changed:
            self.refresh_block(key)

    def set_running(self, running: dict[str, float], now: float, changed: set[str]) -> None:
        """Calls still waiting for their result (key -> start), at ``now`` on the app's clock."""
        self.options = replace(self.options, running=running, now=now)
        for key in changed:
            self.refresh_block(key)

    def open_match(self, item: Item, query: str) -> None:
        """Show the part of row ``item`` a search for ``query`` found, were it hidden: thinking,
        or a tool's output (it may be past the cut, or hidden)."""
        if item.kind == "thinking":
            self.open_thinking(item.key)
        elif item.tool is not None and query.casefold() in item.tool.output.casefold():
            self.open_output(item.key)

    def open_thinking(self, key: str) -> None:
        """Show the thinking of row ``key`` although thinking is hidden (a search found it)."""
        if not self.options.show_thinking and key not in self.options.thinking_open:
            opened = frozenset(self.options.thinking_open | {key})
            self.options = replace(self.options, thinking_open=opened)
            self.refresh_block(key)

    def open_output(self, key: str) -> None:
        """Show the whole output of tool row ``key`` (a search found text in it)."""
        if self.options.output != "full" and key not in self.options.expanded:
            expanded = frozenset(self.options.expanded | {key})
            self.options = replace(self.options, expanded=expanded)
            self.refresh_block(key)

    def _blocks(self, turns: list[Turn]) -> list[BlockSpec]:
        specs: list[BlockSpec] = []
        for turn in turns:
            if turn.user is not None:
                render = partial(self._render_turn, turn)
                estimate = _estimate(turn.prompt)
                specs.append(BlockSpec(turn.key, render, estimate, huge=turn_is_huge(turn)))
            specs.extend(self._item_spec(item) for item in turn.items)
        return specs

    def _item_spec(self, item: Item) -> BlockSpec:
        estimate = _estimate(item.text) if item.tool is None else 6
        render = partial(self._render_item, item)
        return BlockSpec(item.key, render, estimate, huge=item_is_huge(item))

    def _render_turn(self, turn: Turn) -> RenderableType | Pieces:
        return turn_block(turn, self._number(turn), self._row_labels.get(turn.key))

    def _render_item(self, item: Item) -> RenderableType | Pieces | None:
        return item_block(item, self.options, self._row_labels.get(item.key))
