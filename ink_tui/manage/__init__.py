"""Keeping sessions in order: rename, label, delete to the trash and restore, prune orphans.

No Textual here: the command line (:mod:`ink_tui.cli.commands.manage`) and the app's screens
use the same functions. Every write to a session goes through
:class:`~ink_tui.session.writing.writer.SessionWriter` (one whole record, appended, after checking
that nobody else is writing); deleting and pruning only move files, to the trash
(:mod:`ink_tui.manage.trash`), from where they can be restored.
"""
