"""``main``: the ``ink-tui`` command line, parsed with the one tree of :mod:`ink_tui.cli.parsing`
and run: a command of :mod:`ink_tui.cli.registry`, or the app.

Every failure is one line on stderr naming the file (and line), never a traceback: a
:class:`~ink_tui.cli.output.CommandError` (a usage error too), one of :data:`ONE_LINE_ERRORS`,
an ``OSError`` (its paths and reason), or an error nobody foresaw (logged, named in one line).

Start-up is most of what a command costs (``ink-tui search`` answers in about 10 ms once
running), so nothing is imported here until ``main`` runs, and each command imports what it
needs when it runs: ``index`` and ``search`` never load the context, the writer or the repair,
and no command loads the app (``tests/unit/test_import_hygiene.py`` checks both).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ink_tui.cli.output import CommandError, SafeOutput

__all__ = ["EXIT_FAILED", "EXIT_OK", "ONE_LINE_ERRORS", "main"]

EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED = 0, 2, 130

ONE_LINE_ERRORS = (
    ("ink_tui.catalog.scan", "ResolveError"),
    ("ink_tui.manage.adopting", "AdoptError"),
    ("ink_tui.manage.naming", "NamingError"),
    ("ink_tui.manage.trash", "TrashError"),
    ("ink_tui.session.writing.writer", "ConcurrentWriteError"),
    ("ink_tui.session.writing.writer", "RecordNotWrittenError"),
    ("ink_tui.session.writing.writer", "WriteBlockedError"),
)
"""The failures said in one line besides :class:`CommandError`, by module: a module a command
never imported cannot have raised its error, so none is imported to be caught."""


def _one_line_errors() -> tuple[type[Exception], ...]:
    found: list[type[Exception]] = [CommandError]
    for module, name in ONE_LINE_ERRORS:
        if module in sys.modules:
            found.append(getattr(sys.modules[module], name))
    return tuple(found)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ink-tui`` console script (and ``python -m ink_tui``); returns the
    exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        return _run(arguments)
    except _one_line_errors() as error:
        _error_line(str(error))
        return EXIT_FAILED
    except BrokenPipeError:  # pragma: no cover - `ink-tui list | head`
        return EXIT_OK
    except OSError as error:
        _error_line(_os_error_text(error))
        return EXIT_FAILED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as error:  # a bug: its traceback logged, one line here (or raised)
        if os.environ.get("INK_TUI_DEBUG"):
            raise
        from ink_tui.logs import unforeseen

        _error_line(f"{unforeseen(error, 'ink-tui')}; INK_TUI_DEBUG=1 prints it here")
        return EXIT_FAILED


def _run(argv: Sequence[str]) -> int:
    """Parse the line with the registry's tree and run what it names, under the process's
    collector policy (:mod:`ink_tui.cli.collector`)."""
    import ink_tui.cli.registry as registry
    from ink_tui.cli.collector import process_collector
    from ink_tui.cli.folders import project_cwd, sessions_base
    from ink_tui.cli.parsing import parse

    command, args = parse(argv, registry.APP, registry.COMMANDS)
    with process_collector():
        if command is None:
            return registry.APP.run(args)
        return command.run(args, sessions_base(args), project_cwd(args), SafeOutput(sys.stdout))


def _os_error_text(error: OSError) -> str:
    """``<path>: <reason>`` (``<path> -> <other path>`` for a rename), each path on one line."""
    from ink_tui.safetext import one_line

    reason = error.strerror or str(error)
    names = [name for name in (error.filename, error.filename2) if name is not None]
    if not names:
        return reason
    return " -> ".join(one_line(os.fsdecode(name)) for name in names) + f": {reason}"


def _error_line(text: str) -> None:
    """One line on stderr, through the command line's one door to the terminal. Session text
    and paths inside it are made visible (untrusted), and a line break or tab left in it shows
    as ``␊``/``␉``: nothing can fake a line of output."""
    from ink_tui.safetext import one_line

    SafeOutput(sys.stderr).line(one_line(f"ink-tui: {text}"))
