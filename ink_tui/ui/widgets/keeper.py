"""Keeping sessions in order from the app: rename, label, delete, scrub (and undo), copy, prune.

:class:`SessionKeeper` is a non-visual part the picker and the session view both hold. It asks
(the modals of :mod:`ink_tui.ui.modals.keeping`), does the work in a thread worker with the
core's functions (:mod:`ink_tui.manage`: the same rules as the command line), says what
happened in one
notification, and posts :class:`SessionKeeper.Kept` so the screen can show the change. It
remembers the last move to the trash of this run (a delete, a prune, or a scrub's original), so
that ``u`` can undo it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.widget import Widget

from ink_tui.humanize import plural
from ink_tui.logs import unforeseen
from ink_tui.manage.trash import TrashEntry
from ink_tui.ui.modals.keeping import ConfirmScreen, CopyScreen, TextScreen

if TYPE_CHECKING:
    from ink_tui.manage.deleting import DeletePlan
    from ink_tui.manage.pruning import PrunePlan

__all__ = ["SessionKeeper"]

PREVIEW_NAMES = 5  # orphans named in the prune question (then "… +N more"), as Ink's preview


class SessionKeeper(Widget):
    """Rename, label, delete, undo, copy and prune, for the screen that holds it."""

    DEFAULT_CSS = "SessionKeeper { display: none; }"

    @dataclass
    class Kept(Message):
        """A session changed on disk: ``what`` is ``rename``, ``label``, ``delete``, ``scrub``,
        ``restore`` or ``prune``; ``text`` the name or label written, if any."""

        what: str
        path: Path | None
        text: str = ""
        target: str = ""  # the labelled entry

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.last_deleted: TrashEntry | None = None  # the last delete, prune or scrub: u undoes

    # -- rename and label ----------------------------------------------------------------------

    def rename(self, path: Path, current: str) -> None:
        def typed(name: str | None) -> None:
            if name is not None:
                self._rename(path, name)

        title = "Rename the session (as Ink's /name: an empty name clears it)"
        self.app.push_screen(TextScreen(title, current, "rename"), typed)

    @work(thread=True, group="keep")
    def _rename(self, path: Path, name: str) -> None:
        from ink_tui.manage.naming import rename

        def job() -> tuple[SessionKeeper.Kept, str]:
            written = rename(path, name)
            note = f'named "{written.text}"' if written.text else "name cleared"
            return self.Kept("rename", path, written.text), note

        self._run("renaming the session", job)

    def label(self, path: Path, target: str, current: str) -> None:
        def typed(text: str | None) -> None:
            if text is not None:
                self._label(path, target, text)

        title = f"Label entry {target} (as Ink's /tree L: empty removes it)"
        self.app.push_screen(TextScreen(title, current, "label"), typed)

    @work(thread=True, group="keep")
    def _label(self, path: Path, target: str, text: str) -> None:
        from ink_tui.manage.naming import label_entry

        def job() -> tuple[SessionKeeper.Kept, str]:
            written = label_entry(path, target, text)
            note = f'labelled "{written.text}"' if written.text else "label removed"
            return self.Kept("label", path, written.text, target), note

        self._run("labelling the entry", job)

    # -- delete and undo -----------------------------------------------------------------------

    @work(thread=True, group="keep")
    def delete(self, path: Path, title: str, base: Path) -> None:
        """Plan (children, liveness) in the worker, then ask, then move to the trash (only a
        session file inside the sessions folder ``base``)."""
        from ink_tui.manage.deleting import plan_delete
        from ink_tui.manage.roots import deletable_roots

        plan = plan_delete(path, roots=deletable_roots(base), title=title)
        if plan.refusal is not None:
            self.app.call_from_thread(
                self.notify, f"not deleted: {plan.refusal}", severity="warning"
            )
            return
        body = "\n".join([f"Move {plan.describe()} to the trash?", "", *map(str, plan.paths)])

        def answered(yes: bool | None) -> None:
            if yes:
                self._delete(plan)

        question = ConfirmScreen("Delete this session?", body, "move to the trash (u undoes)")
        self.app.call_from_thread(self.app.push_screen, question, answered)

    @work(thread=True, group="keep")
    def _delete(self, plan: DeletePlan) -> None:
        from ink_tui.manage.deleting import delete

        def job() -> tuple[SessionKeeper.Kept, str]:
            self.last_deleted = delete(plan)
            note = f"moved {plan.describe()} to the trash; u undoes"
            return self.Kept("delete", plan.session), note

        self._run("deleting the session", job)

    # -- scrub ---------------------------------------------------------------------------------

    @work(thread=True, group="keep")
    def scrub(self, path: Path, title: str = "") -> None:
        """What a scrub would replace (in the worker), then ask (naming the session by its
        ``title``, else its file), then scrub: each secret replaced in the file by its mask,
        the original to the trash first."""
        from ink_tui.manage.scrubbing import ScrubError, scrub_session

        try:
            plan, _ = scrub_session(path, dry_run=True)
        except ScrubError as error:
            self.app.call_from_thread(self.notify, str(error), severity="warning", timeout=10)
            return
        if not plan.lines:
            self.app.call_from_thread(self.notify, "no secret to scrub in this session", timeout=4)
            return
        said = f"{plural(plan.count, 'secret')} ({plan.kinds_sentence()})"
        body = (
            f"Replace {said} in “{title or path.name}” with [REDACTED:<kind>:<fingerprint>]?\n\n"
            "Ink still opens it and rebuilds the same context, the secrets masked. The original "
            "goes to the trash first: u brings it back byte for byte."
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._scrub(path)

        question = ConfirmScreen("Scrub the secrets from this session?", body, "scrub (u undoes)")
        self.app.call_from_thread(self.app.push_screen, question, answered)

    @work(thread=True, group="keep")
    def _scrub(self, path: Path) -> None:
        from ink_tui.manage.scrubbing import scrub_session
        from ink_tui.manage.trash import find_entry

        def job() -> tuple[SessionKeeper.Kept, str]:
            plan, entry_id = scrub_session(path)
            self.last_deleted = None if entry_id is None else find_entry(entry_id)
            note = f"scrubbed {plural(plan.count, 'secret')} ({plan.kinds_sentence()}); u undoes"
            return self.Kept("scrub", path), note

        self._run("scrubbing the session", job)

    @work(thread=True, group="keep")
    def undo(self) -> None:
        from ink_tui.manage.trash import restore

        entry = self.last_deleted
        if entry is None:
            self.app.call_from_thread(self.notify, "nothing to undo", timeout=3)
            return

        def job() -> tuple[SessionKeeper.Kept, str]:
            restored = restore(entry)
            self.last_deleted = None
            count = len(restored)
            note = f"restored {count} file{'s' if count != 1 else ''} from the trash"
            return self.Kept("restore", restored[0] if restored else None), note

        self._run("restoring from the trash", job)

    # -- copy ----------------------------------------------------------------------------------

    def copy(
        self,
        session_id: str,
        path: Path,
        message: str | None = None,
        leaf_id: str | None = None,
    ) -> None:
        """The copy menu: ``message`` (the row as the session view shows it) first when given,
        then the last agent message as Ink's ``/copy`` copies it (of the branch to ``leaf_id``,
        the one shown, else of the current branch; the file is read when it is chosen), the
        session's id, its path and ``ink -r <id>``; for a session Ink cannot resume (one in
        ``~/.imp``, which Ink never reads, or another machine's copy) the last choice copies
        the session into Ink's folder (``ink-tui adopt``)."""
        from ink_tui.manage.naming import resume_command
        from ink_tui.paths import ink_sessions_dir, mirrored_machine, under_imp

        machine = mirrored_machine(path)
        elsewhere = "from ~/.imp" if machine is None else f"from {machine}'s copy"
        adopted = machine is not None or under_imp(path)
        resume = (
            ("r", f"Ink cannot resume it {elsewhere}: copy it into", f"{ink_sessions_dir()}/")
            if adopted
            else ("r", "the command resuming it in Ink", resume_command(session_id))
        )
        choices = [
            ("a", "the last agent message", "as Ink's /copy copies it"),
            ("i", "the session id", session_id),
            ("p", "the file path", str(path)),
            resume,
        ]
        if message is not None:
            choices.insert(0, ("m", "the message as shown", message))

        def chosen(index: int | None) -> None:
            if index is None:
                return
            key, what, text = choices[index]
            if key == "a":
                self._copy_agent_message(path, leaf_id)
                return
            if key == "r" and adopted:
                self._adopt(path)
                return
            self.app.copy_to_clipboard(text)
            if key == "m":
                self.notify(f"copied the message: {len(text):,} characters", timeout=3)
            else:
                self.notify(f"copied {what}: {text}", timeout=3, markup=False)

        self.app.push_screen(CopyScreen(choices), chosen)

    @work(thread=True, group="keep")
    def _copy_agent_message(self, path: Path, leaf_id: str | None) -> None:
        """Ink's ``/copy`` in a worker, over the context Ink rebuilds for ``leaf_id`` (the
        file read afresh: nothing the view holds is touched); Ink's words say what happened."""
        from ink_tui.session import SessionError, open_session
        from ink_tui.session.conversation.copytext import (
            COPIED,
            NOTHING_TO_COPY,
            session_agent_text,
        )

        try:
            text = session_agent_text(open_session(path, warn=None), leaf_id)
        except SessionError as error:
            line = f"cannot copy the last agent message: {error.one_line()}"
            self.app.call_from_thread(self.notify, line, severity="error", markup=False)
            return
        except OSError as error:
            line = f"cannot copy the last agent message: {path}: {error.strerror or error}"
            self.app.call_from_thread(self.notify, line, severity="error", markup=False)
            return
        except Exception as error:  # a bug: logged with its traceback, said in one line
            line = unforeseen(error, "copying the last agent message")
            self.app.call_from_thread(self.notify, line, severity="error", timeout=15)
            return
        if text is None:
            self.app.call_from_thread(self.notify, NOTHING_TO_COPY, timeout=4, markup=False)
            return
        self.app.call_from_thread(self.app.copy_to_clipboard, text)
        self.app.call_from_thread(self.notify, COPIED, timeout=3, markup=False)

    @work(thread=True, group="keep")
    def _adopt(self, path: Path) -> None:
        """Copy an ``~/.imp`` or mirrored session into Ink's folder; ``ink -r <id>`` goes to the
        clipboard."""
        from ink_tui.archive.machines import readable_mirrors
        from ink_tui.manage.adopting import AdoptError, adopt, plan_adopt

        try:
            plan = plan_adopt(path, readable_mirrors()[0])
            adopt(plan)
        except (AdoptError, OSError) as error:
            self.app.call_from_thread(self.notify, str(error), severity="error", markup=False)
            return
        except Exception as error:  # a bug: logged with its traceback, said in one line
            line = unforeseen(error, "copying the session into Ink's folder")
            self.app.call_from_thread(self.notify, line, severity="error", timeout=15)
            return
        mapped = plan.mapping_note()
        note = (
            f"copied {plan.describe()} into {plan.target.parent}"
            + ("" if mapped is None else f" ({mapped})")
            + f"; Ink resumes it with {plan.resume} (copied to the clipboard)"
        )
        self.app.call_from_thread(self.app.copy_to_clipboard, plan.resume)
        self.app.call_from_thread(self.notify, note, timeout=8, markup=False)

    # -- prune ---------------------------------------------------------------------------------

    @work(thread=True, group="keep")
    def prune(self, base: Path) -> None:
        from ink_tui.manage.pruning import plan_prune

        plan = plan_prune(base)
        where = f"every project folder under {base}"  # Ink's rule: the whole sessions root
        if not plan.removable:
            kept = f"; {len(plan.exempt)} held by a live lease" if plan.exempt else ""
            note = f"no orphaned child sessions (looked in {where}{kept})"
            self.app.call_from_thread(self.notify, note, timeout=4, markup=False)
            return
        names = [orphan.path.name for orphan in plan.removable]
        shown = names[:PREVIEW_NAMES]
        if len(names) > PREVIEW_NAMES:
            shown.append(f"… +{len(names) - PREVIEW_NAMES} more")
        count = len(names)
        body = "\n".join(
            [
                f"{count} child session(s) whose parent session is gone, in {where} "
                "(Ink's /sessions prune):",
                *shown,
            ]
        )

        def answered(yes: bool | None) -> None:
            if yes:
                self._prune(plan)

        question = ConfirmScreen("Prune orphaned children?", body, "move them to the trash")
        self.app.call_from_thread(self.app.push_screen, question, answered)

    @work(thread=True, group="keep")
    def _prune(self, plan: PrunePlan) -> None:
        from ink_tui.manage.pruning import prune

        def job() -> tuple[SessionKeeper.Kept, str]:
            entry, done = prune(plan)
            if entry is not None:
                self.last_deleted = entry
            kept = f", kept {len(done.exempt)} (live lease)" if done.exempt else ""
            where = "; u undoes" if entry else ""
            note = f"pruned {len(done.removable)} orphaned child session(s){kept}{where}"
            return self.Kept("prune", None), note

        self._run("pruning orphaned children", job)

    # -- saying what happened --------------------------------------------------------------------

    def _run(self, doing: str, job: Callable[[], tuple[SessionKeeper.Kept, str]]) -> None:
        """In the worker: do ``job``; say its note, or its failure, in one line."""
        from ink_tui.manage.naming import NamingError
        from ink_tui.manage.scrubbing import ScrubError
        from ink_tui.manage.trash import TrashError

        try:
            kept, note = job()
        except (NamingError, ScrubError, TrashError, OSError) as error:
            self.app.call_from_thread(self.notify, str(error), severity="error", timeout=10)
            return
        except Exception as error:  # a bug: logged with its traceback, said in one line
            line = unforeseen(error, doing)
            self.app.call_from_thread(self.notify, line, severity="error", timeout=15)
            return
        self.app.call_from_thread(self.notify, note, timeout=5)
        self.post_message(kept)
