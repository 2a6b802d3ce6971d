"""``ink-tui secrets [SESSION | --all | --machines] [--json]``: the secrets audit
(:mod:`ink_tui.catalog.secretsaudit`).

Without a SESSION, every session of this project (``--all``: of every project; ``--machines``:
of every mirrored machine too), subagent sessions included. The text lists each session that
holds secrets, by kind, then each finding (entry, field, kind, fingerprint), and a last line
of totals; ``--json`` is one array of findings. A secret itself is never printed: its kind and
fingerprint say what and which. A progress bar shows on a terminal. Exit 0: none; 1: some.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.output import SafeOutput
from ink_tui.safetext import one_line

if TYPE_CHECKING:
    from ink_tui.catalog.secretsaudit import SessionSecrets

__all__ = ["add_arguments", "run"]

EXIT_NONE, EXIT_SOME = 0, 1


def add_arguments(secrets: argparse.ArgumentParser) -> None:
    """``secrets [SESSION | --all | --machines] [--json]``."""
    secrets.description = (
        "Find the secrets in sessions (API keys and tokens of 60 services, private keys, "
        "passwords under their keys, credentials in URLs and command-line flags), each with "
        "its session, entry, field, kind and fingerprint; the secret itself is never printed. "
        "Exit 0 when there is none, 1 when there are some."
    )
    secrets.add_argument(
        "session", nargs="?", metavar="SESSION", help="path, id, id prefix or file name"
    )
    scope = secrets.add_mutually_exclusive_group()
    scope.add_argument("--all", action="store_true", help="every project of this machine")
    scope.add_argument(
        "--machines", action="store_true", help="every project here and on every mirrored machine"
    )
    secrets.add_argument("--json", action="store_true", help="one JSON array of the findings")


@contextlib.contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr (a terminal only), as ``advance(done, total)``."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    bar = Progress(
        "auditing", BarColumn(), DownloadColumn(), TimeRemainingColumn(),
        console=Console(file=sys.stderr), transient=True,
    )  # fmt: skip
    with bar:
        task = bar.add_task("auditing", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui secrets …``: exit 0 none found, 1 some, 2 a SESSION that is not there."""
    from ink_tui.catalog.roots import Root, resolve_anywhere
    from ink_tui.catalog.secretsaudit import audit_files, files_of
    from ink_tui.paths import mirrored_machine

    if args.session is not None and (args.all or args.machines):
        from ink_tui.cli.output import CommandError

        raise CommandError("secrets: give a SESSION or --all / --machines, not both")
    if args.session is not None:
        path = resolve_anywhere(base, cwd, args.session)
        files = [(path, mirrored_machine(path), path.stat().st_size)]
    else:
        roots = [Root(base)]
        if args.machines:
            from ink_tui.archive.machines import readable_mirrors

            mirrors, notice = readable_mirrors()
            if notice:
                SafeOutput(sys.stderr).line(f"ink-tui: {notice}")
            roots += mirrors
        files = files_of(roots, None if args.all or args.machines else cwd)
    with _progress(sys.stderr.isatty() and len(files) > 1) as advance:
        sessions = list(audit_files(files, progress=advance))
    if args.json:
        out.json([finding.to_json() for s in sessions for finding in s.findings])
    else:
        _report(sessions, out)
    return EXIT_SOME if any(s.findings for s in sessions) else EXIT_NONE


def _report(sessions: list[SessionSecrets], out: SafeOutput) -> None:
    from ink_tui.catalog.secretsaudit import kinds_sentence
    from ink_tui.humanize import plural

    err = SafeOutput(sys.stderr)
    found = [s for s in sessions if s.findings]
    for session in sessions:
        if session.unreadable:
            err.line(f"ink-tui: {one_line(str(session.file))}: {one_line(session.unreadable)}")
    for session in found:
        where = f"{session.machine}:" if session.machine else ""
        out.line(f"{where}{one_line(str(session.file))}")
        out.line(f"  {plural(len(session.findings), 'secret')}: {kinds_sentence(session.findings)}")
        for finding in session.findings:
            out.line(
                f"    {one_line(finding.entry_id)}  {one_line(finding.field)}  "
                f"{finding.kind}  {finding.fingerprint}"
            )
    total = [finding for s in found for finding in s.findings]
    if not total:
        out.line(f"no secret found in {plural(len(sessions), 'session')}")
        return
    distinct = len({finding.fingerprint for finding in total})
    out.line(
        f"{plural(len(total), 'secret')} ({distinct} distinct) in {len(found)} of "
        f"{plural(len(sessions), 'session')}: {kinds_sentence(total)}"
    )
