"""The secrets one session holds (``x`` in the picker and the session view), each masked.

The file is read in a thread worker by the audit's own reader, a chunk at a time
(:func:`ink_tui.catalog.secretsaudit.file_findings`): every line the cheap look lets through is
parsed and walked by the detector, and each finding comes with the text around it, every secret
in it masked. Enter opens the session on the record holding the highlighted one (on the branch
that holds it), over this screen: Esc comes back here. ``X`` scrubs the session (after a
question; the original goes to the trash first) and ``u`` brings the original back: the list is
read again after either.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ink_tui.catalog.secretsaudit import SecretFinding, file_findings, kinds_sentence
from ink_tui.humanize import plural
from ink_tui.logs import unforeseen
from ink_tui.ui.keymap import bind, key_of
from ink_tui.ui.messages import OpenSession
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.finding_list import FindingList
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.keeper import SessionKeeper

__all__ = ["SecretsScreen"]


class SecretsScreen(Screen[None]):
    """The findings of one session; Enter goes to the record, ``X`` scrubs, ``u`` undoes."""

    DEFAULT_CSS = """
    SecretsScreen #secrets-title { padding: 0 1; }
    SecretsScreen #secrets-note { padding: 0 1; color: $text-muted; }
    SecretsScreen FindingList { height: 1fr; }
    SecretsScreen #secrets-empty { height: 1fr; padding: 1 2; }
    """
    BINDINGS = [
        bind("scrub", "scrub", "Scrub", show=True),
        bind("undo", "undo", "Undo scrub"),
        bind("back", "back", "Back", show=True),
    ]

    @dataclass
    class Found(Message):
        findings: list[SecretFinding]

    @dataclass
    class Failed(Message):
        reason: str

    def __init__(self, path: Path, title: str, machine: str | None = None) -> None:
        super().__init__()
        self.path, self.title_text, self.machine = path, title, machine
        self.findings: list[SecretFinding] | None = None  # None: being read

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="secrets-title")
        yield Static(self._note(), id="secrets-note")
        yield FindingList(id="secrets-list")
        yield Static(id="secrets-empty")
        yield SessionKeeper()
        yield InkFooter()

    def on_mount(self) -> None:
        self.query_one("#secrets-empty").display = False
        self.query_one(FindingList).focus()
        self._read()

    def _title(self) -> Text:
        text = plain("Secrets", "bold")
        text.append_text(plain(f"  ·  {self.title_text or self.path.name}"))
        if self.findings is None:
            text.append_text(plain("  ·  reading…", "italic"))
        elif self.findings:
            count = plural(len(self.findings), "secret")
            text.append_text(plain(f"  ·  {count} ({kinds_sentence(self.findings)})"))
        return text

    def _note(self) -> Text:
        return plain(
            "Every secret is masked as [REDACTED:kind:fingerprint] (the same secret, the same "
            f"fingerprint) · Enter: the record · {key_of('scrub')}: replace them in the file "
            f"(the original to the trash first, {key_of('undo')} undoes)"
        )

    @work(thread=True, exclusive=True, group="secrets")
    def _read(self) -> None:
        try:
            found = file_findings(self.path, self.machine, context=True)
        except OSError as error:
            self.post_message(self.Failed(f"cannot read {self.path}: {error.strerror or error}"))
        except Exception as error:  # a bug: logged with its traceback, said in one line
            self.post_message(self.Failed(unforeseen(error, "reading the session's secrets")))
        else:
            self.post_message(self.Found(found))

    @on(Found)
    def _found(self, message: Found) -> None:
        self.findings = message.findings
        self.query_one("#secrets-title", Static).update(self._title())
        self.query_one(FindingList).show(message.findings)
        self._show_empty(None if message.findings else self._none_left())

    def _none_left(self) -> Text:
        undo = self.query_one(SessionKeeper).last_deleted is not None
        again = f" {key_of('undo')} brings the original back." if undo else ""
        return plain(f"No secret ink-tui knows is in this session.{again}")

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self.findings = []
        self.query_one("#secrets-title", Static).update(self._title())
        self._show_empty(plain(message.reason))

    def _show_empty(self, text: Text | None) -> None:
        empty = self.query_one("#secrets-empty", Static)
        empty.display = text is not None
        findings = self.query_one(FindingList)
        findings.display = text is None
        if text is None:
            findings.focus()  # back after a scrub undone: the keys are the list's again
        else:
            empty.update(text)

    @on(FindingList.Selected)
    def _selected(self, message: FindingList.Selected) -> None:
        self._open(message.finding)

    @work(thread=True, exclusive=True, group="secrets-open")
    def _open(self, finding: SecretFinding) -> None:
        """The session on the record (on the branch holding it: the index knows which)."""
        from ink_tui.catalog.index.branches import leaf_showing
        from ink_tui.catalog.index.fallback import SearchIndex
        from ink_tui.catalog.index.store import IndexUnavailable

        entry: str | None = finding.entry_id
        if finding.entry_id == "header" or finding.entry_id.startswith("line "):
            entry = None  # not an entry of the tree (the header, a marker): the session itself
        leaf = None
        if entry is not None:
            try:
                with SearchIndex().open() as index:
                    leaf = leaf_showing(index, self.path, entry)
            except IndexUnavailable:
                leaf = None  # the current branch: the view says when the entry is not on it
            except Exception as error:  # a bug: logged; the session still opens
                unforeseen(error, "finding the record's branch")
        self.post_message(OpenSession(self.path, leaf_id=leaf, entry_id=entry, stack=True))

    def action_scrub(self) -> None:
        self.query_one(SessionKeeper).scrub(self.path, self.title_text)

    def action_undo(self) -> None:
        self.query_one(SessionKeeper).undo()

    @on(SessionKeeper.Kept)
    def _kept(self, message: SessionKeeper.Kept) -> None:
        self.findings = None
        self.query_one("#secrets-title", Static).update(self._title())
        self._read()

    def action_back(self) -> None:
        self.dismiss(None)
