"""The picker's sync of every machine (``M``): ``ink-tui sync`` in a worker, its progress for the
status line, one line per machine at the end.

:class:`MachineSync` is a part with nothing to show: its thread worker pulls the machines of the
settings (several at once, :func:`ink_tui.archive.syncing.sync_machines`) and posts
:class:`MachineSync.Progress` as bytes arrive, then :class:`MachineSync.Done`. A sync run from
the command line at the same time is safe: each mirror takes its own lock. It also says
whether any machine is mirrored here (:class:`MachineSync.Mirrors`), which the picker's Tab
needs: that is a look at the disk, so it is done in a worker too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from textual import work
from textual.message import Message
from textual.widget import Widget

from ink_tui.catalog.roots import mirror_roots
from ink_tui.logs import unforeseen

__all__ = ["MachineSync"]


class MachineSync(Widget):
    """Syncs the machines in a worker and posts how it goes (see the module doc)."""

    DEFAULT_CSS = "MachineSync { display: none; }"

    @dataclass
    class Progress(Message):
        """Bytes brought over so far, by machine (only the latest one waiting matters)."""

        done: dict[str, int] = field(default_factory=dict)

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, MachineSync.Progress)

    @dataclass
    class Done(Message):
        """The sync ended: one line per machine, and whether every machine was reached."""

        lines: list[str]
        reached: bool

    @dataclass
    class Mirrors(Message):
        """Whether some machine is mirrored here."""

        present: bool

    def __init__(self) -> None:
        super().__init__()
        self.running = False

    def look(self) -> None:
        """Find out whether any machine is mirrored (posts :class:`Mirrors`)."""
        self._look()

    @work(thread=True, exclusive=True, group="mirrors")
    def _look(self) -> None:
        self.post_message(self.Mirrors(bool(mirror_roots())))

    def sync(self) -> bool:
        """Start a sync of every machine; ``False`` when one is running already."""
        if self.running:
            return False
        self.running = True
        self._sync()
        return True

    @work(thread=True, exclusive=True, group="sync")
    def _sync(self) -> None:
        try:
            lines, reached = self._pull()
        except Exception as error:  # a bug: logged with its traceback, said in one line
            lines, reached = [unforeseen(error, "the sync")], False
        finally:
            self.running = False
        self.post_message(self.Done(lines, reached))
        self.post_message(self.Mirrors(bool(mirror_roots())))

    def _pull(self) -> tuple[list[str], bool]:
        from ink_tui.archive.machines import MachineError, load_machines
        from ink_tui.archive.syncing import sync_machines, sync_sentence
        from ink_tui.configfile import ConfigFileError

        try:
            machines = load_machines()
        except (MachineError, ConfigFileError) as error:
            return [str(error)], False
        if not machines:
            return ["no machine is set up: ink-tui machines add NAME ssh://host adds one"], True
        done: dict[str, int] = {machine.name: 0 for machine in machines}
        lock = threading.Lock()

        def progress(name: str, count: int, _percent: int) -> None:
            with lock:
                done[name] = count
                snapshot = dict(done)
            self.post_message(self.Progress(snapshot))

        reports = sync_machines(machines, progress)
        return [sync_sentence(report) for report in reports], not any(r.error for r in reports)
