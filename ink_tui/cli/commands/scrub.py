"""``ink-tui scrub SESSION | --all [--dry-run]``: each secret of a session replaced in place with
``[REDACTED:<kind>:<fingerprint>]`` (:mod:`ink_tui.manage.scrubbing`), the original kept in the
trash first (``ink-tui trash restore ID`` brings it back byte for byte), the index brought up
to date after so that no search finds the secret.

``--all``: every session of this machine (every project) that holds a secret. ``--dry-run``
says what would be replaced and writes nothing. Exit 0: done, or nothing to do; 2: refused
(another machine's session, a writer may be active, a line cut short), said in one line each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ink_tui.cli.output import CommandError, SafeOutput
from ink_tui.safetext import one_line

__all__ = ["add_arguments", "run"]

EXIT_OK, EXIT_REFUSED = 0, 2


def add_arguments(scrub: argparse.ArgumentParser) -> None:
    """``scrub SESSION | --all [--dry-run]``."""
    scrub.description = (
        "Replace each secret in a session with [REDACTED:kind:fingerprint], in place: every "
        "record keeps its ids, parents and pairing, so Ink opens it as before. The original "
        "goes to the trash first (`ink-tui trash restore ID` brings it back). Refused for "
        "another machine's session and for one a writer may be active on."
    )
    scrub.add_argument(
        "session", nargs="?", metavar="SESSION", help="path, id, id prefix or file name"
    )
    scrub.add_argument(
        "--all", action="store_true", help="every session of this machine holding a secret"
    )
    scrub.add_argument("--dry-run", action="store_true", help="say what would be replaced")


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui scrub …``: exit 0 done or nothing to do, 2 refused."""
    from ink_tui.catalog.roots import Root, resolve_anywhere
    from ink_tui.catalog.secretsaudit import files_of
    from ink_tui.manage.scrubbing import ScrubError, scrub_session

    if (args.session is None) == (not args.all):
        raise CommandError("scrub: give a SESSION or --all")
    if args.all:
        paths = [path for path, _, _ in files_of([Root(base)], None)]
    else:
        paths = [resolve_anywhere(base, cwd, args.session)]
    err = SafeOutput(sys.stderr)
    refused = scrubbed = 0
    for path in paths:
        name = one_line(str(path))
        try:
            plan, entry = scrub_session(path, dry_run=args.dry_run)
        except ScrubError as error:
            err.line(f"ink-tui: {one_line(str(error))}")
            refused += 1
            continue
        if not plan.lines:
            if not args.all:
                out.line(f"no secret to scrub in {name}")
            continue
        lines = ", ".join(map(str, plan.lines))
        from ink_tui.humanize import plural

        said = f"{plural(plan.count, 'secret')} ({plan.kinds_sentence()})"
        if args.dry_run:
            out.line(f"would scrub {said} in {name} (lines {lines})")
            continue
        scrubbed += 1
        out.line(f"scrubbed {said} in {name}; the original: `ink-tui trash restore {entry}`")
    if args.all and not scrubbed and not refused and not args.dry_run:
        out.line("no secret to scrub in this machine's sessions")
    if scrubbed:
        _reindex(base, err)
    return EXIT_REFUSED if refused else EXIT_OK


def _reindex(base: Path, err: SafeOutput) -> None:
    """The index brought up to date: the scrubbed files read again, their secrets gone."""
    from ink_tui.catalog.index.fallback import SearchIndex
    from ink_tui.catalog.index.store import IndexUnavailable

    with SearchIndex() as index:
        try:
            index.update(base, None)
        except IndexUnavailable as error:
            err.line(f"ink-tui: the index was not brought up to date: {error}")
