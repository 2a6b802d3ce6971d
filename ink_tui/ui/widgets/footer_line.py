"""What the footer shows, as one line of pieces: each shown key of the screen's bindings, laid
out as Textual's footer lays out its key widgets (the look the snapshots hold), and the command
palette's key docked at the right.

Pure data: :func:`shown_keys` reads a screen's active bindings; :func:`footer_line` turns them
into :class:`Piece` runs (text, which part of the look, which key); :class:`InkFooter` styles and
draws them (``ui/widgets/footer.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import groupby
from typing import Any

from rich.cells import cell_len
from textual.binding import Binding
from textual.screen import Screen

__all__ = ["FooterLine", "Part", "Piece", "ShownKey", "ShownKeys", "footer_line", "shown_keys"]

ShownKeys = tuple[tuple[Binding, bool, str], ...]
"""Each shown binding with whether it is enabled and its tooltip, in the footer's order."""


class Part(Enum):
    """Which part of the footer's look a piece of text takes."""

    GAP = "gap"  # the footer's own background between keys
    KEY = "key"  # a key, bold in the key colour
    DESCRIPTION = "description"  # what the key does
    LABEL = "label"  # the description shared by a group of keys (``j k Move``)
    BORDER = "border"  # the rule before the command palette's key
    PAD = "pad"  # the space inside a key's own area, outside its text


@dataclass(frozen=True, slots=True)
class ShownKey:
    """One key the footer shows: a click presses ``key``."""

    key: str
    display: str
    description: str
    enabled: bool
    tooltip: str


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of text in one part of the look, inside key ``item`` (an index into
    :attr:`FooterLine.keys`) or between keys (``None``)."""

    text: str
    part: Part
    item: int | None = None


@dataclass(frozen=True, slots=True)
class FooterLine:
    """The keys shown, the pieces laid out from the left, and those docked at the right (the
    command palette's key, drawn over the end of the line)."""

    keys: tuple[ShownKey, ...]
    left: tuple[Piece, ...]
    right: tuple[Piece, ...]

    @property
    def left_width(self) -> int:
        return sum(cell_len(piece.text) for piece in self.left)

    @property
    def right_width(self) -> int:
        return sum(cell_len(piece.text) for piece in self.right)


def shown_keys(screen: Screen[Any], palette_key: str) -> tuple[ShownKeys, ShownKeys]:
    """What a footer on ``screen`` shows: the shown bindings in order, and the command
    palette's binding (bound to ``palette_key``) when there is one."""
    active = screen.active_bindings
    shown = tuple(
        (binding, enabled, tooltip)
        for (_node, binding, enabled, tooltip) in active.values()
        if binding.show
    )
    palette = active.get(palette_key)
    if palette is None:
        return shown, ()
    _node, binding, enabled, tooltip = palette
    return shown, ((binding, enabled, tooltip),)


def footer_line(
    shown: ShownKeys, palette: ShownKeys, key_display: Callable[[Binding], str]
) -> FooterLine:
    """Lay out the keys as Textual's (non-compact) footer does: one key per action (the first
    binding of each), ``" key description "``; keys of one group with more than one action
    share their group's label (``" j k Move "``); the palette's key at the right, compact,
    after a rule (``"▏^p Commands "``)."""
    keys: list[ShownKey] = []
    left: list[Piece] = []

    def add(binding: Binding, enabled: bool, tooltip: str, description: str) -> int:
        keys.append(ShownKey(binding.key, key_display(binding), description, enabled, tooltip))
        return len(keys) - 1

    by_action: dict[str, tuple[Binding, bool, str]] = {}
    for binding, enabled, tooltip in shown:
        by_action.setdefault(binding.action, (binding, enabled, tooltip))
    for group, members in groupby(by_action.values(), lambda shown_one: shown_one[0].group):
        in_group: Sequence[tuple[Binding, bool, str]] = list(members)
        if group is not None and len(in_group) > 1:
            left.append(Piece(" ", Part.GAP))
            for index, (binding, enabled, tooltip) in enumerate(in_group):
                item = add(binding, enabled, tooltip or binding.description, "")
                if index:
                    left.append(Piece(" ", Part.GAP))
                left.append(Piece(keys[item].display, Part.KEY, item))
            left.append(Piece(" ", Part.GAP))
            left.append(Piece(group.description, Part.LABEL))
            left.append(Piece(" ", Part.GAP))
            continue
        for binding, enabled, tooltip in in_group:
            item = add(binding, enabled, tooltip, binding.description)
            if not binding.description:  # the key alone, without its padding
                left.append(Piece(keys[item].display, Part.KEY, item))
                continue
            left.append(Piece(f" {keys[item].display} ", Part.KEY, item))
            left.append(Piece(f"{binding.description} ", Part.DESCRIPTION, item))
    right: list[Piece] = []
    for binding, enabled, _tooltip in palette:
        item = add(binding, enabled, binding.tooltip or binding.description, binding.description)
        right.append(Piece("▏", Part.BORDER, item))
        right.append(Piece(keys[item].display, Part.KEY, item))
        right.append(Piece(f" {binding.description}", Part.DESCRIPTION, item))
        right.append(Piece(" ", Part.PAD, item))
    return FooterLine(tuple(keys), tuple(left), tuple(right))
