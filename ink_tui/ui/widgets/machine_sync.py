"""The picker's sync of every machine (``M``): ``ink-tui sync`` in a worker, its progress for the
status line, one line per machine at the end.

:class:`MachineSync` is a part with nothing to show: its thread worker pulls the machines of the
settings (several at once, :func:`ink_tui.archive.syncing.sync_machines`), keeps the bytes
brought so far, says in a note what each machine gave, and posts :class:`MachineSync.Changed`
whenever its state changes. A sync run from the command line at the same time is safe: each
mirror takes its own lock. It also knows whether any machine is mirrored here (which the
picker's Tab needs): a look at the disk, so done in a worker too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from textual import on, work
from textual.message import Message
from textual.widget import Widget

from ink_tui.catalog.roots import mirror_roots
from ink_tui.logs import unforeseen

__all__ = ["MachineSync"]


class MachineSync(Widget):
    """Syncs the machines in a worker and keeps how it goes (see the module doc): ``mirrors``
    (some machine is mirrored here) and ``syncing`` (bytes brought over so far, ``None`` when no
    sync runs). Each change is posted as :class:`Changed`; the notes are its own."""

    DEFAULT_CSS = "MachineSync { display: none; }"

    @dataclass
    class Changed(Message):
        """``mirrors`` or ``syncing`` changed; ``synced``: a sync just ended."""

        synced: bool = False

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, MachineSync.Changed) and not message.synced

    @dataclass
    class _Progress(Message):
        done: dict[str, int] = field(default_factory=dict)  # bytes so far, by machine

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, MachineSync._Progress)

    @dataclass
    class _Done(Message):
        lines: list[str]
        reached: bool

    @dataclass
    class _Mirrors(Message):
        present: bool

    def __init__(self) -> None:
        super().__init__()
        self.mirrors = False
        self.syncing: int | None = None
        self._pulling = False

    def look(self) -> None:
        """Find out whether any machine is mirrored (in a worker)."""
        self._look()

    @work(thread=True, exclusive=True, group="mirrors")
    def _look(self) -> None:
        self.post_message(self._Mirrors(bool(mirror_roots())))

    def sync(self) -> None:
        """Sync every machine (said when one is running already)."""
        if self._pulling:
            self.notify("a sync is running already", timeout=3)
            return
        self._pulling = True
        self.syncing = 0
        self.post_message(self.Changed())
        self._sync()

    @work(thread=True, exclusive=True, group="sync")
    def _sync(self) -> None:
        try:
            lines, reached = self._pull()
        except Exception as error:  # a bug: logged with its traceback, said in one line
            lines, reached = [unforeseen(error, "the sync")], False
        self.post_message(self._Done(lines, reached))
        self.post_message(self._Mirrors(bool(mirror_roots())))

    @on(_Progress)
    def _progressed(self, message: _Progress) -> None:
        if self._pulling:
            self.syncing = sum(message.done.values())
            self.post_message(self.Changed())

    @on(_Done)
    def _done(self, message: _Done) -> None:
        self._pulling, self.syncing = False, None
        text = "\n".join(message.lines)
        if message.reached:
            self.notify(text, title="sync", timeout=8)
        else:
            self.notify(text, title="sync", severity="warning", timeout=8)
        self.post_message(self.Changed(synced=True))

    @on(_Mirrors)
    def _mirrors(self, message: _Mirrors) -> None:
        if message.present != self.mirrors:
            self.mirrors = message.present
            self.post_message(self.Changed())

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
            self.post_message(self._Progress(snapshot))

        reports = sync_machines(machines, progress)
        return [sync_sentence(report) for report in reports], not any(r.error for r in reports)
