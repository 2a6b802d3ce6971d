"""``ink-tui machines`` (the other machines whose sessions are mirrored here), ``ink-tui sync``
(bring their sessions into the mirrors) and ``ink-tui push`` (put this machine's in an S3 store).

``machines add NAME URL`` keeps the machine in the settings file, ``machines [list] [--json]``
lists them with their mirrors, ``machines remove NAME`` takes one out and asks whether to keep
its mirror (``--keep-mirror``, ``--delete-mirror``: moved to the trash, so it can come back).
``sync [NAME...] [--json]`` pulls each machine (every one when none is named; several at once):
exit 0 when all were reached, 1 when one could not be (the others are still synced), 2 on bad
arguments. ``push s3://bucket[/prefix] [--as NAME] [--json]`` uploads what is new or grown
(:mod:`ink_tui.archive.s3push`): exit 0 pushed, 1 the store failed, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.output import CommandError, SafeOutput, ask_yes
from ink_tui.humanize import human_size

if TYPE_CHECKING:
    from ink_tui.archive.machines import Machine

__all__ = [
    "add_machines_arguments",
    "add_push_arguments",
    "add_sync_arguments",
    "run_machines",
    "run_push",
    "run_sync",
]

EXIT_OK, EXIT_UNREACHED = 0, 1


def add_machines_arguments(machines: argparse.ArgumentParser) -> None:
    """``machines [list | add NAME URL | remove NAME] [--json] [--keep-mirror|--delete-mirror]``."""
    machines.description = (
        "The other machines whose sessions ink-tui mirrors. URL: ssh://[user@]host[:port][/path] "
        "(the path defaults to the remote ~/.ink/sessions) or s3://bucket[/prefix]. Credentials "
        "stay with ssh and AWS's own files; ink-tui keeps only the name and the address."
    )
    machines.add_argument("action", nargs="?", default="list", choices=("list", "add", "remove"))
    machines.add_argument("name", metavar="NAME", nargs="?")
    machines.add_argument("url", metavar="URL", nargs="?")
    machines.add_argument("--json", action="store_true", help="list as one JSON array")
    keep = machines.add_mutually_exclusive_group()
    keep.add_argument("--keep-mirror", action="store_true", help="remove: keep its sessions here")
    keep.add_argument(
        "--delete-mirror", action="store_true", help="remove: move its mirror to the trash"
    )


def add_sync_arguments(sync: argparse.ArgumentParser) -> None:
    """``sync [NAME...] [--json]``."""
    sync.add_argument("names", metavar="NAME", nargs="*", help="machines to sync (default: all)")
    sync.add_argument("--json", action="store_true", help="one JSON object per machine")


def add_push_arguments(push: argparse.ArgumentParser) -> None:
    """``push s3://bucket[/prefix] [--as NAME] [--json]``."""
    push.description = (
        "Put this machine's sessions in an S3 store under PREFIX/NAME/, only what is new or "
        "grown since the last push (complete lines only), with credentials that may only "
        "write there: for machines nobody can reach, such as CI runners. A viewer then adds "
        "the store as a machine: ink-tui machines add NAME s3://bucket/prefix/NAME. "
        "Credentials come from AWS's variables and files; AWS_ENDPOINT_URL names any "
        "S3-compatible store. Needs rclone."
    )
    push.add_argument("url", metavar="URL", help="s3://bucket[/prefix]")
    push.add_argument(
        "--as",
        dest="name",
        metavar="NAME",
        help="the machine's name in the store (default: this host's name)",
    )
    push.add_argument("--json", action="store_true", help="one JSON object")


