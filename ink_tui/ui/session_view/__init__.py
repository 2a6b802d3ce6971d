"""The session view: one session's branch as a tree beside its replay, and everything done there.

The screen composes the parts and routes what they say; each part owns its state and its job.

- ``screen`` (:class:`SessionScreen`): the screen's keys, typed actions each calling the part
  that does the job; ``routes``: its parts and the messages routed between them; ``keys``: the
  key tables (which part owns which key, and why some are the screen's).
- ``panes``: the tree and the replay side by side, kept in step over the ``window`` of turns
  they hold (a pure model: which turns, the edges, moving through them); the subagents of
  ``task`` calls shown in place (``children`` reads them, ``child_rows`` makes their rows).
- ``tree``: the branch's tree, a Line-API list; ``tree_rows`` its rows as a pure model (what is
  shown, opened, made when first opened), ``tree_labels`` what each row says, ``tree_draw``
  how a row is drawn; ``edges``: the rows standing for turns outside the window.
- ``replay``: the replay of the rows (a :class:`~ink_tui.ui.widgets.transcript.Transcript`) and
  its display options; ``search``: the ``/`` line and the matches; ``following``: what Ink
  appends, shown as it arrives; ``playback`` and ``playback_bar``: the branch played back;
  ``loader``: reading the session in a thread; ``header``, ``pane_split``: the header, the bar
  sizing the tree; ``opens``: the views the session view opens over itself.

Import the screen from ``ink_tui.ui.session_view.screen`` (this package imports nothing, so a
part can be imported alone).
"""
