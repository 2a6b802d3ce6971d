"""Search every session by what was said in it: results as you type, Enter opens the match.

Opened from the picker (``s``). The index is brought up to date for the scope first (in a
worker, progress in the status line); each query runs in a worker too, the latest one winning.
Enter opens the session on the branch that holds the match, scrolled to it and highlighted, with
the session's own search set to the matched words so ``n``/``N`` go through that session's
matches; Esc there comes back here, the results kept. A match inside a subagent session opens
that session over its parent's view (``OpenSession.within``), or alone when the parent is gone.

Every hit is reachable (the best sessions first, at most :data:`LIMIT` hits dealt out over them);
the note under the results says how many matched in all when not all are shown. When the index
cannot be used (read-only, a symlink…), the files are searched without it, through a temporary
index kept while the screen is open (:class:`~ink_tui.catalog.index.fallback.SearchIndex`), and a
notice says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.worker import get_current_worker

from ink_tui.archive.machines import readable_mirrors
from ink_tui.catalog.index import IndexUnavailable
from ink_tui.catalog.index.branches import leaf_showing
from ink_tui.catalog.index.checks import TRUST_SECONDS as TRUST
from ink_tui.catalog.index.fallback import SearchIndex
from ink_tui.catalog.query import QueryError, parse_query
from ink_tui.catalog.roots import Root
from ink_tui.catalog.search import SearchHit, SearchResult, search
from ink_tui.humanize import human_size, plural
from ink_tui.logs import unforeseen
from ink_tui.paths import cwd_folder_name
from ink_tui.ui.keymap import bind
from ink_tui.ui.messages import OpenSession
from ink_tui.ui.options import app_now
from ink_tui.ui.render.safe import plain
from ink_tui.ui.scope import Scope, next_scope, scope_cwd, scope_label, tab_hint
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.search_results import SearchResults

__all__ = ["SearchScreen"]

TYPING_PAUSE: Final = 0.12  # seconds after the last key before the query runs
LIMIT: Final = 200
_HINT: Final = (
    'words, "a phrase", -word, prefix*, project: model: role:user|assistant|tool after: before:'
)


class SearchScreen(Screen[None]):
    """A query line over the hits of every session of this project (Tab: all projects)."""

    BINDINGS = [
        bind("back", "back", "Back", show=True),
        bind("switch", "toggle_scope", "Scope", show=True),
        bind("down", "move(1)", "Next hit", keys=("down",)),  # j and k type into the query
        bind("up", "move(-1)", "Previous hit", keys=("up",)),
        bind("open", "open", "Open the match", show=True),
    ]

    @dataclass
    class Indexed(Message):
        """The index is up to date for the scope (or could not be used: ``problem``);
        ``notice``: the user's index was rebuilt, or the files are searched without it."""

        scope: Scope
        problem: str | None = None
        notice: str | None = None
        mirrors: bool = False  # some machine is mirrored here

    @dataclass
    class Indexing(Message):
        done: int
        total: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, SearchScreen.Indexing)

    @dataclass
    class Answered(Message):
        """A query's hits (or why it could not run)."""

        generation: int
        result: SearchResult | None
        problem: str | None = None

    def __init__(self, sessions_dir: Path, cwd: str) -> None:
        super().__init__()
        self.sessions_dir = sessions_dir
        self.cwd = cwd
        self.scope: Scope = "project"
        self.mirrors = False  # some machine is mirrored here (Tab then stops at every machine)
        self.ready: set[Scope] = set()  # scopes indexed since the screen opened
        self._generation = 0
        self._asked = ""  # the query the latest search runs
        self.answered = ""  # the query whose answer is shown
        self._typing: Timer | None = None
        self._said = ""
        self._now = 0.0
        self._told: set[str] = set()  # notices shown (once each)
        self.searched = SearchIndex()  # the user's index, or one made from the files

    def compose(self) -> ComposeResult:
        yield Static(id="search-scope")
        yield Input(placeholder=_HINT, id="search-query")
        yield SearchResults(id="search-results")
        yield Static(id="search-note")
        yield InkFooter()

    results = property(lambda self: self.query_one(SearchResults))

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._prepare(self.scope)
        self._say("indexing…")

    # -- the index -----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="search-index")
    def _prepare(self, scope: Scope) -> None:
        def progress(done: int, total: int) -> None:
            self.post_message(self.Indexing(done, total))

        worker = get_current_worker()
        mirrors, maps_notice = readable_mirrors()
        try:
            self.searched.update(
                self.sessions_dir,
                scope_cwd(scope, self.cwd),
                progress=progress,
                cancelled=worker.cancelled_event,
                mirrors=mirrors if scope != "all" else (),
            )
        except IndexUnavailable as error:
            self.post_message(self.Indexed(scope, str(error)))
            return
        except Exception as error:  # a bug: logged with its traceback, said in one line
            self.post_message(self.Indexed(scope, unforeseen(error, "the index")))
            return
        notice = self.searched.notice or maps_notice
        self.post_message(self.Indexed(scope, notice=notice, mirrors=bool(mirrors)))

    def on_unmount(self) -> None:
        self.searched.close()  # a temporary index made from the files is deleted

    @on(Indexing)
    def _indexing(self, message: Indexing) -> None:
        if message.total:
            share = 100 * message.done // message.total
            self._say(
                f"indexing {share}% ({human_size(message.done)} of {human_size(message.total)})"
            )

    @on(Indexed)
    def _indexed(self, message: Indexed) -> None:
        if message.problem is not None:
            self._say(message.problem)
            return
        if message.notice is not None and message.notice not in self._told:
            self._told.add(message.notice)  # once, not at each change of scope
            self.notify(message.notice, severity="warning", timeout=8)
        self.ready.add(message.scope)
        self.mirrors = message.mirrors
        self._say("")
        self._run_query()

    # -- queries -------------------------------------------------------------------------------

    @on(Input.Changed, "#search-query")
    def _typed(self, event: Input.Changed) -> None:
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(TYPING_PAUSE, self._run_query)

    def _run_query(self) -> None:
        self._generation += 1
        self._now = app_now(self)  # recency is weighed by the app's clock (pinned in tests)
        text = self._asked = self.query_one(Input).value
        self._show_scope()
        if not text.strip():
            self.results.show([], show_project=self.scope != "project")
            self._say("")
            return
        self._search(text, self.scope, self._generation)

    @work(thread=True, exclusive=True, group="search-query")
    def _search(self, text: str, scope: Scope, generation: int) -> None:
        try:
            query = parse_query(text)
        except QueryError as error:
            self.post_message(self.Answered(generation, None, str(error)))
            return
        machines = scope == "machines" or bool(query.machines)
        everywhere = scope == "all" or machines or bool(query.projects)
        mirrors = [] if scope == "all" and not machines else readable_mirrors()[0]
        roots = [Root(self.sessions_dir), *mirrors]
        within = None
        if not everywhere:  # this project, on every machine (the path maps' folders too)
            within = [folder for root in roots for folder in root.project_folders(self.cwd)]
        try:
            if machines and "machines" not in self.ready:  # machine: asked from another scope
                self.searched.update(self.sessions_dir, None, mirrors=mirrors, trust=TRUST)
            with self.searched.open() as index:
                result = search(
                    index, query, limit=LIMIT, now=self._now, roots=roots, within=within
                )
        except QueryError as error:  # a machine: no mirror is of
            self.post_message(self.Answered(generation, None, str(error)))
            return
        except IndexUnavailable as error:
            self.post_message(self.Answered(generation, None, str(error)))
            return
        except Exception as error:  # a bug: logged with its traceback, said in one line
            self.post_message(self.Answered(generation, None, unforeseen(error, "the search")))
            return
        self.post_message(self.Answered(generation, result))

    @on(Answered)
    def _answered(self, message: Answered) -> None:
        if message.generation != self._generation:
            return  # a later query is under way
        self.answered = self._asked  # the query whose hits are shown
        result = message.result
        shown = [] if result is None else result.hits
        self.results.show(shown, show_project=self.scope != "project" or _elsewhere(shown))
        if message.problem is not None or result is None:
            self._say(message.problem or "")
        elif not result.hits:
            self._say(
                "no match" + (" in this project (Tab: all)" if self.scope == "project" else "")
            )
        else:
            self._say(_counts(result))

    # -- what the user sees ----------------------------------------------------------------------

    def _show_scope(self) -> None:
        line = plain("Search  ", "bold")
        line.append_text(plain(scope_label(self.scope, cwd_folder_name(self.cwd))))
        line.append(f"    {tab_hint(self.scope, mirrors=self.mirrors)}", "dim")
        self.query_one("#search-scope", Static).update(line)

    def _say(self, text: str) -> None:
        if text != self._said:
            self._said = text
            self.query_one("#search-note", Static).update(plain(text))

    # -- actions -------------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()

    def action_toggle_scope(self) -> None:
        self.scope = next_scope(self.scope, mirrors=self.mirrors)
        self._show_scope()
        if self.scope in self.ready:
            self._run_query()
        else:
            self._say("indexing…")
            self._prepare(self.scope)

    def action_move(self, delta: int) -> None:
        results = self.results
        if not results.option_count:
            return
        (results.action_cursor_down if delta > 0 else results.action_cursor_up)()

    def action_open(self) -> None:
        hit = self.results.chosen
        if hit is not None:
            self._open(hit, self._words())

    @on(OptionList.OptionSelected, "#search-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_open()

    @on(Input.Submitted, "#search-query")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_open()

    @work(thread=True, exclusive=True, group="search-open")
    def _open(self, hit: SearchHit, words: str | None) -> None:
        try:
            with self.searched.open() as index:
                leaf = leaf_showing(index, hit.file, hit.entry_id)
        except IndexUnavailable:
            leaf = None  # the current branch: the match may not be on it, the view says so
        except Exception as error:  # a bug: logged; the session still opens
            unforeseen(error, "finding the match's branch")
            leaf = None
        self.post_message(
            OpenSession(
                hit.file,
                leaf_id=leaf,
                entry_id=hit.entry_id,
                search=words,
                stack=True,
                within=hit.parent_file,
            )
        )

    def _words(self) -> str | None:
        """What the session's own search looks for: the first wanted term, as typed."""
        try:
            wanted = parse_query(self.query_one(Input).value).wanted
        except QueryError:
            return None
        return wanted[0].text if wanted else None


def _counts(result: SearchResult) -> str:
    """The note under the results: how many hits, and, when the limit cut some, how many in
    all (the best sessions' best hits are the ones shown)."""
    if not result.truncated:
        return f"{plural(len(result.hits), 'hit')} in {plural(result.sessions_shown, 'session')}"
    return (
        f"{len(result.hits)} of {plural(result.total_hits, 'hit')} shown, from "
        f"{result.sessions_shown} of {plural(result.total_sessions, 'session')} "
        "(the best sessions first)"
    )


def _elsewhere(hits: list[SearchHit]) -> bool:
    """Whether a hit is another project's or another machine's (``project:``, ``machine:``)."""
    return any(hit.machine is not None for hit in hits)
