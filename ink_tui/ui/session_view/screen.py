"""The session view's screen: :class:`~.routes.SessionRoutes` (its parts and the routes between
them) with its keys (:data:`~.keys.SCREEN_KEYS`), each a typed action calling the part that does
the job, with what it needs as arguments.

The tree's keys are the tree's own; the screen binds its moves again for when the tree has not
the focus (Tab gives it to the replay; a narrow view hides the tree). Following, playback, the
search's keys and the replay's display options are the screen's because those parts never take
the focus (:mod:`.keys` says why each key is where it is).
"""

from __future__ import annotations

from ink_tui.ui.keys import typing_focused
from ink_tui.ui.messages import GoBack, OpenChat
from ink_tui.ui.screens.changes import Jump
from ink_tui.ui.session_view import opens
from ink_tui.ui.session_view.keys import PLAYBACK_ACTIONS, SCREEN_KEYS, TYPING_OFF
from ink_tui.ui.session_view.loader import loading_note
from ink_tui.ui.session_view.replay import shown_text
from ink_tui.ui.session_view.routes import EARLIER_PLACEHOLDER, NARROW_BELOW, SessionRoutes

__all__ = ["EARLIER_PLACEHOLDER", "NARROW_BELOW", "SessionScreen"]


class SessionScreen(SessionRoutes):
    """One session, read-only, and its keys."""

    BINDINGS = SCREEN_KEYS

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Whether a key works now (the footer, the help and the palette show only those)."""
        if action == "toggle_tree":  # only a narrow view hides the tree
            return self.has_class("-narrow")
        if action in PLAYBACK_ACTIONS:  # only while playing back (Space opens a row otherwise)
            return self.is_mounted and self.playback.playing
        if action in TYPING_OFF:  # Home, End and / in the query line are the line's
            return not typing_focused(self)
        return True

    # -- the tree's moves, for when the tree has not the focus (see .keys) ----------------------

    def action_down(self) -> None:
        self.session_tree.action_down()

    def action_up(self) -> None:
        self.session_tree.action_up()

    def action_previous_turn(self) -> None:
        self.session_tree.action_previous_turn()

    def action_next_turn(self) -> None:
        self.session_tree.action_next_turn()

    def action_expand(self) -> None:
        self.session_tree.action_expand()

    def action_collapse(self) -> None:
        self.session_tree.action_collapse()

    def action_toggle_row(self) -> None:
        self.session_tree.action_toggle_row()

    def action_to_start(self) -> None:
        """``g``: the branch's first row (moving away from the end pauses following)."""
        self.live.pause()
        self.panes.to_edge(bottom=False)

    def action_to_end(self) -> None:
        """``G``: the branch's last row; following, back to the end and on."""
        if self.live.following:
            self.action_resume()
        else:
            self.panes.to_edge(bottom=True)

    def action_toggle_tree(self) -> None:
        """``v`` (narrow): show or hide the tree above the replay."""
        self.toggle_class("-tree-toggled")
        self.call_after_refresh(self.focus_view)

    def action_tree_width(self, delta: int) -> None:
        """ctrl+← / ctrl+→: the tree 5 % narrower or wider (kept for the next session views)."""
        if not self.has_class("-narrow"):
            self.panes.split.nudge(delta)

    def action_search(self) -> None:
        self.search.open(after=self._cursor_row())

    def action_next_match(self, delta: int) -> None:
        """``n`` / ``N``: the first match after the cursor's row, or the last before it."""
        self.search.step(delta, after=self._cursor_row())

    def action_toggle_thinking(self) -> None:
        self.transcript.toggle_thinking()

    def action_cycle_output(self) -> None:
        self.transcript.cycle_output()

    def action_copy(self) -> None:
        """``y``: the copy menu, the picker's with the cursor's row first as the replay shows it
        (bash colours and other escape codes left out); Ink's ``/copy`` takes the branch shown."""
        loaded, row = self.loaded, self._cursor_row()
        if loaded is not None:
            message = shown_text(loaded.turns, row) if row is not None else None
            session_id = str(loaded.session.header.get("id", ""))
            self.keeper.copy(session_id, self.path, message, loaded.leaf_id)  # /copy: this branch

    def action_rename(self) -> None:
        if self.loaded is not None:
            self.keeper.rename(self.path, self.loaded.header.get("name", ""))

    def action_label(self) -> None:
        """``L``: label the entry of the cursor's row (the keeper asks, then writes)."""
        loaded = self.loaded
        if loaded is None:
            return
        entry_id = opens.label_target(loaded, self._cursor_row())
        if entry_id is None:
            self.notify("this row shows no entry to label", severity="warning", timeout=3)
            return
        self.keeper.label(self.path, entry_id, loaded.labels.get(entry_id, ""))

    def action_branches(self) -> None:
        """``b``: a branch chosen there opens in a session view of its own."""
        if self.loaded is not None:
            opens.open_branches(self.app, self.loaded, self._open_branch)

    def action_ink_tree(self) -> None:
        """``I``: Ink's ``/tree`` of the whole file; an entry chosen there opens its branch in a
        session view of its own."""
        opens.open_ink_tree(self.app, self.path, self._open_branch)

    def _open_branch(self, leaf_id: str) -> None:
        self.app.push_screen(SessionScreen(self.path, leaf_id))

    def action_timeline(self) -> None:
        """``T``: Enter on a turn there shows it here."""
        if self.loaded is not None:
            key = self.session_tree.cursor_key
            turn = self.session_tree.model.turn_of_row(key) if key else None
            opens.open_timeline(self.app, self.loaded.turns, turn or "", self.reveal)

    def action_changes(self) -> None:
        """``D``: the row chosen there is shown here (and ``D`` again goes on from it)."""
        if self.loaded is not None:
            opens.open_changes(self.app, self.path, self.loaded, self.last_jump, self._jumped)

    def _jumped(self, jump: Jump) -> None:
        self.last_jump = jump
        self.live.pause()
        self.reveal(jump.row_key)

    def action_export(self) -> None:
        if self.loaded is not None:
            opens.open_export(self.app, self.path, self.loaded)

    def action_secrets(self) -> None:
        """The secrets the session holds, masked (Enter: the record, in a view over the list)."""
        from ink_tui.ui.screens.secrets import SecretsScreen

        self.app.push_screen(SecretsScreen(self.path, self.session_title()))

    def action_chat(self) -> None:
        """``c``: go on in the chat pane, from the leaf or (asked) from the cursor's row."""
        if self.loaded is not None:
            number = self.session_tree.turn_number
            opens.ask_where_to_continue(
                self.app, self.loaded, self._cursor_row(), number, self._continue_from
            )

    def _continue_from(self, leaf_id: str | None) -> None:
        self.live.stop_watching()
        self.post_message(OpenChat(self.path, leaf_id))

    def action_toggle_follow(self) -> None:
        if self.live.following:
            self.live.stop()
            self.notify("following stopped", timeout=2)
        elif self._reading:  # following part of the branch would miss the rest: wait for it
            self._follow_after_load = not self._follow_after_load
            self.status.say(loading_note(self.loaded, following=self._follow_after_load), "load")
        else:
            self._start_following()
            self.notify("following: new records appear as Ink writes them", timeout=3)

    def action_resume(self) -> None:  # to the end; following goes on if it was paused
        self.live.resume()
        self.jump_to_end()

    def action_switch_newer(self) -> None:
        self.live.switch_newer()

    def action_play(self) -> None:
        """``p``: play the branch back from the cursor's turn, or stop playing."""
        self.live.pause()  # following would jump to the end under the playback
        self.playback.toggle(self.loaded, self.session_tree.cursor_key)

    def action_pause_playback(self) -> None:
        self.playback.toggle_pause()

    def action_step_playback(self) -> None:
        self.playback.step()

    def action_playback_speed(self, delta: int) -> None:
        self.playback.change_speed(delta)

    def action_skip_idle(self) -> None:
        self.playback.toggle_skip_idle()

    def action_back(self) -> None:
        """Esc: close the search line, else stop playing back, else back."""
        if self.search.is_open:
            self.search.action_close()
        elif self.playback.active:
            self.playback.stop()
        else:
            self.live.stop_watching()
            self.post_message(GoBack())
