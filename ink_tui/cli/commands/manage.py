"""``ink-tui rename|label|delete|trash|prune|adopt``: keeping sessions in order, from the shell.

``rename`` and ``label`` append one record as Ink's ``/name`` and ``/tree`` do; ``delete`` and
``prune`` move files to the trash, from where ``trash restore`` brings them back (see
:mod:`ink_tui.manage`). A destructive command asks first on a terminal; elsewhere it needs
``--yes``. ``adopt`` copies an imp-era session from ``~/.imp/sessions`` (which Ink never reads),
or a session mirrored from another machine, into Ink's folder so that ``ink -r`` resumes it
(:mod:`ink_tui.manage.adopting`). Every line
naming a session goes through :class:`~ink_tui.cli.output.SafeOutput`, and every path in it
through :func:`~ink_tui.safetext.one_line` (a file name holding a line break cannot fake a line
of output). A refusal of :mod:`ink_tui.manage` (``NamingError``, ``TrashError``, ``AdoptError``)
is one line on stderr, exit 2 (:data:`ink_tui.cli.entry.ONE_LINE_ERRORS`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ink_tui.cli.output import CommandError, SafeOutput, ask_yes
from ink_tui.humanize import plural
from ink_tui.safetext import one_line

if TYPE_CHECKING:
    from ink_tui.manage.trash import TrashEntry

__all__ = [
    "add_adopt_arguments",
    "add_delete_arguments",
    "add_label_arguments",
    "add_prune_arguments",
    "add_rename_arguments",
    "add_trash_arguments",
    "run_adopt",
    "run_delete",
    "run_label",
    "run_prune",
    "run_rename",
    "run_trash",
]

EXIT_OK = 0


def add_rename_arguments(rename: argparse.ArgumentParser) -> None:
    """``rename SESSION NAME``."""
    rename.add_argument("session", metavar="SESSION", help="path, id, id prefix or file name")
    rename.add_argument("name", metavar="NAME", help='the new name ("" or - clears it)')


def add_label_arguments(label: argparse.ArgumentParser) -> None:
    """``label SESSION ENTRY_ID [LABEL]``."""
    label.add_argument("session", metavar="SESSION")
    label.add_argument("entry", metavar="ENTRY_ID", help="the entry to label (or an id prefix)")
    label.add_argument("label", metavar="LABEL", nargs="?", default="", help="empty removes it")


def add_delete_arguments(delete: argparse.ArgumentParser) -> None:
    """``delete SESSION [--yes]``."""
    delete.add_argument("session", metavar="SESSION")
    delete.add_argument("--yes", action="store_true", help="do not ask")


def add_trash_arguments(trash: argparse.ArgumentParser) -> None:
    """``trash [list | restore ID | empty] [--json] [--yes]``."""
    trash.add_argument("action", nargs="?", default="list", choices=("list", "restore", "empty"))
    trash.add_argument("entry", metavar="ID", nargs="?", help="the entry to restore")
    trash.add_argument("--json", action="store_true", help="list as one JSON array")
    trash.add_argument("--yes", action="store_true", help="empty without asking")


def add_prune_arguments(prune: argparse.ArgumentParser) -> None:
    """``prune [--dry-run] [--yes]``, and Ink's rule."""
    prune.description = (
        "Ink's /sessions prune: in every project folder of the sessions folder, a child session "
        "whose launch.parentSessionId names no session of that folder is an orphan; one a live "
        "lease holds is kept. ink-tui moves orphans to the trash."
    )
    prune.add_argument("--dry-run", action="store_true", help="only list them")
    prune.add_argument("--yes", action="store_true", help="do not ask")


def add_adopt_arguments(adopt: argparse.ArgumentParser) -> None:
    """``adopt SESSION``."""
    adopt.description = (
        "Copy a session Ink cannot resume into ~/.ink/sessions, with its subagent sessions, all "
        "or nothing, never over a file: one in ~/.imp (Ink never reads it), into the same "
        "project folder; or one mirrored from another machine (ink-tui sync), into the folder "
        "of its project here (its cwd, moved by the machine's path map when one applies)."
    )
    adopt.add_argument("session", metavar="SESSION", help="path, or id, id prefix or file name")


def _resolve(base: Path, cwd: str, wanted: str) -> Path:
    from ink_tui.catalog.scan import resolve_session

    return resolve_session(base, cwd, wanted)


def _confirm(question: str, given: bool) -> bool:
    """``--yes``, or the user's answer on a terminal; elsewhere a refusal saying to pass it."""
    if given:
        return True
    answer = ask_yes(question)
    if answer is None:
        raise CommandError(f"{question} Not asked (no terminal): pass --yes")
    return answer


