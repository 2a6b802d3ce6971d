"""Playback in the session view: the branch played back as it happened (``p``).

:class:`SessionPlayback` is the session screen's part that plays: it builds the plan in a thread
(:func:`ink_tui.session.analysis.playback.build_plan` reads every record of the branch), then plays
it against the app's clock (:func:`ink_tui.ui.options.app_now`, pinned by tests) with a
:class:`~ink_tui.session.analysis.playclock.Playback`. A Textual interval looks at the clock every
:data:`~ink_tui.session.analysis.playclock.STREAM_TICK` seconds while playing (never a sleep): what
shows changed, the :class:`PlaybackBar` is drawn again, and a record starting moves the tree and the
replay to its row (:class:`SessionPlayback.Moved`, which the screen turns into ``reveal``).

Playback starts from the turn holding the tree's cursor (``g`` first: from the start), and plays at
most :data:`~ink_tui.session.analysis.playback.PLAN_LIMIT` records (at the end, ``p`` closes the bar
and ``p`` again plays on from the turn reached). Its keys only act while it plays: Space pauses or
resumes, ``.`` steps one record (pausing), ``+``/``-`` change the speed (1, 2, 5, 10, 20, 50x),
``i`` skips idle gaps or not, ``p`` or Esc stops.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import getters, on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ink_tui.logs import unforeseen
from ink_tui.session.analysis.playback import Plan, build_plan, turn_entry
from ink_tui.session.analysis.playclock import STREAM_TICK, Playback
from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.reading.errors import SessionError
from ink_tui.ui.options import app_now
from ink_tui.ui.session_view.playback_bar import PlaybackBar

__all__ = ["SessionPlayback"]


class SessionPlayback(Widget):
    """Plays the shown branch back; owns the plan, the player, the ticker and the bar."""

    DEFAULT_CSS = """
    SessionPlayback { height: auto; display: none; }
    SessionPlayback.-playing { display: block; }
    """

    @dataclass
    class Moved(Message):
        """Playback reached row ``key``: the tree's cursor and the replay go to it."""

        playback: SessionPlayback
        key: str

    @dataclass
    class Built(Message):
        """The plan is ready (from the thread that built it)."""

        plan: Plan

    @dataclass
    class Failed(Message):
        """The plan could not be built: one line saying why."""

        line: str

    bar = getters.query_one(PlaybackBar)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.player: Playback | None = None
        self._ticker: Timer | None = None
        self._shown: tuple[object, ...] = ()  # what the bar last drew
        self._at: int | None = None  # the record whose row the view was last moved to
        self._building = False
        self._loaded: LoadedBranch | None = None  # the branch played

    def compose(self) -> ComposeResult:
        yield PlaybackBar(id="playback-bar")

    @property
    def active(self) -> bool:
        """Playing (or paused, or finished but still shown), or its plan being built."""
        return self.player is not None or self._building

    # -- starting and stopping -----------------------------------------------------------------

    def toggle(self, loaded: LoadedBranch | None, cursor_key: str | None) -> None:
        """``p``: stop when playing, else play ``loaded`` from the turn of ``cursor_key``."""
        if self.active:
            self.stop()
            return
        if loaded is None or loaded.partial:
            self.notify("playback waits for the whole branch to be read", severity="warning")
            return
        if not loaded.entries:
            self.notify("nothing to play back: the branch is empty", severity="warning")
            return
        self._building, self._loaded = True, loaded
        self._build(loaded, cursor_key, None)

    @work(thread=True, exclusive=True, group="playback")
    def _build(self, loaded: LoadedBranch, cursor_key: str | None, first: int | None) -> None:
        """The plan from the turn of ``cursor_key``, or (playing on) from position ``first``."""
        try:
            if first is None:
                first = turn_entry(loaded.entries, loaded.turns, cursor_key or "")
            plan = build_plan(loaded.session, loaded.entries, loaded.turns, first=first)
        except SessionError as error:
            self.post_message(self.Failed(error.one_line()))
        except Exception as error:  # a bug: logged, said in one line
            self.post_message(self.Failed(unforeseen(error, "building the playback plan")))
        else:
            self.post_message(self.Built(plan))

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self._building = False
        self.notify(message.line, severity="error", timeout=8)

    @on(Built)
    def _built(self, message: Built) -> None:
        if not self._building:
            return  # stopped meanwhile
        self._building = False
        before = self.player  # playing on: the next part, at the same speed, paused if it was
        speed, skip_idle = (before.speed, before.skip_idle) if before else (1.0, True)
        player = Playback(message.plan, lambda: app_now(self), speed=speed, skip_idle=skip_idle)
        if before is not None and before.paused:
            player.pause()
        self.player = player
        self._at = None
        self.add_class("-playing")
        self.refresh_bindings()  # the playback keys work now: help and palette list them
        self._run_ticker()
        self.tick()

    def stop(self) -> None:
        """Stop playing and hide the bar (the view stays where playback left it)."""
        self._building = False
        self.player = self._loaded = None
        self._stop_ticker()
        self.remove_class("-playing")
        self._shown = ()
        if self.is_attached:
            self.refresh_bindings()  # the playback keys are off again

    def on_unmount(self) -> None:
        self._stop_ticker()

    def _run_ticker(self) -> None:
        if self._ticker is None:
            self._ticker = self.set_interval(STREAM_TICK, self.tick)

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    # -- playing -----------------------------------------------------------------------------

    def tick(self) -> None:
        """Look at the clock: draw what changed, move the view to a record that started."""
        player = self.player
        if player is None:
            return
        frame = player.frame()
        records = player.plan.records
        at = min(frame.index, len(records) - 1)
        if at != self._at:
            self._at = at
            shown_at = next((i for i in range(at, -1, -1) if records[i].keys), None)
            if shown_at is not None:  # the record's row (or the last one before with a row)
                self.post_message(self.Moved(self, records[shown_at].keys[0]))
        record = records[at]
        shown = (
            frame.index,
            len(frame.shown_text(record)) if not frame.finished else -1,
            int(frame.position),
            player.paused,
            player.speed,
            player.skip_idle,
        )
        if shown != self._shown:
            self._shown = shown
            self.bar.show(player, frame)
        plan = player.plan
        after = plan.first + len(records)
        if frame.finished and after < plan.branch_length and not self._building and self._loaded:
            self._building = True  # the part is over, not the branch: play on
            self._build(self._loaded, None, after)
        if player.next_wake() is None:
            self._stop_ticker()  # paused or over: nothing moves until a key
        else:
            self._run_ticker()

    @property
    def playing(self) -> bool:
        """Whether a plan plays (or is paused, or finished but still shown): its keys work."""
        return self.player is not None

    def toggle_pause(self) -> None:
        """Space while playing: pause, or play on."""
        if self.player is not None:
            self.player.toggle_pause()
            self.tick()

    def step(self) -> None:
        """``.``: one record on (paused)."""
        if self.player is not None:
            self.player.step()
            self.tick()

    def change_speed(self, delta: int) -> None:
        """``+`` (``delta`` 1) and ``-`` (-1): the next speed up or down."""
        if self.player is not None:
            self.player.change_speed(delta)
            self.tick()

    def toggle_skip_idle(self) -> None:
        """``i``: skip idle gaps, or play them as they were."""
        if self.player is not None:
            self.player.toggle_skip_idle()
            self.tick()
