"""``ink-tui replay SESSION``: a branch played back in the terminal, at its own pace.

Each record prints as it happens (:mod:`ink_tui.session.analysis.playback` has the rules): a reply
streams in word by word over the time the model took, a tool result waits as long as the tool
ran, the user's pauses (and any gap over half a minute) are cut short unless ``--no-skip-idle``.
``--speed N`` plays N times faster (1 to 50). Plain text, through :class:`SafeOutput`: session
text is untrusted. When stdout is not a terminal (a pipe, a file), nothing waits: the whole
branch prints at once, as it would at an endless speed. Ctrl-C stops (exit 130).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.output import CommandError, SafeOutput

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ink_tui.session.analysis.playback import Plan, PlayRecord
    from ink_tui.session.analysis.playclock import Playback
    from ink_tui.session.conversation.branchview import LoadedBranch

__all__ = ["add_arguments", "run"]

EXIT_OK, EXIT_INTERRUPTED = 0, 130
INDENT = "    "


class ReplayCommandError(CommandError):
    """A failure to report as one line on stderr (exit 2)."""


def add_arguments(replay: argparse.ArgumentParser) -> None:
    """The ``replay`` command's arguments and description."""
    replay.description = (
        "Prints the branch's records as they happened, from their timestamps: "
        "replies stream in, tool results wait their tool's run time. Idle gaps are cut short "
        "(a wait for the user to 2 s, any other gap to 30 s) unless --no-skip-idle. When "
        "stdout is not a terminal, everything prints at once. Ctrl-C stops."
    )
    replay.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    replay.add_argument(
        "--speed", type=float, default=1.0, metavar="N", help="N times faster, 1 to 50 (1)"
    )
    replay.add_argument(
        "--no-skip-idle", action="store_true", help="wait every gap as long as it was"
    )
    replay.add_argument(
        "--branch", metavar="LEAF_ID", help="the branch ending at this entry (default: the leaf)"
    )


# Seams for tests: the clock, the sleep, and whether stdout is a terminal.
def _clock() -> float:
    return time.monotonic()


def _sleep(seconds: float) -> None:
    time.sleep(seconds)


def _is_terminal(out: SafeOutput) -> bool:
    isatty = getattr(out.stream, "isatty", None)
    return bool(isatty()) if isatty is not None else False


def _load(path: Path, leaf_id: str | None) -> LoadedBranch:
    from ink_tui.session import SessionError, open_session
    from ink_tui.session.conversation.branchview import load_branch
    from ink_tui.session.conversation.tree import entry_named

    try:
        session = open_session(path, warn=SafeOutput(sys.stderr).as_textio())
        return load_branch(session, None if leaf_id is None else entry_named(session, leaf_id))
    except SessionError as error:
        raise ReplayCommandError(error.one_line()) from None


def _plans(loaded: LoadedBranch) -> Iterator[Plan]:
    """The branch's plans, one part (:data:`PLAN_LIMIT` records) after the other."""
    from ink_tui.session import SessionError
    from ink_tui.session.analysis.playback import build_plan

    first = 0
    while first < len(loaded.entries):
        try:
            plan = build_plan(loaded.session, loaded.entries, loaded.turns, first=first)
        except SessionError as error:
            raise ReplayCommandError(error.one_line()) from None
        yield plan
        first += len(plan.records)


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui replay SESSION [--speed N] [--no-skip-idle] [--branch LEAF_ID]``."""
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.session.analysis.playclock import SPEEDS, Playback

    if not SPEEDS[0] <= args.speed <= SPEEDS[-1]:
        raise ReplayCommandError(f"--speed must be from 1 to 50, not {args.speed:g}")
    path = resolve_anywhere(base, cwd, args.session)
    loaded = _load(path, args.branch)
    if not loaded.entries:
        out.line(f"{path}: the branch is empty: nothing to replay")
        return EXIT_OK
    err = SafeOutput(sys.stderr)
    paced = _is_terminal(out)
    printer: _Printer | None = None
    try:
        for plan in _plans(loaded):
            if plan.note:
                err.line(f"ink-tui: {plan.note}")
            printer = _Printer(plan, out)
            if paced:
                speed, skip_idle = args.speed, not args.no_skip_idle
                _play(Playback(plan, _clock, speed=speed, skip_idle=skip_idle), printer)
            else:
                printer.upto(len(plan.records))
    except KeyboardInterrupt:
        out.write("\n")
        out.flush()
        at = printer.first + printer.done + 1 if printer is not None else 1
        err.line(f"ink-tui: replay stopped at record {at} of {len(loaded.entries)}")
        return EXIT_INTERRUPTED
    return EXIT_OK


def _play(playback: Playback, printer: _Printer) -> None:
    """Print each record as its time comes, sleeping in between."""
    while True:
        frame = playback.frame()
        printer.upto(frame.index)
        if frame.finished:
            return
        record = playback.plan.records[frame.index]
        if record.stream:
            printer.stream(frame.shown_text(record))
        wake = playback.next_wake()
        if wake is None:  # pragma: no cover - never paused here
            return
        _sleep(wake)


class _Printer:
    """Prints records whole, or a streamed one as it grows (indented, flushed)."""

    def __init__(self, plan: Plan, out: SafeOutput) -> None:
        self.records = plan.records
        self.first = plan.first  # the branch position of the plan's first record
        self.out = out
        self.done = 0  # records printed whole
        self.shown = -1  # characters of record ``done`` printed (-1: not even its head)
        self.fresh_line = True  # the next character printed starts a line

    def _head(self, record: PlayRecord) -> None:
        self.out.write(f"[{record.time_of_day}] {record.head}\n")
        self.shown, self.fresh_line = 0, True

    def _body(self, text: str) -> None:
        """Print more of the body, each line indented (a line's indent once, as it starts)."""
        for number, piece in enumerate(text.split("\n")):
            if number:
                self.out.write("\n")
                self.fresh_line = True
            if piece:
                self.out.write((INDENT if self.fresh_line else "") + piece)
                self.fresh_line = False
        self.shown += len(text)

    def stream(self, shown: str) -> None:
        """The record playing (``self.done``) streams: print what appeared since last time."""
        if self.shown < 0:
            self._head(self.records[self.done])
        self._body(shown[self.shown :])
        self.out.flush()

    def upto(self, index: int) -> None:
        """Print records up to ``index`` (not included) whole."""
        while self.done < index:
            record = self.records[self.done]
            if self.shown < 0:
                self._head(record)
            self._body(record.body[self.shown :])
            if record.body:
                self.out.write("\n")
            self.done += 1
            self.shown = -1
        self.out.flush()
