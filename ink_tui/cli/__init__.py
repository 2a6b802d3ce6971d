"""The ``ink-tui`` command line: the app by default, and a command per job.

- :mod:`~ink_tui.cli.entry`: ``main``, the console script (``python -m ink_tui`` too): parse,
  run, every failure in one line.
- :mod:`~ink_tui.cli.registry`: the commands, one list (name, one-line help, arguments, run);
  the parser tree, ``--help`` and the dispatch are built from it.
- :mod:`~ink_tui.cli.app`: the default command, the full-screen app (the ui is imported when it
  runs, never before).
- :mod:`~ink_tui.cli.commands`: one module per command (or per small family).
- :mod:`~ink_tui.cli.parsing`: the parser tree, its help and the global options.
- :mod:`~ink_tui.cli.folders`: the sessions folder, the project and the demo sessions.
- :mod:`~ink_tui.cli.output`: :class:`~ink_tui.cli.output.SafeOutput`, the one door to the
  terminal, and one-line errors.

Importing the package loads only the entry point and the output: ``main`` loads the tree and
what the line needs when it runs.
"""

from ink_tui.cli.entry import main

__all__ = ["main"]
