"""Sync machines into their mirrors: one, or several at once, as the command line and the app
both do it; each machine's outcome is a :class:`~ink_tui.archive.mirrorstate.SyncReport`, never
an exception (an unreachable machine is a report with an ``error``, beside the others)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from ink_tui.archive.machines import Machine
from ink_tui.archive.mirrorstate import SyncReport
from ink_tui.archive.rclone import StoreError
from ink_tui.archive.s3pull import pull_s3
from ink_tui.archive.sshpull import SyncError, pull_ssh
from ink_tui.humanize import human_size

__all__ = ["PARALLEL_SYNCS", "sync_machine", "sync_machines", "sync_sentence"]

PARALLEL_SYNCS: Final = 8  # machines synced at once (each is an ssh connection and an rsync)

Progress = Callable[[int, int], None]  # (bytes done, percent) of one machine's transfer


def sync_machine(machine: Machine, progress: Progress | None = None) -> SyncReport:
    """Pull ``machine`` into its mirror; what went wrong is the report's ``error``."""
    notes: list[str] = []
    pull = pull_ssh if machine.url.scheme == "ssh" else pull_s3
    try:
        report = pull(machine, machine.mirror(), note=notes.append, progress=progress)
    except (SyncError, StoreError, OSError) as error:
        return SyncReport(machine.name, error=str(error), notes=notes)
    report.notes = notes
    return report


def sync_machines(
    machines: Sequence[Machine], progress: Callable[[str, int, int], None] | None = None
) -> list[SyncReport]:
    """Pull every machine, several at once; the reports in the order given. ``progress``
    hears (machine, bytes done, percent) from each transfer as it goes."""

    def one(machine: Machine) -> SyncReport:
        def advance(done: int, percent: int) -> None:
            if progress is not None:
                progress(machine.name, done, percent)

        return sync_machine(machine, advance)

    if len(machines) <= 1:
        return [one(machine) for machine in machines]
    with ThreadPoolExecutor(min(len(machines), PARALLEL_SYNCS)) as pool:
        return list(pool.map(one, machines))


def sync_sentence(report: SyncReport) -> str:
    """``devbox: 3 new, 1 grown, 0 rewritten, 0 gone at the source; 1.2 MB brought over``."""
    if report.error:
        return f"{report.machine}: not synced: {report.error}"
    parts = [
        f"{report.new} new",
        f"{report.grown} grown",
        f"{report.rewritten} rewritten",
        f"{report.gone} gone at the source",
    ]
    return f"{report.machine}: {', '.join(parts)}; {human_size(report.bytes)} brought over"