def run_push(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui push s3://bucket[/prefix] [--as NAME] [--json]``: exit 0 pushed, 1 the store
    could not be reached or written, 2 bad arguments."""
    from ink_tui.archive.machines import MachineError, check_name, parse_url
    from ink_tui.archive.s3push import push_s3

    try:
        url = parse_url(args.url)
        name = check_name(args.name or _host_name())
    except MachineError as error:
        raise CommandError(str(error)) from None
    if url.scheme != "s3":
        raise CommandError(
            f"push puts sessions in an S3 store: give s3://bucket[/prefix], not {url.text}"
        )
    shown = sys.stderr.isatty() and not args.json
    progress = SyncProgress(f"push {name}") if shown else None
    try:
        report = push_s3(url, name, base, progress=progress)
    finally:
        if progress is not None:
            progress.clear()
    err = SafeOutput(sys.stderr)
    for note in report.notes:
        err.line(f"ink-tui: {note}")
    if report.secrets and not report.error:
        err.line(f"ink-tui: {_secrets_sentence(report.secrets)}")
    if args.json:
        out.json(report.to_json(pushed=True))
    elif report.error:
        err.line(f"ink-tui: {name}: not pushed: {report.error}")
    else:
        parts = f"{report.new} new, {report.grown} grown, {report.rewritten} rewritten"
        target = "/".join(part for part in (url.host, url.path, name) if part)
        out.line(f"{name}: {parts}; {human_size(report.bytes)} put in s3://{target}")
    return EXIT_UNREACHED if report.error else EXIT_OK


def _secrets_sentence(secrets: dict[str, dict[str, int]]) -> str:
    """``2 sessions pushed hold secrets (3 github-token, 1 password): …``."""
    from collections import Counter

    from ink_tui.humanize import plural

    kinds: Counter[str] = Counter()
    for found in secrets.values():
        kinds.update(found)
    said = ", ".join(f"{count} {kind}" for kind, count in kinds.most_common())
    return (
        f"{plural(len(secrets), 'session')} pushed {'holds' if len(secrets) == 1 else 'hold'} "
        f"secrets ({said}): `ink-tui secrets "
        "--all` lists them, `ink-tui scrub` replaces them (the next push sends the scrubbed file)"
    )


def _host_name() -> str:
    """This host's name as a machine's (its first label, other characters made ``-``)."""
    import re
    import socket

    label = socket.gethostname().split(".")[0]
    return re.sub(r"[^A-Za-z0-9_-]", "-", label).lstrip("-_")[:63] or "this-machine"


def run_machines(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from ink_tui.archive.machines import MachineError, add_machine, load_machines
    from ink_tui.configfile import ConfigFileError

    try:
        if args.action == "add":
            if not args.name or not args.url:
                raise CommandError("machines add needs a NAME and a URL (see ink-tui machines -h)")
            machine = add_machine(args.name, args.url)
            out.line(
                f"added {machine.name}: {machine.url.text} (ink-tui sync {machine.name} pulls it)"
            )
            return EXIT_OK
        if args.action == "remove":
            if not args.name:
                raise CommandError("machines remove needs the machine's NAME")
            return _remove(args, out)
        machines = load_machines()
    except (MachineError, ConfigFileError) as error:
        raise CommandError(str(error)) from None
    if args.json:
        out.json([_machine_json(machine) for machine in machines])
    elif not machines:
        out.line("no machine is set up (ink-tui machines add NAME ssh://host adds one)")
    for machine in [] if args.json else machines:
        out.line(f"{machine.name}  {machine.url.text}  mirror {machine.mirror()}")
    return EXIT_OK


def _machine_json(machine: Machine) -> dict[str, object]:
    return {"name": machine.name, "url": machine.url.text, "mirror": str(machine.mirror())}


def _remove(args: argparse.Namespace, out: SafeOutput) -> int:
    from ink_tui.archive.machines import remove_machine

    machine = remove_machine(args.name)
    mirror = machine.mirror()
    out.line(f"removed {machine.name} from the settings")
    if not mirror.exists():
        return EXIT_OK
    delete = args.delete_mirror
    if not (args.keep_mirror or delete):  # no terminal to ask on: kept
        delete = bool(ask_yes(f"Move its mirror ({mirror}) to the trash?"))
    if not delete:
        out.line(f"its sessions stay in {mirror}")
        return EXIT_OK
    from ink_tui.manage.trash import TrashError, put

    try:
        entry = put([mirror], "mirror", title=f"machine {machine.name}")
    except TrashError as error:
        raise CommandError(str(error)) from None
    out.line(f"its mirror is in the trash ({entry.id}: ink-tui trash restore {entry.id})")
    return EXIT_OK


def run_sync(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from ink_tui.archive.machines import MachineError, load_machines
    from ink_tui.configfile import ConfigFileError

    try:
        machines = load_machines()
    except (MachineError, ConfigFileError) as error:
        raise CommandError(str(error)) from None
    known = {machine.name: machine for machine in machines}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        raise CommandError(f"no machine is named {unknown[0]} (ink-tui machines lists them)")
    chosen = [known[name] for name in args.names] if args.names else machines
    if not chosen:
        raise CommandError("no machine is set up (ink-tui machines add NAME ssh://host adds one)")
    from ink_tui.archive.syncing import sync_machine, sync_machines, sync_sentence

    if len(chosen) == 1 and sys.stderr.isatty() and not args.json:  # how far it is
        shown = SyncProgress(chosen[0].name)
        try:
            reports = [sync_machine(chosen[0], shown)]
        finally:
            shown.clear()
    else:  # several at once, reported in order
        reports = sync_machines(chosen)
    if args.json:
        out.json([report.to_json() for report in reports])
    else:
        err = SafeOutput(sys.stderr)
        for report in reports:
            for note in report.notes:
                err.line(f"ink-tui: {report.machine}: {note}")
            out.line(sync_sentence(report))
    return EXIT_UNREACHED if any(report.error for report in reports) else EXIT_OK


class SyncProgress:
    """A machine's transfer on the terminal: one line on stderr, rewritten, then cleared."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.err = SafeOutput(sys.stderr)
        self.width = 0

    def __call__(self, done: int, percent: int) -> None:
        line = f"{self.name}: {percent:3d}% ({human_size(done)})"
        self._back()
        self.err.write(line.ljust(self.width))  # the line made safe; the return is ours
        self.width = len(line)
        self.err.flush()

    def clear(self) -> None:
        if self.width:
            self._back()
            self.err.write(" " * self.width)
            self._back()
            self.err.flush()

    def _back(self) -> None:
        sys.stderr.write("\r")  # to the line's start: a control ink-tui sends, not a session
