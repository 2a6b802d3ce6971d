"""Follow mode of the session view: what Ink appends appears at once, without a reload.

A mixin of :class:`~ink_tui.ui.screens.session.SessionScreen` (it uses that screen's widgets and
its ``loaded`` branch). The :class:`~ink_tui.ui.follow.Follower` reads in a thread; the handlers
here extend the tree and the transcript in place. Moving away from the end pauses following (a
counter shows what arrived meanwhile); ``F`` or End jumps back and resumes.
"""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from textual.screen import Screen
from textual.timer import Timer

from ink_tui.session.branchview import LoadedBranch
from ink_tui.session.tree import labels
from ink_tui.session.view import TurnChanges
from ink_tui.ui.follow import Arrived, Follower, NewerSession
from ink_tui.ui.render.blocks import RenderOptions
from ink_tui.ui.widgets.session_header import SessionHeader
from ink_tui.ui.widgets.session_tree import SessionTree
from ink_tui.ui.widgets.transcript import BlockSpec, Transcript

__all__ = ["LiveFollowing"]

STALE_CALL_SECONDS = 3600  # an unanswered call older than this is shown as interrupted


def _epoch(timestamp: Any) -> float | None:
    try:
        return datetime.fromisoformat(str(timestamp).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class LiveFollowing(Screen[None]):
    """Follow-mode state and handlers: the base of the session screen."""

    loaded: LoadedBranch | None
    options: RenderOptions
    following: bool
    paused: bool
    unseen: int
    last_write: float | None
    newer_session: Path | None
    _follower: Follower | None
    _ticker: Timer | None
    _follow_requested: bool

    # Provided by the session screen.
    def reload(self, leaf_id: str | None = None) -> None:
        raise NotImplementedError

    def blocks_for(self, changes: list[TurnChanges]) -> list[BlockSpec]:
        raise NotImplementedError

    def _status(self, text: str) -> None:
        raise NotImplementedError

    def init_following(self, follow: bool) -> None:
        self.following = False
        self.paused = False
        self.unseen = 0
        self.last_write = None
        self.newer_session = None
        self._follower = None
        self._ticker = None
        self._follow_requested = follow

    # -- starting and stopping ---------------------------------------------------------------

    def start_following(self) -> None:
        loaded = self.loaded
        if loaded is None:
            return
        session = loaded.session
        if not session.ends_with_newline or session.dropped_final_line is not None:
            # The last line is still being written: reopen without it, then follow.
            self._follow_requested = True
            self.reload()
            return
        self.stop_following()
        self._follower = Follower(self, session)
        self._follower.start()
        self.following, self.paused, self.unseen = True, False, 0
        self._ticker = self.set_interval(1.0, self._tick)
        self._refresh_running()
        self._show_header()
        self.jump_to_end()

    def stop_watching(self) -> None:
        """Stop the watcher thread and the ticker (no widget is touched)."""
        if self._follower is not None:
            self._follower.stop()
            self._follower = None
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def stop_following(self) -> None:
        self.stop_watching()
        self.following = False
        self.paused = False
        self._refresh_running()
        self._show_header()

    def action_toggle_follow(self) -> None:
        if self.following:
            self.stop_following()
            self.notify("following stopped", timeout=2)
        else:
            self.start_following()
            self.notify("following: new records appear as Ink writes them", timeout=3)

    def action_resume(self) -> None:
        """Jump to the end; resume following if it was paused."""
        if self.following:
            self.paused = False
            self.unseen = 0
            self._status("")
        self.jump_to_end()

    def jump_to_end(self) -> None:
        tree = self.query_one("#session-tree", SessionTree)
        transcript = self.query_one("#transcript", Transcript)
        transcript.scroll_to_end_of_transcript()
        if tree.root.children:
            last_turn = tree.root.children[-1]
            tree.open_node(last_turn)
            target = last_turn.children[-1] if last_turn.children else last_turn
            tree.reveal(target)

    def pause_following(self) -> None:
        """The user moved away from the end: keep the view still."""
        if self.following and not self.paused:
            self.paused = True
            self._status("following paused: F or End to jump back")

    # -- what arrived --------------------------------------------------------------------------

    def on_arrived(self, message: Arrived) -> None:
        self._apply_arrival(message)

    def _apply_arrival(self, message: Arrived) -> None:
        update = message.update
        loaded = self.loaded
        if loaded is None:
            return
        if update.reset is not None:
            self.notify(f"{update.reset}: reading it again from the start", severity="warning")
            self._follow_requested = True
            self.stop_following()
            self.reload()
            return
        for problem in update.problems:
            self.notify(
                f"line {problem.line} is not a valid record: {problem.reason}",
                severity="error",
                timeout=10,
            )
        self.last_write = time.time()
        session = loaded.session
        extension = loaded.extension_to(session.leaf_id)
        if extension is None:
            self.notify("Ink moved to another branch (/fork or /tree): showing it", timeout=6)
            self._follow_requested = True
            self.stop_following()
            self.reload(leaf_id=session.leaf_id)
            return
        if extension:
            self.apply_changes(loaded.extend(extension))
        else:
            loaded.refresh_facts()
        if any(entry.type == "label" for entry in update.entries):
            old, loaded.labels = loaded.labels, labels(session)  # file-wide, never on the branch
            changed = {
                key
                for key in old.keys() | loaded.labels.keys()
                if old.get(key) != loaded.labels.get(key)
            }
            tree = self.query_one("#session-tree", SessionTree)
            tree.relabel(loaded.labels, only=changed)
        self._refresh_running()
        self._show_header()
        if self.paused:
            self.unseen += len(update.entries) + len(update.markers)
            self._status(f"{self.unseen} new record(s) while paused: F or End to jump back")
        else:
            self.jump_to_end()

    def apply_changes(self, changes: list[TurnChanges]) -> None:
        """Show new turns and rows, and tool calls that got their result."""
        tree = self.query_one("#session-tree", SessionTree)
        transcript = self.query_one("#transcript", Transcript)
        assert self.loaded is not None
        with tree.bulk():
            for change in changes:
                for turn in change.new_turns:
                    tree.add_turn(turn, self.loaded.labels)
                for turn, item in change.new_items:
                    tree.add_item(turn, item)
                for item in change.answered:
                    tree.refresh_item(item)
                    transcript.refresh_block(item.key)
        transcript.append_blocks(self.blocks_for(changes))

    def on_newer_session(self, message: NewerSession) -> None:
        self.newer_session = message.path
        self.notify(
            f"Ink started a newer session in this project ({message.path.name}): s switches to it",
            timeout=15,
        )

    def action_switch_newer(self) -> None:
        if self.newer_session is None:
            self.notify("no newer session in this project", timeout=2)
            return
        from ink_tui.ui.screens.session import SessionScreen

        self.stop_following()
        self.app.switch_screen(SessionScreen(self.newer_session, follow=True))

    # -- running tools and the header ----------------------------------------------------------

    def _running_calls(self) -> dict[str, float]:
        """Unanswered calls of the last turn, with when they started (only while following)."""
        if not self.following or self.loaded is None or not self.loaded.turns:
            return {}
        running: dict[str, float] = {}
        now = time.time()
        for item in self.loaded.turns[-1].items:
            if item.tool is not None and item.tool.result is None:
                started = _epoch(item.entry.record.get("timestamp"))
                if started is not None and now - started > STALE_CALL_SECONDS:
                    continue  # hours old: interrupted long ago, not running
                running[item.key] = started if started is not None else now
        return running

    def _refresh_running(self, *, tick: bool = False) -> None:
        """Mark calls still waiting for their result; on a tick, update their elapsed time."""
        running = self._running_calls()
        if not running and not self.options.running:
            return
        changed = set(running) ^ set(self.options.running)
        self.options = replace(self.options, running=running)
        tree = self.query_one("#session-tree", SessionTree)
        transcript = self.query_one("#transcript", Transcript)
        for key in changed | (set(running) if tick else set()):
            transcript.refresh_block(key)
            tree.refresh_key(key, running)

    def _tick(self) -> None:
        self._refresh_running(tick=True)
        if self.last_write is not None:
            self._show_header()  # "last write Ns ago"

    def _show_header(self) -> None:
        if self.loaded is None:
            return
        header = self.query_one("#session-header", SessionHeader)
        header.show(self.loaded, live=self.following, last_write=self.last_write)