def run_rename(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from ink_tui.manage.naming import rename

    written = rename(_resolve(base, cwd, args.session), args.name)
    where = one_line(str(written.path))
    if written.text:
        out.line(f'{where}: named "{written.text}" (entry {written.entry_id})')
    else:
        out.line(f"{where}: name cleared (entry {written.entry_id})")
    return EXIT_OK


def run_label(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from ink_tui.manage.naming import label_entry

    written = label_entry(_resolve(base, cwd, args.session), args.entry, args.label)
    what = f'labelled "{written.text}"' if written.text else "label removed"
    where = one_line(str(written.path))
    out.line(f"{where}: entry {written.target} {what} (entry {written.entry_id})")
    return EXIT_OK


def _title(path: Path) -> str:
    from ink_tui.catalog.summary import summarize_file

    try:
        return summarize_file(path).title
    except OSError:
        return ""


def run_delete(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from dataclasses import replace

    from ink_tui.manage.deleting import delete, plan_delete
    from ink_tui.manage.roots import deletable_roots

    path = _resolve(base, cwd, args.session)
    plan = plan_delete(path, roots=deletable_roots(base))
    if plan.refusal is not None:
        raise CommandError(f"{one_line(str(path))}: not deleted: {plan.refusal}")
    plan = replace(plan, title=_title(path))  # read once it is known to be a session
    if not _confirm(f"Move {plan.describe()} to the trash?", args.yes):
        out.line("nothing was deleted")
        return EXIT_OK
    entry = delete(plan)
    out.line(f"moved {plan.describe()} to the trash ({plural(len(entry.items), 'item')})")
    out.line(f"`ink-tui trash restore {entry.id}` puts it back")
    return EXIT_OK


def _entry_line(entry: TrashEntry) -> str:
    title = f' "{one_line(entry.title)}"' if entry.title else ""
    files = plural(len(entry.sessions), "session file")
    return f"{entry.id}  {entry.kind:<6}  {entry.deleted_at}  {files}{title}"


def run_trash(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from ink_tui.manage.trash import empty_trash, find_entry, list_trash, restore, trash_dir

    if args.action == "restore":
        if not args.entry:
            raise CommandError("trash restore needs the entry's ID (see ink-tui trash list)")
        restored = restore(find_entry(args.entry))
        for path in restored:
            out.line(f"restored {one_line(str(path))}")
        return EXIT_OK
    entries = list_trash()
    if args.action == "empty":
        if not entries:
            out.line("the trash is empty")
            return EXIT_OK
        question = f"Delete {plural(len(entries), 'trash entry', 'trash entries')} for good?"
        if not _confirm(question, args.yes):
            out.line("nothing was deleted")
            return EXIT_OK
        removed = plural(empty_trash(entries), "trash entry", "trash entries")
        out.line(f"deleted {removed} for good")
        return EXIT_OK
    if args.json:
        out.json([entry.to_json() for entry in entries])
    elif not entries:
        out.line(f"the trash is empty ({one_line(str(trash_dir()))})")
    else:
        for entry in entries:
            out.line(_entry_line(entry))
    return EXIT_OK


def run_prune(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    from ink_tui.manage.pruning import plan_prune, prune

    plan = plan_prune(base)
    where = f"every project folder under {one_line(str(base))}"  # Ink's rule: the whole root
    if not plan.removable and not plan.exempt:
        out.line(f"no orphaned child sessions found (looked in {where})")
        return EXIT_OK
    for orphan in plan.removable:
        shown = one_line(str(orphan.path))
        out.line(f"orphan {shown} (its parent {one_line(orphan.parent_id)} is gone)")
    for orphan in plan.exempt:
        out.line(f"kept   {one_line(str(orphan.path))} (a live lease holds it)")
    count = len(plan.removable)
    if args.dry_run or not count:
        out.line(f"{count} orphaned child session(s) to prune in {where}; nothing was moved")
        return EXIT_OK
    question = f"Move {count} orphaned child session(s), from {where}, to the trash?"
    if not _confirm(question, args.yes):
        out.line("nothing was moved")
        return EXIT_OK
    entry, done = prune(plan)
    kept = f", kept {len(done.exempt)} (live lease)" if done.exempt else ""
    out.line(f"pruned {len(done.removable)} orphaned child session(s){kept}")
    if entry is not None:
        out.line(f"`ink-tui trash restore {entry.id}` puts them back")
    return EXIT_OK


def run_adopt(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
    """``ink-tui adopt SESSION``: an ``~/.imp`` session, or another machine's (by its path, or
    its id, id prefix or file name, looked for in ``~/.imp`` first, then in every mirror)."""
    from ink_tui.archive.machines import readable_mirrors
    from ink_tui.catalog.roots import resolve_anywhere
    from ink_tui.manage.adopting import adopt, plan_adopt
    from ink_tui.paths import imp_sessions_dir

    wanted = Path(args.session).expanduser()
    path = wanted if wanted.is_file() else resolve_anywhere(imp_sessions_dir(), cwd, args.session)
    mirrors, notice = readable_mirrors()
    if notice is not None:
        SafeOutput(sys.stderr).line(f"ink-tui: {notice}")
    plan = plan_adopt(path, mirrors)
    adopt(plan)
    out.line(f"copied {one_line(plan.describe())} into {one_line(str(plan.target.parent))}")
    note = plan.mapping_note()
    if note is not None:
        out.line(one_line(note))
    out.line(f"Ink resumes it now: {one_line(plan.resume)}")
    return EXIT_OK
